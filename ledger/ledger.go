// Package ledger counts an account's token history records exactly once
// while the exporter reads the history again and again through overlapping
// time windows. It does no I/O and imports nothing from this module: the
// collector converts the exchange's rows into Records, feeds them in, and
// reads snapshots of the totals.
//
// # Cursor
//
// The ledger keeps a cursor, the start of the next query window. A fresh
// ledger starts at now − lookback. Each poll asks the exchange for the
// records with timestamps in [start, end], end being a time fixed for the
// poll and never later than the exchange's own clock has confirmed. Only
// after a complete and consistent poll (every page fetched, the result set
// unchanged while paging) does Finish advance the cursor, to
//
//	max(start, newest record timestamp seen − overlap, end − max(overlap, IdleWindow))
//
// so the next window re-reads the last overlap before the newest record:
// records the exchange shows late, with a timestamp inside that overlap,
// are still found. The third term only bounds the window of an account
// that has had no records for a long time; it never cuts into the overlap.
// After a failed or inconsistent poll the cursor stays, and the next poll
// re-reads the same window.
//
// # Identity and memory
//
// A record is identified by its id together with its token and type: the
// exchange may reuse one id for the legs of one trade, and such rows are
// distinct records (counted, and counted as shared-id records). A row whose
// id, token and type were seen before is the same record even when its
// timestamp moved (a status update): it is never counted twice.
//
// The ledger remembers every record it counted whose latest timestamp is at
// or after the horizon, a time that only moves forward and trails the
// cursor by the late window (see Late sweep). A row older than the horizon
// (less TruncationSlack) cannot be told apart from one counted before its id
// was forgotten; ObservePage reports such rows instead of counting them, and
// the collector fails the poll loudly. A row between the horizon and the
// cursor is counted if it is new: the exchange returned it although it lies
// before the window, perhaps because it sends times in whole seconds.
//
// # Late sweep
//
// Nothing documents when a record becomes visible relative to its
// timestamp. A record listed after the overlap has passed it would never be
// counted by the regular polls, so from time to time the collector sweeps
// the late window behind the cursor ([max(horizon, now − late window),
// cursor)) in time slices that each fit one page, a few per poll. Records it
// finds that were never counted are counted now, and counted as late.
//
// # An exchange that overstates meta.total
//
// A poll is consistent when meta.total did not change while paging and at
// least that many distinct records arrived (more is fine: paging on to an
// empty page finds rows an understated total leaves out). If the exchange
// reports more rows than it ever serves, no poll is consistent and the
// cursor would never move. So a poll whose total held steady but came up
// short (and that the collector could not complete by reading the window
// again in smaller slices) leaves its end pending; a later steady poll that
// counts nothing new up to that end has read the window again and found
// what the first read found: the window is as complete as the exchange will
// make it, and Finish advances the cursor to the pending end. Any record
// counted at or before the pending end in between shows the earlier read was
// incomplete and the window is re-read again.
package ledger

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/shopspring/decimal"
)

// IdleWindow is how far back the cursor may stay behind a poll's end when
// no recent record moves it: it bounds the query window of a quiet account.
const IdleWindow = 24 * time.Hour

// TruncationSlack is how far before the horizon a row may lie and still be
// placed: an exchange that sends whole seconds shows a record up to a second
// before its true time.
const TruncationSlack = time.Second

// MaxFutureCursor is how far ahead of the local clock a saved cursor may be
// and still be believed: further ahead, the state is corrupt (a cursor in
// the future would stop counting until that time).
const MaxFutureCursor = time.Hour

// StateVersion is the version of State that Export writes. FromState also
// reads version 1, whose remembered ids carry no token and type.
const StateVersion = 2

// Record is one balance change, as the ledger needs it.
type Record struct {
	ID     int64
	Token  string
	Type   string
	Amount decimal.Decimal
	// TimestampMs is the record time in Unix milliseconds.
	TimestampMs int64
}

// Page is one page of a poll, as PollCheck needs it.
type Page struct {
	Records []Record
	// Others identify rows of the page that are not records (malformed rows
	// the collector skipped): they count toward meta.total all the same.
	Others []string
	// Total is meta.total as the exchange sent it.
	Total int
}

// Config sets how a ledger reads again.
type Config struct {
	// Overlap is how far each window reaches back before the newest record
	// seen: the tolerance of the regular polls for late records.
	Overlap time.Duration
	// LateWindow is how far behind the poll's end record ids are remembered
	// and the late sweep reads; zero disables the sweep and remembers ids
	// from the cursor on only.
	LateWindow time.Duration
}

