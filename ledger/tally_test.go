package ledger

import (
	"encoding/json"
	"testing"

	"github.com/shopspring/decimal"
)

// A tally of two labels folds its first into Other beyond its bound, adds
// magnitudes whatever the sign, and restores exactly from its state.
func TestTallyFoldsTheLabelItIsToldAndRestoresExactly(t *testing.T) {
	rec := func(id, symbol, dir, amount string, ms int64) Counted {
		return Counted{ID: id, Labels: []string{symbol, dir}, Amount: decimal.RequireFromString(amount), LatestMs: ms}
	}
	l := NewTally(0, hour, 2, 0)
	if n := l.Count([]Counted{rec("1", "PERP_BTC_USDT", "paid", "-1.5", 10), rec("2", "PERP_ETH_USDT", "paid", "0.25", 20),
		rec("3", "PERP_SOL_USDT", "received", "2", 30), rec("1", "PERP_BTC_USDT", "paid", "-1.5", 40)}); n != 3 {
		t.Fatalf("counted %d, want 3", n)
	}
	l.Finish(50)
	b, err := json.Marshal(l.Export())
	if err != nil {
		t.Fatal(err)
	}
	var st TallyState
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	r, err := TallyFromState(st, hour, 2, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := r.Totals()
	if len(got) != 3 || got[2].Labels[0] != Other || got[2].Labels[1] != "received" || got[0].Labels[0] != "PERP_BTC_USDT" ||
		!got[0].Amount.Equal(decimal.RequireFromString("1.5")) || got[0].LastMs != 10 || l.Folded() != 1 {
		t.Fatalf("totals = %+v, folded %d", got, l.Folded())
	}
	if n := r.Count([]Counted{rec("2", "PERP_ETH_USDT", "paid", "0.25", 60)}); n != 0 {
		t.Fatal("a restored tally counted a seen id again")
	}
}

func TestTallyFromStateRefusesABadState(t *testing.T) {
	for name, st := range map[string]TallyState{
		"horizon after cursor": {CursorMs: 1, HorizonMs: 2},
		"empty id":             {Seen: []SeenTransfer{{ID: ""}}},
		"bad amount":           {Totals: []TallyTotalText{{Labels: []string{"X", "paid"}, Amount: "-1"}}},
		"too few labels":       {Totals: []TallyTotalText{{Labels: nil, Amount: "1"}}},
		"total twice":          {Totals: []TallyTotalText{{Labels: []string{"X"}, Amount: "1"}, {Labels: []string{"X"}, Amount: "2"}}},
	} {
		if _, err := TallyFromState(st, hour, 0, 0); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
