package ledger

import (
	"cmp"
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

// Record is one balance change, as the ledger needs it.
type Record struct {
	ID     int64
	Token  string
	Type   string
	Amount decimal.Decimal
	// TimestampMs is the record time in Unix milliseconds.
	TimestampMs int64
}

// Config sets how a ledger reads again.
type Config struct {
	// Overlap is how far each query window reaches back before the newest record
	// seen: the tolerance of the regular polls for late records.
	Overlap time.Duration
	// LateWindow is how far behind the poll's end record ids are remembered
	// and the late sweep reads; zero disables the sweep and remembers ids
	// from the cursor on only.
	LateWindow time.Duration
	// MaxPairs bounds the (token, type) pairs counted by name (see
	// Other); zero leaves them unbounded.
	MaxPairs int
	// MaxAmount is the largest magnitude of one record's amount (the
	// client refuses larger ones); a saved total beyond its records times
	// MaxAmount is left out on restore (see FromState). Zero skips that
	// check.
	MaxAmount decimal.Decimal
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
	// FoldedRecords counts the records counted under Other since this
	// ledger was made or loaded.
	FoldedRecords uint64
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
	// named and others count the totals by name and under Other.
	named, others int
	// folded counts the records counted under Other since the ledger was
	// made (not saved: a process counter).
	folded uint64
	late   uint64
	shared uint64
	sweep  sweep

	// pendingEnd is the end of the last steady poll that came up short of
	// meta.total (see Finish); pendingStale is set when a record at or
	// before it was counted since. Not saved: after a restart the query window
	// is simply read twice more.
	pendingEnd   int64
	hasPending   bool
	pendingStale bool

	// rec holds the balances against the records counted.
	rec reconcile
	// leftOut are the saved totals FromState left out (see LeftOut).
	leftOut []StateTotal
}

// New returns an empty ledger whose first query window starts at startMs (now −
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

// QueryWindow is the time range of the next poll, in Unix milliseconds: from the
// cursor to nowMs (never before the cursor).
func (l *Ledger) QueryWindow(nowMs int64) (start, end int64) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.start, max(nowMs, l.start)
}

// Newest is the timestamp of the newest record counted, in Unix ms; ok is
// false before any.
func (l *Ledger) Newest() (ms int64, ok bool) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.newest, l.hasNew
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
	// Outside is the number of rows outside the query window [cursor, end] that
	// was asked for: counted if they were new and could be placed, left
	// for the next query window if after end.
	Outside int
	// Unplaceable are rows older than the horizon: they may have been
	// counted before their ids were forgotten, so they are not counted.
	Unplaceable []Record
	// Folded is the number of records counted under Other.
	Folded int
}

// ObservePage counts the records of one page of the poll of the query window
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
			// The next query window includes it.
		case !l.placeable(r):
			o.Unplaceable = append(o.Unplaceable, r)
		default:
			if counted, folded := l.observe(r); counted {
				o.Counted++
				o.Folded += boolInt(folded)
			}
		}
	}
	return o
}

func (l *Ledger) placeable(r Record) bool {
	return r.TimestampMs >= l.horizon-TruncationSlack.Milliseconds()
}

// observe counts r unless the same record was counted before, and reports
// whether it was counted under Other.
func (l *Ledger) observe(r Record) (counted, folded bool) {
	k := key{r.Token, r.Type}
	kind := l.kinds[k]
	s, ok := l.seen[r.ID]
	if ok {
		s.latestMs = max(s.latestMs, r.TimestampMs)
		if l.has(r.ID, s, kind) {
			l.seen[r.ID] = s
			return false, false
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
	t, folded := l.total(k)
	l.folded += uint64(boolInt(folded))
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
	l.rec.record(r)
	return true, folded
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
	// query window.
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

// Finish ends the poll of the query window ending at end whose pages check saw:
// it advances the cursor when the poll is consistent, or when it is a
// re-read that confirms a query window the exchange keeps serving short (see the
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

// Complete ends a poll whose query window the caller read completely by other
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
	l.rec.readThrough(end)
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
		LateRecords: l.late, SharedIDRecords: l.shared, FoldedRecords: l.folded}
}
