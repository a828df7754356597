package ledger

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
)

// WithdrawalsState is a withdrawal ledger in a form that survives a restart
// exactly. A ledger rebuilt from one is past its seed.
type WithdrawalsState struct {
	// HorizonMs is the oldest creation time whose ids are all remembered.
	HorizonMs int64               `json:"horizon_ms"`
	Seen      []SeenWithdrawal    `json:"seen"`
	Known     []KnownTarget       `json:"known"`
	Totals    []WithdrawalTotal   `json:"totals"`
	Flagged   []FlaggedWithdrawal `json:"flagged,omitempty"`
}

// SeenWithdrawal is a remembered withdrawal id and its creation time.
type SeenWithdrawal struct {
	ID        string `json:"id"`
	CreatedMs int64  `json:"created_ms"`
}

// KnownTarget is a target an earlier withdrawal went to, and the creation
// time of the newest that did.
type KnownTarget struct {
	Target
	LastMs int64 `json:"last_ms"`
}

// Export returns the ledger's state, sorted so that equal ledgers export
// equal states.
func (w *Withdrawals) Export() WithdrawalsState {
	st := WithdrawalsState{HorizonMs: w.horizon, Seen: make([]SeenWithdrawal, 0, len(w.seen)), Known: make([]KnownTarget, 0, len(w.known)),
		Totals: w.Totals()}
	if len(w.flagged) > 0 {
		st.Flagged = slices.Clone(w.flagged)
	}
	for id, created := range w.seen {
		st.Seen = append(st.Seen, SeenWithdrawal{ID: id, CreatedMs: created})
	}
	slices.SortFunc(st.Seen, func(a, b SeenWithdrawal) int { return cmp.Compare(a.ID, b.ID) })
	for t, last := range w.known {
		st.Known = append(st.Known, KnownTarget{Target: t, LastMs: last})
	}
	slices.SortFunc(st.Known, func(a, b KnownTarget) int {
		return cmp.Or(cmp.Compare(a.Network, b.Network), cmp.Compare(a.Address, b.Address), cmp.Compare(a.Tag, b.Tag))
	})
	return st
}

// WithdrawalsFromState rebuilds a withdrawal ledger exported by Export,
// with the flag time (flagForMs) and bound of this run.
func WithdrawalsFromState(st WithdrawalsState, flagForMs int64, maxTotals int) (*Withdrawals, error) {
	w := NewWithdrawals(st.HorizonMs, flagForMs, maxTotals)
	w.seeded = true
	for _, s := range st.Seen {
		if s.ID == "" {
			return nil, errors.New("withdrawal state: empty id")
		}
		if _, dup := w.seen[s.ID]; dup {
			return nil, fmt.Errorf("withdrawal state: id %q twice", s.ID)
		}
		w.seen[s.ID] = s.CreatedMs
	}
	for _, k := range st.Known {
		if k.Address == "" {
			return nil, errors.New("withdrawal state: known target without an address")
		}
		if _, dup := w.known[k.Target]; dup {
			return nil, fmt.Errorf("withdrawal state: target %s %s twice", k.Network, k.Address)
		}
		w.known[k.Target] = k.LastMs
	}
	for _, t := range st.Totals {
		switch t.Destination {
		case DestinationAllowlisted, DestinationUnlisted, DestinationKnown, DestinationNew:
		default:
			return nil, fmt.Errorf("withdrawal state: destination %q", t.Destination)
		}
		k := withdrawalKey{t.Token, t.Network, t.Destination}
		if _, dup := w.totals[k]; dup {
			return nil, fmt.Errorf("withdrawal state: total of %s %s %s twice", t.Token, t.Network, t.Destination)
		}
		w.totals[k] = t.Count
	}
	for _, f := range st.Flagged {
		if f.Destination != DestinationUnlisted && f.Destination != DestinationNew {
			return nil, fmt.Errorf("withdrawal state: flagged withdrawal %q with destination %q", f.ID, f.Destination)
		}
		w.flagged = append(w.flagged, f)
	}
	return w, nil
}