// Total is the running count of one (token, transaction type) pair.
type Total struct {
	Token string
	Type  string
	// Records counts every record, including those with a zero amount.
	Records uint64
	// Inflow sums the positive amounts, Outflow the magnitudes of the
	// negative ones, in token units.
	Inflow  decimal.Decimal
	Outflow decimal.Decimal
}

// Snapshot is an immutable copy of what the ledger has counted, for readers.
type Snapshot struct {
	// Totals is sorted by token, then type.
	Totals []Total
	// LastRecordMs is the newest record timestamp counted, in Unix
	// milliseconds; HasRecord is false until a record has been counted.
	LastRecordMs int64
	HasRecord    bool
	// LateRecords counts records found only by the late sweep;
	// SharedIDRecords counts records counted although another record of
	// another token or type had the same id.
	LateRecords     uint64
	SharedIDRecords uint64
}

type key struct{ token, typ string }

type sums struct {
	records         uint64
	inflow, outflow decimal.Decimal
}

// seenID is what the ledger remembers of one id: a 16-byte value in the
// seen map, with the (token, type) pair interned, so that the ids of a day
// of records cost no allocation each.
type seenID struct {
	// latestMs is the latest timestamp the id came with.
	latestMs int64
	// kind is the first (token, type) pair counted under this id (the
	// others are in Ledger.moreKinds), or anyKind for an id loaded from a
	// version 1 state, which did not keep them.
	kind *key
}

// anyKind marks an id that matches every (token, type) pair.
var anyKind = &key{}

func (l *Ledger) has(id int64, s seenID, k *key) bool {
	return s.kind == anyKind || (k != nil && (s.kind == k || slices.Contains(l.moreKinds[id], k)))
}

func (l *Ledger) kindsOf(id int64, s seenID) []*key {
	if s.kind == anyKind {
		return nil
	}
	return append([]*key{s.kind}, l.moreKinds[id]...)
}

// sweep is the progress of the late sweep: the slice [next, next+step) of
// [from, to] is read next.
type sweep struct {
	active               bool
	from, to, next, step int64
	lastStart            int64
}

// Ledger is the exactly-once history account of one exchange account. It is
// safe for one writer (the poller) and any number of concurrent readers
// (Snapshot, Totals, Export, ...).
type Ledger struct {
	cfg Config

	mu      sync.RWMutex
	start   int64 // cursor, Unix ms
	horizon int64 // ids with a latest timestamp at or after this are remembered
	seen    map[int64]seenID
	kinds   map[key]*key // interned (token, type) pairs
	// moreKinds are the pairs after the first of ids shared across tokens
	// or types.
	moreKinds map[int64][]*key
	newest    int64
	hasNew    bool
	totals    map[key]*sums
	late      uint64
	shared    uint64
	sweep     sweep

	// pendingEnd is the end of the last steady poll that came up short of
	// meta.total (see Finish); pendingStale is set when a record at or
	// before it was counted since. Not saved: after a restart the window
	// is simply read twice more.
	pendingEnd   int64
	hasPending   bool
	pendingStale bool
}

// New returns an empty ledger whose first window starts at startMs (now −
// lookback, in Unix milliseconds). Nothing before startMs is ever counted.
func New(startMs int64, cfg Config) *Ledger {
	cfg.Overlap, cfg.LateWindow = max(cfg.Overlap, 0), max(cfg.LateWindow, 0)
	return &Ledger{
		cfg:       cfg,
		start:     startMs,
		horizon:   startMs,
		seen:      map[int64]seenID{},
		kinds:     map[key]*key{},
		moreKinds: map[int64][]*key{},
		totals:    map[key]*sums{},
	}
}

// Window is the time range of the next poll, in Unix milliseconds: from the
// cursor to nowMs (never before the cursor).
func (l *Ledger) Window(nowMs int64) (start, end int64) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.start, max(nowMs, l.start)
}

// Start is the cursor: the start of the next query window, in Unix ms.
func (l *Ledger) Start() int64 {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.start
}

// Observed is what ObservePage made of a page.
type Observed struct {
	// Counted is the number of records counted now.
	Counted int
	// Outside is the number of rows outside the window [cursor, end] that
	// was asked for: counted if they were new and could be placed, left
	// for the next window if after end.
	Outside int
	// Unplaceable are rows older than the horizon: they may have been
	// counted before their ids were forgotten, so they are not counted.
	Unplaceable []Record
}

