package ledger

import (
	"fmt"

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

// Transfers counts every completed transfer of one account exactly once by
// its id, as a Tally of (token, direction, counterparty) whose
// counterparty folds into Other beyond maxPairs, each total keeping the
// application id of its newest transfer. Not safe for concurrent use: the
// transfer poller owns it.
type Transfers struct{ tally *Tally }

// NewTransfers starts counting at startMs (Unix milliseconds): transfers
// before it are never counted.
func NewTransfers(startMs int64, lateWindowMs int64, maxPairs int) *Transfers {
	return &Transfers{NewTally(startMs, lateWindowMs, maxPairs, 2)}
}

// Window is the window the next poll reads at the exchange's time nowMs
// (Tally.Window).
func (t *Transfers) Window(nowMs int64) (start, end int64) { return t.tally.Window(nowMs) }

// Count counts the transfers not counted before and returns how many it
// counted (Tally.Count).
func (t *Transfers) Count(recs []Transfer) (counted int) {
	out := make([]Counted, len(recs))
	for i, r := range recs {
		out[i] = Counted{ID: r.ID, Labels: []string{r.Token, r.Direction, r.Counterparty}, Amount: r.Amount, LatestMs: r.LatestMs, Note: r.CounterpartyID}
	}
	return t.tally.Count(out)
}

// Finish moves the cursor to endMs after a poll that read every page of
// its window (Tally.Finish).
func (t *Transfers) Finish(endMs int64) { t.tally.Finish(endMs) }

// Totals returns every total, sorted by token, direction and counterparty.
func (t *Transfers) Totals() []TransferTotal {
	tots := t.tally.Totals()
	out := make([]TransferTotal, len(tots))
	for i, tot := range tots {
		out[i] = TransferTotal{Token: tot.Labels[0], Direction: tot.Labels[1], Counterparty: tot.Labels[2], CounterpartyID: tot.Note,
			Records: tot.Records, Amount: tot.Amount, LastMs: tot.LastMs}
	}
	return out
}

// Folded is how many transfers were counted under Other since this
// process started.
func (t *Transfers) Folded() uint64 { return t.tally.Folded() }

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

// SeenTransfer is a remembered id and its latest time.
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
	st := t.tally.Export()
	out := TransfersState{CursorMs: st.CursorMs, HorizonMs: st.HorizonMs, Seen: st.Seen, Totals: []TransferTotalText{}}
	for _, tot := range st.Totals {
		out.Totals = append(out.Totals, TransferTotalText{Token: tot.Labels[0], Direction: tot.Labels[1], Counterparty: tot.Labels[2],
			CounterpartyID: tot.Note, Records: tot.Records, Amount: tot.Amount, LastMs: tot.LastMs})
	}
	return out
}

// TransfersFromState rebuilds a transfer ledger exported by Export, with
// the late window and bound of this run.
func TransfersFromState(st TransfersState, lateWindowMs int64, maxPairs int) (*Transfers, error) {
	tally := TallyState{CursorMs: st.CursorMs, HorizonMs: st.HorizonMs, Seen: st.Seen}
	for _, s := range st.Totals {
		if s.Direction != DirectionIn && s.Direction != DirectionOut {
			return nil, fmt.Errorf("transfer state: direction %q", s.Direction)
		}
		tally.Totals = append(tally.Totals, TallyTotalText{Labels: []string{s.Token, s.Direction, s.Counterparty}, Note: s.CounterpartyID,
			Records: s.Records, Amount: s.Amount, LastMs: s.LastMs})
	}
	t, err := TallyFromState(tally, lateWindowMs, maxPairs, 2)
	if err != nil {
		return nil, fmt.Errorf("transfer state: %w", err)
	}
	return &Transfers{t}, nil
}
