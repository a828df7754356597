package ledger

import "fmt"

// Transfer directions, from the account's side.
const (
	DirectionIn  = "in"
	DirectionOut = "out"
)

// TransferFoldAt is the label a transfer Tally folds into Other: of token,
// direction and counterparty, the counterparty. A transfer total's Note is
// the application id of its newest transfer's counterparty.
const TransferFoldAt = 2

// TransfersState is a transfer Tally (labels token, direction and
// counterparty) in the form the state file has always held it:
// JSON-serializable, decimals as strings.
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

// TransferTotalText is one transfer total with exact decimal text.
type TransferTotalText struct {
	Token          string `json:"token"`
	Direction      string `json:"direction"`
	Counterparty   string `json:"counterparty"`
	CounterpartyID string `json:"counterparty_application_id,omitempty"`
	Records        uint64 `json:"records"`
	Amount         string `json:"amount"`
	LastMs         int64  `json:"last_ms"`
}

// TransfersStateOf is the state of a transfer Tally.
func TransfersStateOf(st TallyState) TransfersState {
	out := TransfersState{CursorMs: st.CursorMs, HorizonMs: st.HorizonMs, Seen: st.Seen, Totals: []TransferTotalText{}}
	for _, tot := range st.Totals {
		out.Totals = append(out.Totals, TransferTotalText{Token: tot.Labels[0], Direction: tot.Labels[1], Counterparty: tot.Labels[2],
			CounterpartyID: tot.Note, Records: tot.Records, Amount: tot.Amount, LastMs: tot.LastMs})
	}
	return out
}

// Tally is the transfer Tally's state st holds, for TallyFromState; a
// direction neither in nor out is refused.
func (st TransfersState) Tally() (TallyState, error) {
	tally := TallyState{CursorMs: st.CursorMs, HorizonMs: st.HorizonMs, Seen: st.Seen}
	for _, s := range st.Totals {
		if s.Direction != DirectionIn && s.Direction != DirectionOut {
			return TallyState{}, fmt.Errorf("transfer state: direction %q", s.Direction)
		}
		tally.Totals = append(tally.Totals, TallyTotalText{Labels: []string{s.Token, s.Direction, s.Counterparty}, Note: s.CounterpartyID,
			Records: s.Records, Amount: s.Amount, LastMs: s.LastMs})
	}
	return tally, nil
}