// ObservePage counts the records of one page of the poll of the window
// ending at end, each at most once.
func (l *Ledger) ObservePage(recs []Record, end int64) Observed {
	l.mu.Lock()
	defer l.mu.Unlock()
	var o Observed
	for _, r := range recs {
		if r.TimestampMs < l.start || r.TimestampMs > end {
			o.Outside++
		}
		switch {
		case r.TimestampMs > end:
			// The next window includes it.
		case !l.placeable(r):
			o.Unplaceable = append(o.Unplaceable, r)
		case l.observe(r):
			o.Counted++
		}
	}
	return o
}

func (l *Ledger) placeable(r Record) bool {
	return r.TimestampMs >= l.horizon-TruncationSlack.Milliseconds()
}

// observe counts r unless the same record was counted before.
func (l *Ledger) observe(r Record) bool {
	k := key{r.Token, r.Type}
	kind := l.kinds[k]
	s, ok := l.seen[r.ID]
	if ok {
		s.latestMs = max(s.latestMs, r.TimestampMs)
		if l.has(r.ID, s, kind) {
			l.seen[r.ID] = s
			return false
		}
	}
	if kind == nil {
		kind = &k
		l.kinds[k] = kind
	}
	if ok {
		l.moreKinds[r.ID] = append(l.moreKinds[r.ID], kind)
		l.shared++
	} else {
		s = seenID{latestMs: r.TimestampMs, kind: kind}
	}
	l.seen[r.ID] = s
	t := l.totals[k]
	if t == nil {
		t = &sums{}
		l.totals[k] = t
	}
	t.records++
	switch r.Amount.Sign() {
	case 1:
		t.inflow = t.inflow.Add(r.Amount)
	case -1:
		t.outflow = t.outflow.Sub(r.Amount)
	}
	if !l.hasNew || r.TimestampMs > l.newest {
		l.newest, l.hasNew = r.TimestampMs, true
	}
	if l.hasPending && r.TimestampMs <= l.pendingEnd {
		l.pendingStale = true
	}
	return true
}

// PollResult is what Finish made of a poll.
type PollResult int

const (
	// PollComplete means the poll was consistent and the cursor advanced.
	PollComplete PollResult = iota
	// PollShortAccepted means meta.total held steady but more rows were promised
	// than served, and this re-read found nothing new up to the end of an
	// earlier such poll: the cursor advanced to that end.
	PollShortAccepted
	// PollIncomplete means the cursor stays and the next poll re-reads the
	// window.
	PollIncomplete
)

func (r PollResult) String() string {
	switch r {
	case PollComplete:
		return "complete"
	case PollShortAccepted:
		return "short accepted"
	case PollIncomplete:
		return "incomplete"
	}
	return fmt.Sprintf("PollResult(%d)", int(r))
}

// Finish ends the poll of the window ending at end whose pages check saw:
// it advances the cursor when the poll is consistent, or when it is a
// re-read that confirms a window the exchange keeps serving short (see the
// package comment), and reports which. Call it only after every page
// arrived; a poll that failed is not finished.
func (l *Ledger) Finish(check *PollCheck, end int64) PollResult {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case check.Consistent():
		l.hasPending = false
		l.complete(end)
		return PollComplete
	case !check.steady():
		return PollIncomplete
	}
	confirmed := l.hasPending && !l.pendingStale
	confirmedEnd := min(l.pendingEnd, end)
	// This read may itself be confirmed by the next one.
	l.pendingEnd, l.hasPending, l.pendingStale = end, true, false
	if !confirmed {
		return PollIncomplete
	}
	l.complete(confirmedEnd)
	return PollShortAccepted
}

// Complete ends a poll whose window the caller read completely by other
// means (in slices that each fit one page): it advances the cursor as a
// consistent poll would.
func (l *Ledger) Complete(end int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.hasPending = false
	l.complete(end)
}

func (l *Ledger) complete(end int64) {
	next := max(l.start, end-max(l.cfg.Overlap, IdleWindow).Milliseconds())
	if l.hasNew {
		next = max(next, min(l.newest, end)-l.cfg.Overlap.Milliseconds())
	}
	l.start = next
	l.forget(min(next, end-l.cfg.LateWindow.Milliseconds()))
}

