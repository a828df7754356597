// Package ledger counts an account's token history records exactly once
// while the exporter reads the history again and again through overlapping
// time windows. It does no I/O: the poller feeds it pages and the collector
// reads snapshots of its totals.
//
// # Cursor
//
// The ledger keeps a cursor, the start of the next query window. A fresh
// ledger starts at now − lookback. Each poll asks the exchange for the
// records with timestamps in [start, end], end being a time fixed for the
// poll. Only after a complete and consistent poll (every page fetched, the
// result set unchanged while paging) does Finish advance the cursor, to
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
// # An exchange that overstates meta.total
//
// A poll is consistent when meta.total did not change while paging and at
// least that many distinct ids arrived (more is fine: a client that pages
// until a short page finds rows an understated total leaves out). If the
// exchange reports more rows than it ever serves, no poll is consistent and
// the cursor would never move. So a poll whose total held steady but came up
// short leaves its end pending; a later steady poll that counts nothing new
// up to that end has read the window again and found what the first read
// found: the window is as complete as the exchange will make it, and Finish
// advances the cursor to the pending end. Any record counted at or before
// the pending end in between, by any poll, shows the earlier read was
// incomplete and the window is re-read again.
//
// # Exactly once
//
// Every record is identified by its id. The ledger remembers the id and
// timestamp of every record it has counted whose timestamp is at or after
// the cursor, and ignores a record it has seen before. Records are counted
// as they arrive, page by page, so a long catch-up shows progress and a
// failed poll loses nothing it had already read. Ids older than the cursor
// are forgotten when the cursor advances; the window never reaches them
// again.
//
// A record older than the cursor is ignored even when the exchange returns
// it: it cannot be told apart from one counted before its id was forgotten.
// Such a record either was counted already or showed up later than the
// overlap allows; the overlap is the configured tolerance for late records.
// A record newer than the poll's end is ignored too: the next window
// includes it.
package ledger

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/client"
)

// IdleWindow is how far back the cursor may stay behind a poll's end when
// no recent record moves it: it bounds the query window of a quiet account.
const IdleWindow = 24 * time.Hour

// StateVersion is the version of State that Export writes and FromState reads.
const StateVersion = 1

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
}

type key struct{ token, typ string }

type sums struct {
	records         uint64
	inflow, outflow decimal.Decimal
}

// Ledger is the exactly-once history account of one exchange account. It is
// safe for one writer (Observe, Complete) and any number of concurrent
// readers (Snapshot, Totals, LastRecordTimestamp, Window, Export).
type Ledger struct {
	overlap time.Duration

	mu     sync.RWMutex
	start  int64           // cursor, Unix ms
	seen   map[int64]int64 // id → timestamp of counted records with timestamp ≥ start
	newest int64
	hasNew bool
	totals map[key]*sums

	// pendingEnd is the end of the last steady poll that came up short of
	// meta.total (see Finish); pendingStale is set when a record at or
	// before it was counted since. Not saved: after a restart the window
	// is simply read twice more.
	pendingEnd   int64
	hasPending   bool
	pendingStale bool
}

