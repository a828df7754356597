package ledger

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/shopspring/decimal"
)

// MaxFutureCursor is how far ahead of the exchange's clock a saved cursor
// may be and still be believed: further ahead, the state is corrupt (a
// cursor in the future would stop counting until that time).
const MaxFutureCursor = time.Hour

// StateVersion is the version of State that Export writes. FromState also
// reads version 1, whose remembered ids carry no token and type.
const StateVersion = 2

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
	// Reconcile is the balance reconciliation; absent before the first
	// balances answer and in states written before it existed.
	Reconcile *ReconcileState `json:"reconcile,omitempty"`
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
// not moved, so a restart re-reads the query window and counts nothing twice.
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
	st.Reconcile = l.rec.export()
	return st
}

// Check reports whether st is plausible at the exchange's time nowMs: a
// cursor more than MaxFutureCursor ahead, or a horizon after the cursor,
// makes a corrupt state.
func (st State) Check(nowMs int64) error {
	if st.StartMs > nowMs+MaxFutureCursor.Milliseconds() {
		return fmt.Errorf("ledger state: cursor %s is in the future (exchange time %s)",
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
		k := key{t.Token, t.Type}
		if _, dup := l.totals[k]; dup || l.isLeftOut(k) {
			return nil, fmt.Errorf("ledger state: total of %s %s listed twice", t.Token, t.Type)
		}
		s, fits, err := restoreTotal(t, cfg.MaxAmount)
		if err != nil {
			return nil, err
		}
		if !fits {
			l.leftOut = append(l.leftOut, t)
			continue
		}
		*l.newTotal(k) = s
	}
	if s := st.Sweep; s != nil {
		if s.Active && (s.StepMs < 1 || s.NextMs < s.FromMs || s.ToMs < s.FromMs) {
			return nil, errors.New("ledger state: sweep progress out of order")
		}
		l.sweep = sweep{active: s.Active, from: s.FromMs, to: s.ToMs, next: s.NextMs, step: s.StepMs, lastStart: s.LastStartMs}
	}
	if err := l.rec.restore(st.Reconcile); err != nil {
		return nil, fmt.Errorf("ledger state: %w", err)
	}
	return l, nil
}

func parseAmount(s string) (decimal.Decimal, error) {
	d, err := parseDecimal(s)
	if err != nil {
		return decimal.Decimal{}, err
	}
	if d.Sign() < 0 {
		return decimal.Decimal{}, errors.New("negative")
	}
	return d, nil
}

// errNotDecimal leaves the value out: a state file's values are the
// exchange's, and a damaged one can hold anything.
var errNotDecimal = errors.New("not a decimal")

// parseDecimal reads a decimal the ledger saved.
func parseDecimal(s string) (decimal.Decimal, error) {
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Decimal{}, errNotDecimal
	}
	return d, nil
}