// forget moves the horizon up to h and drops the ids older than it.
func (l *Ledger) forget(h int64) {
	if h <= l.horizon {
		return
	}
	l.horizon = h
	cut := h - TruncationSlack.Milliseconds()
	for id, s := range l.seen {
		if s.latestMs < cut {
			delete(l.seen, id)
			delete(l.moreKinds, id)
		}
	}
}

// NextSweep returns the next slice [from, to] of the late sweep to read, in
// Unix ms, starting a sweep when none is under way and the last one started
// at least every ago (by nowMs); the first call only starts the clock. ok is
// false when there is nothing to read.
func (l *Ledger) NextSweep(nowMs int64, every time.Duration) (from, to int64, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cfg.LateWindow <= 0 {
		return 0, 0, false
	}
	s := &l.sweep
	if !s.active {
		if s.lastStart == 0 {
			// The first sweep comes one interval after the first poll,
			// which has just read the whole window.
			s.lastStart = nowMs
			return 0, 0, false
		}
		if nowMs-s.lastStart < every.Milliseconds() {
			return 0, 0, false
		}
		// Up to just before the cursor: the regular polls read the rest.
		s.from = max(l.horizon, nowMs-l.cfg.LateWindow.Milliseconds())
		s.to = l.start - 1
		s.next, s.step, s.lastStart = s.from, s.to-s.from+1, nowMs
		s.active = s.to >= s.from
		if !s.active {
			return 0, 0, false
		}
	}
	// Ids below the horizon are forgotten: the sweep cannot place them.
	s.next = max(s.next, l.horizon)
	if s.next > s.to {
		s.active = false
		return 0, 0, false
	}
	return s.next, min(s.next+s.step-1, s.to), true
}

// SweepRead takes the rows the exchange returned for the slice [from, to]
// of the late sweep. fits says they are the whole slice (one page, short of
// the page size, no fewer rows than meta.total); when they are not, the
// slice is halved and nothing is counted. It returns how many records were
// counted, all of them late.
func (l *Ledger) SweepRead(from, to int64, recs []Record, fits bool) (counted int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := &l.sweep
	if !s.active || from != s.next {
		return 0
	}
	if !fits && s.step > 1 {
		s.step = max(s.step/2, 1)
		return 0
	}
	for _, r := range recs {
		if r.TimestampMs < from || r.TimestampMs > to || !l.placeable(r) {
			continue
		}
		if l.observe(r) {
			counted++
		}
	}
	l.late += uint64(counted)
	s.next = to + 1
	if fits {
		// A slice that fit one page: try a larger one next.
		s.step = min(2*s.step, s.to-s.from+1)
	}
	if s.next > s.to {
		s.active = false
	}
	return counted
}

func (l *Ledger) totalsLocked() []Total {
	out := make([]Total, 0, len(l.totals))
	for k, s := range l.totals {
		out = append(out, Total{Token: k.token, Type: k.typ, Records: s.records, Inflow: s.inflow, Outflow: s.outflow})
	}
	slices.SortFunc(out, func(a, b Total) int {
		return cmp.Or(cmp.Compare(a.Token, b.Token), cmp.Compare(a.Type, b.Type))
	})
	return out
}

// Snapshot returns an immutable copy of the totals and counters, taken
// together.
func (l *Ledger) Snapshot() Snapshot {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return Snapshot{Totals: l.totalsLocked(), LastRecordMs: l.newest, HasRecord: l.hasNew,
		LateRecords: l.late, SharedIDRecords: l.shared}
}

// State is the whole ledger in a form that survives a restart exactly:
// JSON-serializable, decimals as strings.
type State struct {
	Version int `json:"version"`
	// StartMs is the cursor.
	StartMs int64 `json:"start_ms"`
	// HorizonMs is the horizon (version 2; version 1 had it at the cursor).
	HorizonMs *int64 `json:"horizon_ms,omitempty"`
	// LastRecordMs is the newest record timestamp counted; absent until a
	// record has been counted.
	LastRecordMs    *int64       `json:"last_record_ms,omitempty"`
	Seen            []SeenRecord `json:"seen"`
	Totals          []StateTotal `json:"totals"`
	LateRecords     uint64       `json:"late_records,omitempty"`
	SharedIDRecords uint64       `json:"shared_id_records,omitempty"`
	Sweep           *SweepState  `json:"sweep,omitempty"`
}