// New returns an empty ledger whose first window starts at startMs (now −
// lookback, in Unix milliseconds) and whose windows overlap by overlap.
func New(startMs int64, overlap time.Duration) *Ledger {
	return &Ledger{
		overlap: max(overlap, 0),
		start:   startMs,
		seen:    map[int64]int64{},
		totals:  map[key]*sums{},
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

// Observe counts rec unless it was counted before or lies outside the
// window [cursor, end] of the current poll. It reports whether rec was
// counted.
func (l *Ledger) Observe(rec client.HistoryRecord, end int64) (counted bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.observe(rec, end)
}

// ObservePage counts the records of one page, as Observe does, under one
// lock, and returns how many were counted.
func (l *Ledger) ObservePage(recs []client.HistoryRecord, end int64) (counted int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, r := range recs {
		if l.observe(r, end) {
			counted++
		}
	}
	return counted
}

func (l *Ledger) observe(rec client.HistoryRecord, end int64) bool {
	if rec.Timestamp < l.start || rec.Timestamp > end {
		return false
	}
	if _, ok := l.seen[rec.ID]; ok {
		return false
	}
	l.seen[rec.ID] = rec.Timestamp
	k := key{rec.Token, rec.Type}
	s := l.totals[k]
	if s == nil {
		s = &sums{}
		l.totals[k] = s
	}
	s.records++
	switch rec.Amount.Sign() {
	case 1:
		s.inflow = s.inflow.Add(rec.Amount)
	case -1:
		s.outflow = s.outflow.Sub(rec.Amount)
	}
	if !l.hasNew || rec.Timestamp > l.newest {
		l.newest, l.hasNew = rec.Timestamp, true
	}
	if l.hasPending && rec.Timestamp <= l.pendingEnd {
		l.pendingStale = true
	}
	return true
}

// PollResult is what Finish made of a poll.
type PollResult int

const (
	// PollComplete: the poll was consistent and the cursor advanced.
	PollComplete PollResult = iota
	// PollShortAccepted: meta.total held steady but more rows were promised
	// than served, and this re-read found nothing new up to the end of an
	// earlier such poll: the cursor advanced to that end.
	PollShortAccepted
	// PollIncomplete: the cursor stays and the next poll re-reads the
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

// Complete records that the poll of the window ending at end fetched every
// page and saw a consistent result: it advances the cursor and forgets the
// ids older than the new cursor. Call it only after such a poll.
func (l *Ledger) Complete(end int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.complete(end)
}

func (l *Ledger) complete(end int64) {
	next := max(l.start, end-max(l.overlap, IdleWindow).Milliseconds())
	if l.hasNew {
		next = max(next, min(l.newest, end)-l.overlap.Milliseconds())
	}
	if next <= l.start {
		return
	}
	l.start = next
	for id, ts := range l.seen {
		if ts < next {
			delete(l.seen, id)
		}
	}
}

// Totals returns a copy of the running totals, sorted by token, then type.
func (l *Ledger) Totals() []Total {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.totalsLocked()
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

// LastRecordTimestamp is the newest record timestamp counted, in Unix ms;
// ok is false until a record has been counted.
func (l *Ledger) LastRecordTimestamp() (ms int64, ok bool) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.newest, l.hasNew
}

// Snapshot returns an immutable copy of the totals and the newest record
// timestamp, taken together.
func (l *Ledger) Snapshot() Snapshot {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return Snapshot{Totals: l.totalsLocked(), LastRecordMs: l.newest, HasRecord: l.hasNew}
}

// Seen reports how many record ids the ledger remembers.
func (l *Ledger) Seen() int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return len(l.seen)
}

// State is the whole ledger in a form that survives a restart exactly:
// JSON-serializable, decimals as strings.
type State struct {
	Version int `json:"version"`
	// StartMs is the cursor.
	StartMs int64 `json:"start_ms"`
	// LastRecordMs is the newest record timestamp counted; absent until a
	// record has been counted.
	LastRecordMs *int64       `json:"last_record_ms,omitempty"`
	Seen         []SeenRecord `json:"seen"`
	Totals       []StateTotal `json:"totals"`
}

// SeenRecord is a remembered record id.
type SeenRecord struct {
	ID          int64 `json:"id"`
	TimestampMs int64 `json:"timestamp_ms"`
}

// StateTotal is a Total with exact decimal text.
type StateTotal struct {
	Token   string `json:"token"`
	Type    string `json:"type"`
	Records uint64 `json:"records"`
	Inflow  string `json:"inflow"`
	Outflow string `json:"outflow"`
}

// Export returns the ledger's state. It is consistent even in the middle of
// a poll: records counted so far are remembered as seen, and the cursor has
// not moved, so a restart re-reads the window and counts nothing twice.
func (l *Ledger) Export() State {
	l.mu.RLock()
	defer l.mu.RUnlock()
	st := State{Version: StateVersion, StartMs: l.start, Seen: make([]SeenRecord, 0, len(l.seen)), Totals: []StateTotal{}}
	if l.hasNew {
		n := l.newest
		st.LastRecordMs = &n
	}
	for id, ts := range l.seen {
		st.Seen = append(st.Seen, SeenRecord{ID: id, TimestampMs: ts})
	}
	slices.SortFunc(st.Seen, func(a, b SeenRecord) int { return cmp.Compare(a.ID, b.ID) })
	for _, t := range l.totalsLocked() {
		st.Totals = append(st.Totals, StateTotal{Token: t.Token, Type: t.Type, Records: t.Records,
			Inflow: t.Inflow.String(), Outflow: t.Outflow.String()})
	}
	return st
}

// FromState rebuilds a ledger exported by Export.
func FromState(st State, overlap time.Duration) (*Ledger, error) {
	if st.Version != StateVersion {
		return nil, fmt.Errorf("ledger state version %d: want %d", st.Version, StateVersion)
	}
	l := New(st.StartMs, overlap)
	if st.LastRecordMs != nil {
		l.newest, l.hasNew = *st.LastRecordMs, true
	}
	for _, s := range st.Seen {
		if _, dup := l.seen[s.ID]; dup {
			return nil, fmt.Errorf("ledger state: record id %d listed twice", s.ID)
		}
		l.seen[s.ID] = s.TimestampMs
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

// PollCheck tells whether the pages of one poll formed a consistent result:
// meta.total the same on every page and at least that many distinct ids.
// When records appear or vanish while the exporter pages, rows can shift
// between pages and one may be skipped; the cursor must then stay put.
type PollCheck struct {
	pages   int
	total   int
	changed bool
	ids     map[int64]struct{}
}

// Page records one page as the exchange sent it.
func (c *PollCheck) Page(p client.HistoryPage) {
	if c.ids == nil {
		c.ids = map[int64]struct{}{}
	}
	if c.pages == 0 {
		c.total = p.Meta.Total
	} else if p.Meta.Total != c.total {
		c.changed = true
	}
	c.pages++
	for _, r := range p.Records {
		c.ids[r.ID] = struct{}{}
	}
}

// Consistent reports whether the pages seen so far can be trusted to hold
// every record of the window. More distinct ids than meta.total is fine:
// paging on to a short page finds the rows an understated total leaves out.
func (c *PollCheck) Consistent() bool {
	return c.steady() && len(c.ids) >= c.total
}

// steady reports whether pages arrived and meta.total was the same on each.
func (c *PollCheck) steady() bool { return c.pages > 0 && !c.changed }

// Changed reports whether meta.total changed between pages.
func (c *PollCheck) Changed() bool { return c.changed }

// Distinct is the number of distinct record ids seen.
func (c *PollCheck) Distinct() int { return len(c.ids) }

// Total is meta.total of the first page.
func (c *PollCheck) Total() int { return c.total }
