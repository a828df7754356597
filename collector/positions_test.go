package collector

import (
	"context"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// Odd bytes in every label (TestInvalidUTF8AndOddLabelValuesDoNotBreakTheScrape).
var _ = addOddAnswer(endpoint.Positions, oddAnswer{path: endpoint.PathOf(endpoint.Positions), family: "woox_position_holding",
	body: `{"success":true,"data":{"positions":[` +
		`{"symbol":"PERP_\xffBTC_USDT","positionSide":"BO\xfeTH","marginMode":"CR\xc3\x28OSS","holding":"1","markPrice":"2"},` +
		`{"symbol":"` + oddLong + `","positionSide":"X\u0000Y","marginMode":"\ud800","holding":"-1","estLiqPrice":"3"}` +
		`]},"timestamp":1700000000000}`})

// positionsRig polls the positions of account "main" of a fake exchange
// holding positions, encoded as mode asks.
func positionsRig(t *testing.T, mode func(*fakeexchange.Scenario), positions ...fakeexchange.Position) (*rig, *Exporter) {
	t.Helper()
	main := mainAccount()
	main.Positions = positions
	s := &fakeexchange.Scenario{Accounts: []fakeexchange.Account{main}}
	mode(s)
	r := newRig(t, s)
	return r, onlyEndpoint(t, r, endpoint.Positions)
}

// riskyShort is an isolated hedge-mode short 4 % below its liquidation
// price, first in line for auto-deleveraging.
var riskyShort = fakeexchange.Position{Symbol: "PERP_BTC_USDT", PositionSide: "SHORT", MarginMode: "ISOLATED",
	Holding: "-0.25", PendingLongQty: "0", PendingShortQty: "0", AverageOpenPrice: "60000", MarkPrice: "62500",
	EstLiqPrice: "65000", Pnl24H: "-625.5", Fee24H: "7.5", AdlQuantile: "5", Leverage: "20",
	IsolatedMarginToken: "USDT", IsolatedMarginAmount: "781.25"}

func TestPositionsMetricsInEveryEncoding(t *testing.T) {
	for name, mode := range map[string]func(*fakeexchange.Scenario){
		"captured":        func(*fakeexchange.Scenario) {},
		"all strings":     func(s *fakeexchange.Scenario) { s.NumbersAsStrings = true },
		"all numbers":     func(s *fakeexchange.Scenario) { s.NumbersAsJSONNumbers = true },
		"snake_case (v1)": func(s *fakeexchange.Scenario) { s.SnakeCaseBodies = true },
	} {
		t.Run(name, func(t *testing.T) {
			closed := fakeexchange.Position{Symbol: "PERP_ETH_USDT", Holding: "0", PendingLongQty: "0", PendingShortQty: "0",
				MarkPrice: "3000", EstLiqPrice: "0", Pnl24H: "12", Fee24H: "1", AdlQuantile: "1", Leverage: "10"}
			_, e := positionsRig(t, mode, fakeexchange.CapturedPosition(), riskyShort, closed)
			expectMetrics(t, e.byName[endpoint.Positions], "positions.metrics")
		})
	}
}

// A position that opens shows; one that closes disappears, whether the
// exchange lists it with zeros or drops it; pending orders keep a position
// with no holding open.
func TestPositionsOpenMoveAndClose(t *testing.T) {
	r, e := positionsRig(t, func(*fakeexchange.Scenario) {}, fakeexchange.CapturedPosition())
	c := e.byName[endpoint.Positions]
	poll := func() {
		t.Helper()
		e.pollers[0].pollOnce(context.Background())
		if st := e.pollers[0].lastStatus(); !st.success {
			t.Fatal("positions poll failed")
		}
	}
	set := func(p fakeexchange.Position) {
		t.Helper()
		if err := r.fake.Apply(fakeexchange.Event{Position: &fakeexchange.Change[fakeexchange.Position]{Account: "main",
			Row: p, Replace: true}}); err != nil {
			t.Fatal(err)
		}
	}
	set(riskyShort)
	moved := riskyShort
	moved.Holding, moved.MarkPrice, moved.AdlQuantile = "-0.5", "64000", "4"
	set(moved)
	poll()
	expectMetrics(t, c, "positions_moved.metrics")

	closedWithZeros := fakeexchange.CapturedPosition()
	closedWithZeros.Holding = "0"
	set(closedWithZeros)
	pendingOnly := moved
	pendingOnly.Holding, pendingOnly.PendingShortQty = "0", "0.1"
	set(pendingOnly)
	poll()
	expectMetrics(t, c, "positions_pending.metrics")

	if err := r.fake.Apply(fakeexchange.Event{Position: &fakeexchange.Change[fakeexchange.Position]{Account: "main",
		Row: fakeexchange.Position{Symbol: riskyShort.Symbol, PositionSide: riskyShort.PositionSide}, Remove: true}}); err != nil {
		t.Fatal(err)
	}
	poll()
	if n := testutil.CollectAndCount(c); n != 0 {
		t.Errorf("%d series after every position closed", n)
	}
}

// The mark price walking towards the liquidation price shows poll by poll,
// and the liquidation price stays exported while it is not 0.
func TestPositionsMarkPriceWalk(t *testing.T) {
	walking := riskyShort
	walking.MarkPrice, walking.MarkPriceWalk = "60000", &fakeexchange.Walk{Every: time.Minute, Step: "2000"}
	r, e := positionsRig(t, func(*fakeexchange.Scenario) {}, walking)
	r.fake.Start(t.Context())
	c := e.byName[endpoint.Positions]
	for minute, want := range []float64{60000, 62000, 64000, 65000, 65000} {
		e.pollers[0].pollOnce(context.Background())
		if got := sumOf(t, c, "woox_position_mark_price"); got != want {
			t.Errorf("minute %d: mark price %v, want %v", minute, got, want)
		}
		if got := sumOf(t, c, "woox_position_estimated_liquidation_price"); got != 65000 {
			t.Errorf("minute %d: liquidation price %v", minute, got)
		}
		r.clock.Add(time.Minute)
	}
}
