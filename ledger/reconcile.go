package ledger

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/shopspring/decimal"
)

// Holdings is one balances answer: each token's holding as of TimeMs, the
// answer's server time in Unix milliseconds. It reflects every record dated
// up to TimeMs.
type Holdings struct {
	TimeMs int64
	Tokens map[string]decimal.Decimal
}

// reconcile holds the balances against the records counted: between two
// snapshots each token's holding must change by the sum of the records
// dated between them; what it does not explain accumulates per token.
//
// The baseline is the last snapshot compared; records counted with a time
// after it wait in pending until a snapshot at or after their time is
// compared. A record counted late, dated at or before the baseline but
// after the origin (the first baseline), explains its change at once.
type reconcile struct {
	// enabled is set when balances are polled; without, nothing is kept.
	enabled  bool
	hasBase  bool
	originMs int64
	baseMs   int64
	base     map[string]decimal.Decimal
	// unexplained is the change not explained so far, by token.
	unexplained map[string]decimal.Decimal
	pending     []Record
	// awaiting is the newest snapshot not compared yet: the history has
	// not been read past its time.
	awaiting *Holdings
	// readThroughMs is the end of the last query window the history read whole.
	readThroughMs int64
	// gen counts the changes of unexplained, and the first baseline.
	gen uint64
}

// preBaseKeep is how long before the newest record counted the records
// counted before the first balances answer are kept: only those dated after
// it matter, and it comes within a poll or two of the start.
const preBaseKeep = 15 * time.Minute

// ReconcileBalances turns the reconciliation on: the balances are polled
// and will be passed to ObserveBalances. Without it the ledger keeps
// nothing for it, and saves none.
func (l *Ledger) ReconcileBalances() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.rec.enabled = true
}

// ObserveBalances takes a balances answer: the first becomes the baseline;
// a later one is compared once the token history has been read past its
// time (the newest waiting one replaces an older one).
func (l *Ledger) ObserveBalances(h Holdings) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r := &l.rec
	if !r.hasBase {
		r.hasBase, r.originMs, r.baseMs, r.base = true, h.TimeMs, h.TimeMs, maps.Clone(h.Tokens)
		r.unexplained = map[string]decimal.Decimal{}
		r.pending = slices.DeleteFunc(r.pending, func(p Record) bool { return p.TimestampMs <= h.TimeMs })
		if len(r.pending) == 0 {
			r.pending = nil // the records before the baseline are many; their array goes
		}
		r.gen++
		return
	}
	if h.TimeMs <= r.baseMs || r.awaiting != nil && h.TimeMs <= r.awaiting.TimeMs {
		return
	}
	r.awaiting = &Holdings{TimeMs: h.TimeMs, Tokens: maps.Clone(h.Tokens)}
	r.compare()
}

// record notes a record just counted.
func (r *reconcile) record(rec Record) {
	switch {
	case !r.enabled:
	case !r.hasBase:
		cut := rec.TimestampMs - preBaseKeep.Milliseconds()
		r.pending = append(slices.DeleteFunc(r.pending, func(p Record) bool { return p.TimestampMs < cut }), rec)
	case rec.TimestampMs > r.baseMs:
		r.pending = append(r.pending, rec)
	case rec.TimestampMs > r.originMs:
		r.add(rec.Token, rec.Amount.Neg())
	}
}

// add changes a token's unexplained change by d; a token explained again is
// forgotten unless held.
func (r *reconcile) add(token string, d decimal.Decimal) {
	if d.IsZero() {
		return
	}
	if u := r.unexplained[token].Add(d); u.IsZero() {
		delete(r.unexplained, token)
	} else {
		r.unexplained[token] = u
	}
	r.gen++
}

// readThrough notes that the history was read whole up to endMs.
func (r *reconcile) readThrough(endMs int64) {
	r.readThroughMs = max(r.readThroughMs, endMs)
	r.compare()
}

