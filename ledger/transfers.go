package ledger

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/shopspring/decimal"
)

// Transfer directions, from the account's side.
const (
	DirectionIn  = "in"
	DirectionOut = "out"
)

// Transfer is one completed transfer between the account and another
// account of the same owner, as the transfer ledger counts it.
type Transfer struct {
	// ID identifies the transfer; the same transfer read again (a status
	// update, a page repeated, a late listing) has the same ID.
	ID    string
	Token string
	// Direction is DirectionIn or DirectionOut.
	Direction string
	// Counterparty names the other account; CounterpartyID is its
	// application id.
	Counterparty, CounterpartyID string
	// Amount is the magnitude moved.
	Amount decimal.Decimal
	// LatestMs is the transfer's latest time (updated, else created).
	LatestMs int64
}

// TransferTotal is what the transfers of one token, direction and
// counterparty add up to.
type TransferTotal struct {
	Token, Direction, Counterparty string
	// CounterpartyID is the application id of the counterparty's newest
	// transfer; "" under Other.
	CounterpartyID string
	Records        uint64
	Amount         decimal.Decimal
	// LastMs is the latest time of the newest transfer counted.
	LastMs int64
}

type transferKey struct{ token, direction, counterparty string }

// Transfers counts every completed transfer of one account exactly once by
// its id: across polls, across restarts (Export and TransfersFromState)
// and when the exchange lists a transfer late, as long as it is listed
// within the late window behind the cursor. Each poll reads the whole late
// window again, so a transfer listed late is found by the next poll; ids
// are remembered until their latest time falls behind the horizon, which
// follows the cursor one late window behind. Not safe for concurrent use:
// the transfer poller owns it.
type Transfers struct {
	cursor, horizon int64
	lateWindowMs    int64
	// maxPairs bounds the distinct totals; beyond it a transfer is
	// counted under the counterparty Other.
	maxPairs int
	seen     map[string]int64
	totals   map[transferKey]*TransferTotal
	folded   uint64
}

// NewTransfers starts counting at startMs (Unix milliseconds): transfers
// before it are never counted.
func NewTransfers(startMs int64, lateWindowMs int64, maxPairs int) *Transfers {
	return &Transfers{cursor: startMs, horizon: startMs, lateWindowMs: lateWindowMs, maxPairs: maxPairs,
		seen: map[string]int64{}, totals: map[transferKey]*TransferTotal{}}
}

// Window is the window the next poll reads at the exchange's time nowMs:
// from one late window behind the cursor (not before the horizon) to now.
// A cursor ahead of now (a clock stepped back) reads from now.
func (t *Transfers) Window(nowMs int64) (start, end int64) {
	start = max(t.horizon, min(t.cursor, nowMs)-t.lateWindowMs)
	return min(start, nowMs), nowMs
}

// Count counts the transfers not counted before and returns how many it
// counted. A transfer whose latest time lies before the horizon is not
// counted: it cannot be told apart from one whose id was forgotten.
func (t *Transfers) Count(recs []Transfer) (counted int) {
	for _, r := range recs {
		if r.LatestMs < t.horizon {
			continue
		}
		if latest, ok := t.seen[r.ID]; ok {
			t.seen[r.ID] = max(latest, r.LatestMs)
			continue
		}
		t.seen[r.ID] = r.LatestMs
		k := transferKey{r.Token, r.Direction, r.Counterparty}
		tot, ok := t.totals[k]
		if !ok && t.maxPairs > 0 && len(t.totals) >= t.maxPairs {
			k.counterparty = Other
			t.folded++
			tot, ok = t.totals[k]
			r.CounterpartyID = ""
		}
		if !ok {
			tot = &TransferTotal{Token: k.token, Direction: k.direction, Counterparty: k.counterparty}
			t.totals[k] = tot
		}
		tot.Records++
		tot.Amount = tot.Amount.Add(r.Amount.Abs())
		if r.LatestMs >= tot.LastMs {
			tot.LastMs, tot.CounterpartyID = r.LatestMs, r.CounterpartyID
		}
		counted++
	}
	return counted
}

// Finish moves the cursor to endMs after a poll that read every page of
// its window, and forgets the ids whose latest time fell behind the new
// horizon.
func (t *Transfers) Finish(endMs int64) {
	t.cursor = max(t.cursor, endMs)
	t.horizon = max(t.horizon, t.cursor-t.lateWindowMs)
	for id, latest := range t.seen {
		if latest < t.horizon {
			delete(t.seen, id)
		}
	}
}

