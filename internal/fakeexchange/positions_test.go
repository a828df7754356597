package fakeexchange

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func positionsOf(t *testing.T, r reply) []map[string]any {
	t.Helper()
	raw, ok := dataOf(t, wantOK(t, r))["positions"].([]any)
	if !ok {
		t.Fatalf("no positions array in %s", r.body)
	}
	out := make([]map[string]any, len(raw))
	for i, p := range raw {
		out[i] = p.(map[string]any)
	}
	return out
}

// positionText is a row's field as text, whatever its JSON type.
func positionText(row map[string]any, field string) string {
	if v, ok := row[field]; ok {
		return fmt.Sprint(v)
	}
	return "<absent>"
}

func TestPositionsHaveTheCapturedShape(t *testing.T) {
	for _, suffix := range []string{".json", "_strings.json"} {
		t.Run("futures_positions"+suffix, func(t *testing.T) {
			s := testScenario()
			s.NumbersAsStrings = suffix == "_strings.json"
			s.Accounts[0].Positions = []Position{CapturedPosition()}
			h := newHarness(t, s)
			r := h.get(PathPositions, "", "a1")
			compareShapes(t, shapeOf(t, r), captureShape(t, "futures_positions"+suffix))
			row := positionsOf(t, r)[0]
			for field, want := range map[string]string{"holding": "0.1", "markPrice": "96.83793449", "estLiqPrice": "0",
				"adlQuantile": "2", "leverage": "10", "timestamp": "1752500555823", "isolatedMarginToken": ""} {
				if got := positionText(row, field); got != want {
					t.Errorf("%s = %s, want %s", field, got, want)
				}
			}
		})
	}
}

func TestPositionsOpenMoveCloseAndRemove(t *testing.T) {
	s := testScenario()
	s.SnakeCaseBodies = true
	h := newHarness(t, s)
	if rows := positionsOf(t, h.get(PathPositions, "", "a1")); len(rows) != 0 {
		t.Fatalf("an account without positions lists %v", rows)
	}
	long := Position{Symbol: "PERP_ETH_USDT", PositionSide: "LONG", Holding: "2", MarkPrice: "3000", EstLiqPrice: "2500", AdlQuantile: "1"}
	short := Position{Symbol: "PERP_ETH_USDT", PositionSide: "SHORT", MarginMode: "ISOLATED", Holding: "-1", MarkPrice: "3000",
		IsolatedMarginToken: "USDT", IsolatedMarginAmount: "300"}
	for _, p := range []Position{short, long} {
		if err := h.ex.Apply(Event{Position: &Change[Position]{Account: "a", Row: p, Replace: true}}); err != nil {
			t.Fatal(err)
		}
	}
	rows := positionsOf(t, h.get(PathPositions, "", "a1"))
	if len(rows) != 2 || rows[0]["position_side"] != "LONG" || rows[1]["position_side"] != "SHORT" || rows[0]["margin_mode"] != "CROSS" {
		t.Fatalf("hedge-mode rows in symbol and side order, snake_case, CROSS by default: %v", rows)
	}
	if rows[1]["isolated_margin_amount"] != "300" || rows[1]["holding"] != "-1" {
		t.Errorf("short %v", rows[1])
	}
	// An event changes only the fields it sets.
	if err := h.ex.Apply(Event{Position: &Change[Position]{Account: "a",
		Row: Position{Symbol: "PERP_ETH_USDT", PositionSide: "LONG", AdlQuantile: "5"}}}); err != nil {
		t.Fatal(err)
	}
	rows = positionsOf(t, h.get(PathPositions, "", "a1"))
	if positionText(rows[0], "adl_quantile") != "5" || rows[0]["holding"] != "2" || rows[0]["mark_price"] != "3000" {
		t.Errorf("after the ADL change: %v", rows[0])
	}
	// Closed: still listed, with zeros.
	if err := h.ex.Apply(Event{Position: &Change[Position]{Account: "a",
		Row: Position{Symbol: "PERP_ETH_USDT", PositionSide: "LONG", Holding: "0"}}}); err != nil {
		t.Fatal(err)
	}
	if rows = positionsOf(t, h.get(PathPositions, "", "a1")); len(rows) != 2 || rows[0]["holding"] != "0" {
		t.Errorf("a closed position is listed with holding 0: %v", rows)
	}
	if err := h.ex.Apply(Event{Position: &Change[Position]{Account: "a",
		Row: Position{Symbol: "PERP_ETH_USDT", PositionSide: "LONG"}, Remove: true}}); err != nil {
		t.Fatal(err)
	}
	if rows = positionsOf(t, h.get(PathPositions, "", "a1")); len(rows) != 1 || rows[0]["position_side"] != "SHORT" {
		t.Errorf("after removing the long: %v", rows)
	}
	if err := h.ex.Apply(Event{Position: &Change[Position]{Account: "a", Row: Position{Symbol: "PERP_X"}, Remove: true}}); err == nil {
		t.Error("removing a position the account does not hold succeeded")
	}
	if rows = positionsOf(t, h.get(PathPositions, "", "b1")); len(rows) != 0 {
		t.Errorf("account b sees a's positions: %v", rows)
	}
}

func TestMarkPriceWalksToTheLiquidationPriceAndStops(t *testing.T) {
	for _, c := range []struct {
		name, mark, liq string
		want            []string
	}{
		{"long", "100", "90", []string{"100", "96", "92", "90", "90"}},
		{"short", "100", "105", []string{"100", "104", "105", "105", "105"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, testScenario())
			p := Position{Symbol: "PERP_X_USDT", Holding: "1", MarkPrice: c.mark, EstLiqPrice: c.liq,
				MarkPriceWalk: &Walk{Every: time.Minute, Step: "4"}}
			if err := h.ex.Apply(Event{Position: &Change[Position]{Account: "a", Row: p, Replace: true}}); err != nil {
				t.Fatal(err)
			}
			for i, want := range c.want {
				if got := positionText(positionsOf(t, h.get(PathPositions, "", "a1"))[0], "markPrice"); got != want {
					t.Errorf("minute %d: mark price %s, want %s", i, got, want)
				}
				h.clock.Add(time.Minute)
			}
		})
	}
}

func TestPositionScenarioErrors(t *testing.T) {
	for yaml, want := range map[string]string{
		"accounts: [{name: a, positions: [{holding: '1'}]}]":                                                        "positions[0].symbol: must not be empty",
		"accounts: [{name: a, positions: [{symbol: X, position_side: BUY}]}]":                                       "position_side: must be BOTH, LONG or SHORT",
		"accounts: [{name: a, positions: [{symbol: X, margin_mode: PORTFOLIO}]}]":                                   "margin_mode: must be CROSS or ISOLATED",
		"accounts: [{name: a, positions: [{symbol: X, holding: 'one'}]}]":                                           "holding: not a decimal",
		"accounts: [{name: a, positions: [{symbol: X}, {symbol: X, position_side: BOTH}]}]":                         "duplicate symbol X side BOTH",
		"accounts: [{name: a, positions: [{symbol: X, mark_price: '1', mark_price_walk: {every: 1m, step: '1'}}]}]": "needs mark_price and est_liq_price",
		"accounts: [{name: a}]\nevents: [{after: 1s, position: {account: z, symbol: X}}]":                           "events[0].position.account: unknown account",
		"accounts: [{name: a}]\nevents: [{after: 1s, position: {account: a, remove: true}}]":                        "events[0].position.symbol: must not be empty",
	} {
		if _, err := ParseScenario([]byte(yaml)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want it to contain %q", yaml, err, want)
		}
	}
}