// SeenRecord is a remembered record: its id, token and type, and the latest
// timestamp it came with. Version 1 states have no token and type; such an
// id matches any.
type SeenRecord struct {
	ID          int64  `json:"id"`
	TimestampMs int64  `json:"timestamp_ms"`
	Token       string `json:"token,omitempty"`
	Type        string `json:"type,omitempty"`
}

// StateTotal is a Total with exact decimal text.
type StateTotal struct {
	Token   string `json:"token"`
	Type    string `json:"type"`
	Records uint64 `json:"records"`
	Inflow  string `json:"inflow"`
	Outflow string `json:"outflow"`
}

// SweepState is the progress of the late sweep, so that a restart goes on
// where it stopped rather than starting over or skipping a sweep.
type SweepState struct {
	Active      bool  `json:"active"`
	FromMs      int64 `json:"from_ms"`
	ToMs        int64 `json:"to_ms"`
	NextMs      int64 `json:"next_ms"`
	StepMs      int64 `json:"step_ms"`
	LastStartMs int64 `json:"last_start_ms"`
}

// Export returns the ledger's state. It is consistent even in the middle of
// a poll: records counted so far are remembered as seen, and the cursor has
// not moved, so a restart re-reads the window and counts nothing twice.
func (l *Ledger) Export() State {
	l.mu.RLock()
	defer l.mu.RUnlock()
	h := l.horizon
	st := State{Version: StateVersion, StartMs: l.start, HorizonMs: &h, Seen: make([]SeenRecord, 0, len(l.seen)),
		Totals: []StateTotal{}, LateRecords: l.late, SharedIDRecords: l.shared}
	if l.hasNew {
		n := l.newest
		st.LastRecordMs = &n
	}
	for id, s := range l.seen {
		for _, k := range l.kindsOf(id, s) {
			st.Seen = append(st.Seen, SeenRecord{ID: id, TimestampMs: s.latestMs, Token: k.token, Type: k.typ})
		}
	}
	slices.SortFunc(st.Seen, func(a, b SeenRecord) int {
		return cmp.Or(cmp.Compare(a.ID, b.ID), cmp.Compare(a.Token, b.Token), cmp.Compare(a.Type, b.Type))
	})
	for _, t := range l.totalsLocked() {
		st.Totals = append(st.Totals, StateTotal{Token: t.Token, Type: t.Type, Records: t.Records,
			Inflow: t.Inflow.String(), Outflow: t.Outflow.String()})
	}
	if s := l.sweep; s != (sweep{}) {
		st.Sweep = &SweepState{Active: s.active, FromMs: s.from, ToMs: s.to, NextMs: s.next, StepMs: s.step, LastStartMs: s.lastStart}
	}
	return st
}

// Check reports whether st is plausible at the local time nowMs: a cursor
// more than MaxFutureCursor ahead, or a horizon after the cursor, makes a
// corrupt state.
func (st State) Check(nowMs int64) error {
	if st.StartMs > nowMs+MaxFutureCursor.Milliseconds() {
		return fmt.Errorf("ledger state: cursor %s is in the future (local time %s)",
			time.UnixMilli(st.StartMs).UTC().Format(time.RFC3339), time.UnixMilli(nowMs).UTC().Format(time.RFC3339))
	}
	if st.HorizonMs != nil && *st.HorizonMs > st.StartMs {
		return errors.New("ledger state: horizon after the cursor")
	}
	return nil
}