// Totals returns every total, sorted by token, direction and counterparty.
func (t *Transfers) Totals() []TransferTotal {
	out := make([]TransferTotal, 0, len(t.totals))
	for _, tot := range t.totals {
		out = append(out, *tot)
	}
	slices.SortFunc(out, func(a, b TransferTotal) int {
		return cmp.Or(cmp.Compare(a.Token, b.Token), cmp.Compare(a.Direction, b.Direction), cmp.Compare(a.Counterparty, b.Counterparty))
	})
	return out
}

// Folded is how many transfers were counted under Other since this
// process started.
func (t *Transfers) Folded() uint64 { return t.folded }

// TransfersState is a transfer ledger in a form that survives a restart
// exactly: JSON-serializable, decimals as strings.
type TransfersState struct {
	// CursorMs is where the last complete poll ended; HorizonMs the
	// oldest latest time whose ids are all remembered.
	CursorMs  int64               `json:"cursor_ms"`
	HorizonMs int64               `json:"horizon_ms"`
	Seen      []SeenTransfer      `json:"seen"`
	Totals    []TransferTotalText `json:"totals"`
}

// SeenTransfer is a remembered transfer id and its latest time.
type SeenTransfer struct {
	ID       string `json:"id"`
	LatestMs int64  `json:"latest_ms"`
}

// TransferTotalText is a TransferTotal with exact decimal text.
type TransferTotalText struct {
	Token          string `json:"token"`
	Direction      string `json:"direction"`
	Counterparty   string `json:"counterparty"`
	CounterpartyID string `json:"counterparty_application_id,omitempty"`
	Records        uint64 `json:"records"`
	Amount         string `json:"amount"`
	LastMs         int64  `json:"last_ms"`
}

// Export returns the ledger's state.
func (t *Transfers) Export() TransfersState {
	st := TransfersState{CursorMs: t.cursor, HorizonMs: t.horizon, Seen: make([]SeenTransfer, 0, len(t.seen)),
		Totals: []TransferTotalText{}}
	for id, latest := range t.seen {
		st.Seen = append(st.Seen, SeenTransfer{ID: id, LatestMs: latest})
	}
	slices.SortFunc(st.Seen, func(a, b SeenTransfer) int { return cmp.Compare(a.ID, b.ID) })
	for _, tot := range t.Totals() {
		st.Totals = append(st.Totals, TransferTotalText{Token: tot.Token, Direction: tot.Direction, Counterparty: tot.Counterparty,
			CounterpartyID: tot.CounterpartyID, Records: tot.Records, Amount: tot.Amount.String(), LastMs: tot.LastMs})
	}
	return st
}

// TransfersFromState rebuilds a transfer ledger exported by Export, with
// the late window and bound of this run.
func TransfersFromState(st TransfersState, lateWindowMs int64, maxPairs int) (*Transfers, error) {
	if st.HorizonMs > st.CursorMs {
		return nil, errors.New("transfer state: horizon after the cursor")
	}
	t := NewTransfers(st.CursorMs, lateWindowMs, maxPairs)
	t.horizon = st.HorizonMs
	for _, s := range st.Seen {
		if s.ID == "" {
			return nil, errors.New("transfer state: empty id")
		}
		if _, dup := t.seen[s.ID]; dup {
			return nil, fmt.Errorf("transfer state: id %q twice", s.ID)
		}
		t.seen[s.ID] = s.LatestMs
	}
	for _, s := range st.Totals {
		if s.Direction != DirectionIn && s.Direction != DirectionOut {
			return nil, fmt.Errorf("transfer state: direction %q", s.Direction)
		}
		d, err := decimal.NewFromString(s.Amount)
		if err != nil || d.IsNegative() {
			return nil, fmt.Errorf("transfer state: amount %q of %s %s %s", s.Amount, s.Token, s.Direction, s.Counterparty)
		}
		k := transferKey{s.Token, s.Direction, s.Counterparty}
		if _, dup := t.totals[k]; dup {
			return nil, fmt.Errorf("transfer state: total of %s %s %s twice", s.Token, s.Direction, s.Counterparty)
		}
		t.totals[k] = &TransferTotal{Token: s.Token, Direction: s.Direction, Counterparty: s.Counterparty,
			CounterpartyID: s.CounterpartyID, Records: s.Records, Amount: d, LastMs: s.LastMs}
	}
	return t, nil
}