// compare moves the baseline to the awaiting snapshot once the history has
// been read past it.
func (r *reconcile) compare() {
	s := r.awaiting
	if s == nil || r.readThroughMs < s.TimeMs {
		return
	}
	change := map[string]decimal.Decimal{}
	for token, h := range s.Tokens {
		change[token] = h
	}
	for token, h := range r.base {
		change[token] = change[token].Sub(h)
	}
	r.pending = slices.DeleteFunc(r.pending, func(p Record) bool {
		if p.TimestampMs > s.TimeMs {
			return false
		}
		change[p.Token] = change[p.Token].Sub(p.Amount)
		return true
	})
	if len(r.pending) == 0 {
		r.pending = nil
	}
	for token, d := range change {
		r.add(token, d)
	}
	r.base, r.baseMs, r.awaiting = s.Tokens, s.TimeMs, nil
	r.gen++
}

// Unexplained returns the balance change not explained by the records
// counted, by token: every token held at the baseline (0 while explained),
// and every other one whose change is not 0. ok is false before the first
// balances answer.
func (l *Ledger) Unexplained() (by map[string]decimal.Decimal, ok bool) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	r := &l.rec
	if !r.hasBase {
		return nil, false
	}
	out := make(map[string]decimal.Decimal, len(r.base)+len(r.unexplained))
	maps.Copy(out, r.unexplained)
	for token := range r.base {
		out[token] = r.unexplained[token]
	}
	return out, true
}

// ReconcileGeneration changes whenever Unexplained may have.
func (l *Ledger) ReconcileGeneration() uint64 {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.rec.gen
}

// ReconcileState is the reconciliation in a form that survives a restart:
// the baseline, the change not explained so far and the records waiting
// for a snapshot, decimals as exact text. A snapshot waiting for the history
// is not saved: the next balances answer replaces it.
type ReconcileState struct {
	OriginMs      int64             `json:"origin_ms"`
	BaseMs        int64             `json:"base_ms"`
	ReadThroughMs int64             `json:"read_through_ms"`
	Base          map[string]string `json:"base"`
	Unexplained   map[string]string `json:"unexplained,omitempty"`
	Pending       []PendingRecord   `json:"pending,omitempty"`
}

// PendingRecord is a counted record dated after the baseline.
type PendingRecord struct {
	TimestampMs int64  `json:"timestamp_ms"`
	Token       string `json:"token"`
	Amount      string `json:"amount"`
}

func texts(m map[string]decimal.Decimal) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v.String()
	}
	return out
}

func decimals(field string, m map[string]string) (map[string]decimal.Decimal, error) {
	out := make(map[string]decimal.Decimal, len(m))
	for k, v := range m {
		d, err := parseDecimal(v)
		if err != nil {
			return nil, fmt.Errorf("reconcile %s of %s: %w", field, k, err)
		}
		out[k] = d
	}
	return out, nil
}

// export is the saved form; nil before the first balances answer, and
// when the balances are not polled (a later start takes a new baseline).
func (r *reconcile) export() *ReconcileState {
	if !r.enabled || !r.hasBase {
		return nil
	}
	st := &ReconcileState{OriginMs: r.originMs, BaseMs: r.baseMs, ReadThroughMs: r.readThroughMs,
		Base: texts(r.base), Unexplained: texts(r.unexplained)}
	for _, p := range r.pending {
		st.Pending = append(st.Pending, PendingRecord{TimestampMs: p.TimestampMs, Token: p.Token, Amount: p.Amount.String()})
	}
	slices.SortFunc(st.Pending, func(a, b PendingRecord) int {
		return cmp.Or(cmp.Compare(a.TimestampMs, b.TimestampMs), cmp.Compare(a.Token, b.Token), cmp.Compare(a.Amount, b.Amount))
	})
	return st
}

// restore rebuilds the reconciliation from its saved form.
func (r *reconcile) restore(st *ReconcileState) error {
	if st == nil {
		return nil
	}
	base, err := decimals("base", st.Base)
	if err != nil {
		return err
	}
	unexplained, err := decimals("unexplained", st.Unexplained)
	if err != nil {
		return err
	}
	*r = reconcile{enabled: r.enabled, hasBase: true, originMs: st.OriginMs, baseMs: st.BaseMs, readThroughMs: st.ReadThroughMs,
		base: base, unexplained: unexplained, gen: 1}
	for _, p := range st.Pending {
		d, err := parseDecimal(p.Amount)
		if err != nil {
			return fmt.Errorf("reconcile pending record of %s: %w", p.Token, err)
		}
		r.pending = append(r.pending, Record{TimestampMs: p.TimestampMs, Token: p.Token, Amount: d})
	}
	return nil
}