// FromState rebuilds a ledger exported by Export (or by a version 1
// exporter).
func FromState(st State, cfg Config) (*Ledger, error) {
	if st.Version != StateVersion && st.Version != 1 {
		return nil, fmt.Errorf("ledger state version %d: want 1 or %d", st.Version, StateVersion)
	}
	l := New(st.StartMs, cfg)
	if st.HorizonMs != nil {
		if *st.HorizonMs > st.StartMs {
			return nil, errors.New("ledger state: horizon after the cursor")
		}
		l.horizon = *st.HorizonMs
	}
	if st.LastRecordMs != nil {
		l.newest, l.hasNew = *st.LastRecordMs, true
	}
	l.late, l.shared = st.LateRecords, st.SharedIDRecords
	for _, s := range st.Seen {
		e, ok := l.seen[s.ID]
		switch {
		case ok && st.Version == 1:
			return nil, fmt.Errorf("ledger state: record id %d listed twice", s.ID)
		case !ok:
			e = seenID{latestMs: s.TimestampMs}
			if st.Version == 1 {
				e.kind = anyKind
			}
		}
		if st.Version != 1 {
			k := key{s.Token, s.Type}
			kind := l.kinds[k]
			if kind == nil {
				kind = &k
				l.kinds[k] = kind
			}
			if l.has(s.ID, e, kind) {
				return nil, fmt.Errorf("ledger state: record %d %s %s listed twice", s.ID, s.Token, s.Type)
			}
			if e.kind == nil {
				e.kind = kind
			} else {
				l.moreKinds[s.ID] = append(l.moreKinds[s.ID], kind)
			}
		}
		e.latestMs = max(e.latestMs, s.TimestampMs)
		l.seen[s.ID] = e
	}
	for _, t := range st.Totals {
		in, err := parseAmount(t.Inflow)
		if err != nil {
			return nil, fmt.Errorf("ledger state: inflow of %s %s: %w", t.Token, t.Type, err)
		}
		out, err := parseAmount(t.Outflow)
		if err != nil {
			return nil, fmt.Errorf("ledger state: outflow of %s %s: %w", t.Token, t.Type, err)
		}
		k := key{t.Token, t.Type}
		if _, dup := l.totals[k]; dup {
			return nil, fmt.Errorf("ledger state: total of %s %s listed twice", t.Token, t.Type)
		}
		l.totals[k] = &sums{records: t.Records, inflow: in, outflow: out}
	}
	if s := st.Sweep; s != nil {
		if s.Active && (s.StepMs < 1 || s.NextMs < s.FromMs || s.ToMs < s.FromMs) {
			return nil, errors.New("ledger state: sweep progress out of order")
		}
		l.sweep = sweep{active: s.Active, from: s.FromMs, to: s.ToMs, next: s.NextMs, step: s.StepMs, lastStart: s.LastStartMs}
	}
	return l, nil
}

func parseAmount(s string) (decimal.Decimal, error) {
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Decimal{}, err
	}
	if d.Sign() < 0 {
		return decimal.Decimal{}, errors.New("negative")
	}
	return d, nil
}

// recordID is what identifies a record within one poll: its id and a hash
// of its token and type (a collision only makes a poll look short).
type recordID struct {
	id, kind uint64
}

func recordIDOf(r Record) recordID {
	// FNV-1a, inline: no allocation per row.
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	for i := 0; i < len(r.Token); i++ {
		h = (h ^ uint64(r.Token[i])) * prime
	}
	h *= prime // a zero byte between the two
	for i := 0; i < len(r.Type); i++ {
		h = (h ^ uint64(r.Type[i])) * prime
	}
	return recordID{uint64(r.ID), h}
}

// PollCheck tells whether the pages of one poll formed a consistent result:
// meta.total the same on every page and at least that many distinct
// records. When records appear or vanish while the exporter pages, rows can
// shift between pages and one may be skipped; the cursor must then stay put.
type PollCheck struct {
	pages   int
	total   int
	changed bool
	ids     map[recordID]struct{}
	others  map[string]struct{}
}

// Page records one page as the exchange sent it.
func (c *PollCheck) Page(p Page) {
	if c.ids == nil {
		c.ids = map[recordID]struct{}{}
	}
	if c.pages == 0 {
		c.total = p.Total
	} else if p.Total != c.total {
		c.changed = true
	}
	c.pages++
	for _, r := range p.Records {
		c.ids[recordIDOf(r)] = struct{}{}
	}
	for _, o := range p.Others {
		if c.others == nil {
			c.others = map[string]struct{}{}
		}
		c.others[o] = struct{}{}
	}
}

// Consistent reports whether the pages seen so far can be trusted to hold
// every record of the window. More distinct records than meta.total is
// fine: paging on finds the rows an understated total leaves out.
func (c *PollCheck) Consistent() bool {
	return c.steady() && c.Distinct() >= c.total
}

// Short reports whether meta.total held steady but fewer distinct records
// arrived: a read the collector may complete in smaller slices.
func (c *PollCheck) Short() bool { return c.steady() && c.Distinct() < c.total }

// steady reports whether pages arrived and meta.total was the same on each.
func (c *PollCheck) steady() bool { return c.pages > 0 && !c.changed }

// Changed reports whether meta.total changed between pages.
func (c *PollCheck) Changed() bool { return c.changed }

// Distinct is the number of distinct records (and other rows) seen.
func (c *PollCheck) Distinct() int { return len(c.ids) + len(c.others) }

// Total is meta.total of the first page.
func (c *PollCheck) Total() int { return c.total }
