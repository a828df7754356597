package ledger

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// Saved totals beyond what their records can carry are left out one by
// one; the others are restored exactly.
func TestFromStateLeavesOutTotalsThatDoNotFit(t *testing.T) {
	st := State{Version: StateVersion, Totals: []StateTotal{
		{Token: "USDT", Type: "DEPOSIT", Records: 3, Inflow: "1" + strings.Repeat("0", 400), Outflow: "0"},
		{Token: "BTC", Type: "WITHDRAW", Records: 2, Inflow: "0", Outflow: "1e300"},
		{Token: "ETH", Type: "DEPOSIT", Records: 0, Inflow: "0.1", Outflow: "0"},
		{Token: "ETH", Type: "WITHDRAW", Records: 2, Inflow: "0", Outflow: "2000000000000000"},
		{Token: "USDC", Type: "DEPOSIT", Records: 1, Inflow: "0.1", Outflow: "0"},
	}}
	l, err := FromState(st, Config{MaxAmount: decimal.New(1, 15)})
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, a := range l.LeftOut() {
		left = append(left, a.Token+" "+a.Type)
	}
	if got, want := strings.Join(left, ","), "USDT DEPOSIT,BTC WITHDRAW,ETH DEPOSIT"; got != want {
		t.Errorf("left out %s, want %s", got, want)
	}
	var kept []string
	for _, g := range l.Export().Totals {
		kept = append(kept, g.Token+" "+g.Type+" "+g.Inflow+" "+g.Outflow)
	}
	if got, want := strings.Join(kept, ","), "ETH WITHDRAW 0 2000000000000000,USDC DEPOSIT 0.1 0"; got != want {
		t.Errorf("kept %s, want %s", got, want)
	}

	// Without a bound only what no float64 holds is left out.
	l, err = FromState(st, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(l.LeftOut()); n != 1 {
		t.Errorf("%d totals left out without a bound, want 1", n)
	}
}
