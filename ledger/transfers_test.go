package ledger

import (
	"encoding/json"
	"testing"

	"github.com/shopspring/decimal"
)

func transfer(id, dir, cp string, amount string, latest int64) Counted {
	return Counted{ID: id, Labels: []string{"USDT", dir, cp}, Note: "app-" + cp, Amount: decimal.RequireFromString(amount), LatestMs: latest}
}

const hour = int64(3600_000)

func TestTransfersCountEachIDOnceAcrossPollsRestartsAndLateRows(t *testing.T) {
	start := int64(1_700_000_000_000)
	now := start
	l := NewTally(now-hour, 24*hour, 0, TransferFoldAt)
	if s, e := l.QueryWindow(now); s != now-hour || e != now {
		t.Fatalf("fresh window = [%d, %d], want the lookback", s, e)
	}
	if n := l.Count([]Counted{transfer("1", DirectionOut, "sub", "10", now-10), transfer("2", DirectionIn, "sub", "2.5", now-5)}); n != 2 {
		t.Fatalf("counted %d, want 2", n)
	}
	l.Finish(now)
	// The same rows again, one with a later time (a status update), and a
	// row listed late: only the late one counts.
	now += 60_000
	if s, _ := l.QueryWindow(now); s != now-hour-60_000 {
		t.Fatalf("window starts at %d, want the horizon", s)
	}
	if n := l.Count([]Counted{transfer("1", DirectionOut, "sub", "10", now-1), transfer("2", DirectionIn, "sub", "2.5", now-5-60_000),
		transfer("3", DirectionOut, "sub", "1", now-30*60_000)}); n != 1 {
		t.Fatalf("counted %d, want the late row alone", n)
	}
	l.Finish(now)
	b, err := json.Marshal(TransfersStateOf(l.Export()))
	if err != nil {
		t.Fatal(err)
	}
	var st TransfersState
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	r, err := transfersFromState(st, 24*hour, 0)
	if err != nil {
		t.Fatal(err)
	}
	if n := r.Count([]Counted{transfer("1", DirectionOut, "sub", "10", now), transfer("3", DirectionOut, "sub", "1", now)}); n != 0 {
		t.Fatalf("restored ledger counted %d again", n)
	}
	got := r.Totals()
	if len(got) != 2 || got[0].Labels[1] != DirectionIn || got[0].Records != 1 || !got[0].Amount.Equal(decimal.RequireFromString("2.5")) ||
		got[1].Records != 2 || !got[1].Amount.Equal(decimal.NewFromInt(11)) || got[1].Note != "app-sub" || got[1].LastMs != start-10 {
		t.Fatalf("totals after restart = %+v", got)
	}
}

// transfersFromState is a transfer Tally rebuilt from its saved state.
func transfersFromState(st TransfersState, lateWindowMs int64, maxPairs int) (*Tally, error) {
	tally, err := st.Tally()
	if err != nil {
		return nil, err
	}
	return TallyFromState(tally, lateWindowMs, maxPairs, TransferFoldAt)
}

func TestTransfersForgetIDsBehindTheHorizonAndNeverCountThem(t *testing.T) {
	now := int64(1_700_000_000_000)
	l := NewTally(now-hour, 2*hour, 0, TransferFoldAt)
	l.Count([]Counted{transfer("old", DirectionOut, "x", "1", now-30*60_000)})
	l.Finish(now + 3*hour)
	if len(l.Export().Seen) != 0 {
		t.Fatalf("seen = %v, want the old id forgotten", l.Export().Seen)
	}
	if n := l.Count([]Counted{transfer("old", DirectionOut, "x", "1", now-30*60_000)}); n != 0 {
		t.Fatal("a transfer behind the horizon was counted again")
	}
	if s, e := l.QueryWindow(now + 3*hour); s != now+hour || e != now+3*hour {
		t.Fatalf("window = [%d, %d], want one late window behind the cursor", s, e)
	}
}

func TestTransfersBeyondTheCapAreCountedUnderOther(t *testing.T) {
	l := NewTally(0, hour, 2, TransferFoldAt)
	l.Count([]Counted{transfer("1", DirectionOut, "a", "1", 1), transfer("2", DirectionOut, "b", "2", 2),
		transfer("3", DirectionOut, "c", "3", 3), transfer("4", DirectionOut, "d", "4", 4)})
	got := l.Totals()
	if len(got) != 3 || got[0].Labels[2] != Other || got[0].Records != 2 || !got[0].Amount.Equal(decimal.NewFromInt(7)) ||
		got[0].Note != "" || l.Folded() != 2 {
		t.Fatalf("totals = %+v, folded %d", got, l.Folded())
	}
}

func TestTransfersFromStateRefusesABadState(t *testing.T) {
	for name, st := range map[string]TransfersState{
		"horizon after cursor": {CursorMs: 1, HorizonMs: 2},
		"duplicate id":         {Seen: []SeenTransfer{{ID: "1"}, {ID: "1"}}},
		"bad amount":           {Totals: []TransferTotalText{{Direction: DirectionIn, Amount: "x"}}},
		"bad direction":        {Totals: []TransferTotalText{{Direction: "up", Amount: "1"}}},
	} {
		if _, err := transfersFromState(st, hour, 0); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
