package client_test

import (
	"context"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// The positions through the fake: the captured position and a short, and
// the row the client rejects when the fake breaks one (TestTheFakesUnreadableRowsAreRejectedAlone).
var _ = addListEndpoint(endpoint.Positions, listEndpoint{
	fill: func(s *fakeexchange.Scenario) {
		s.Accounts[0].Positions = []fakeexchange.Position{fakeexchange.CapturedPosition(), {Symbol: "PERP_BTC_USDT", Holding: "-0.5", TimestampMs: 1752500000000}}
	},
	read: func(ctx context.Context, c *client.Client) (any, []client.RejectedRow, error) {
		return c.Positions(ctx)
	},
	unreadable: client.RejectedRow{Field: "symbol"},
})

// samePosition compares every field; decimals by value, nil only with nil.
func samePosition(got, want client.Position) bool {
	for _, d := range [][2]*decimal.Decimal{
		{got.PendingLongQty, want.PendingLongQty}, {got.PendingShortQty, want.PendingShortQty},
		{got.AverageOpenPrice, want.AverageOpenPrice}, {got.MarkPrice, want.MarkPrice}, {got.EstLiqPrice, want.EstLiqPrice},
		{got.Pnl24H, want.Pnl24H}, {got.Fee24H, want.Fee24H}, {got.Leverage, want.Leverage}, {got.AdlQuantile, want.AdlQuantile},
		{got.IsolatedMarginAmount, want.IsolatedMarginAmount},
	} {
		if !sameDecimal(d[0], d[1]) {
			return false
		}
	}
	return got.Symbol == want.Symbol && got.Side == want.Side && got.MarginMode == want.MarginMode &&
		got.Holding.Equal(want.Holding) && got.IsolatedMarginToken == want.IsolatedMarginToken && got.TimestampMs == want.TimestampMs
}

// capturedPosition is the row of futures_positions.json, written by hand
// from the file.
var capturedPosition = client.Position{Symbol: "PERP_LTC_USDT", Side: "BOTH", MarginMode: "CROSS", Holding: *dec("0.1"),
	PendingLongQty: dec("0"), PendingShortQty: dec("0"), AverageOpenPrice: dec("96.87"), MarkPrice: dec("96.83793449"),
	EstLiqPrice: dec("0"), Pnl24H: dec("0"), Fee24H: dec("0.0048435"), Leverage: dec("10"), AdlQuantile: dec("2"),
	IsolatedMarginAmount: dec("0"), TimestampMs: 1752500555823}

func TestCapturePositions(t *testing.T) {
	for _, file := range forms("futures_positions") {
		t.Run(file, func(t *testing.T) {
			got, rejected, err := captureClient(t, endpoint.PathOf(endpoint.Positions), file).Positions(context.Background())
			if err != nil || len(rejected) != 0 {
				t.Fatal(err, rejected)
			}
			if len(got) != 1 || !samePosition(got[0], capturedPosition) {
				t.Fatalf("got %+v,\nwant %+v", got, capturedPosition)
			}
			if got[0].Closed() {
				t.Error("a holding of 0.1 is an open position")
			}
		})
	}
}

// The positions endpoint through the fake, in every reading of the API:
// hedge-mode sides, an isolated short, a closed position still listed.
func TestPositionsAgainstTheFake(t *testing.T) {
	eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
		s.Accounts[0].Positions = []fakeexchange.Position{
			fakeexchange.CapturedPosition(),
			{Symbol: "PERP_BTC_USDT", PositionSide: "SHORT", MarginMode: "ISOLATED", Holding: "-0.000000000000000001",
				MarkPrice: "65000.5", EstLiqPrice: "70000", AdlQuantile: "5", Leverage: "12.5", IsolatedMarginToken: "USDT",
				IsolatedMarginAmount: "300.25", TimestampMs: 1752500000000},
			{Symbol: "PERP_ETH_USDT", PositionSide: "LONG", Holding: "0", PendingLongQty: "0", PendingShortQty: "0", TimestampMs: 1752500000001},
		}
		h := newHarness(t, s, fakeexchange.WithRateLimit(0, 0))
		got, rejected, err := h.client(t, nil).Positions(context.Background())
		if err != nil || len(rejected) != 0 {
			t.Fatal(err, rejected)
		}
		want := []client.Position{
			{Symbol: "PERP_BTC_USDT", Side: "SHORT", MarginMode: "ISOLATED", Holding: *dec("-0.000000000000000001"),
				MarkPrice: dec("65000.5"), EstLiqPrice: dec("70000"), AdlQuantile: dec("5"), Leverage: dec("12.5"),
				IsolatedMarginToken: "USDT", IsolatedMarginAmount: dec("300.25"), TimestampMs: 1752500000000},
			{Symbol: "PERP_ETH_USDT", Side: "LONG", MarginMode: "CROSS", Holding: *dec("0"), PendingLongQty: dec("0"),
				PendingShortQty: dec("0"), TimestampMs: 1752500000001},
			capturedPosition,
		}
		if len(got) != len(want) {
			t.Fatalf("got %d positions: %+v", len(got), got)
		}
		for i := range want {
			if !samePosition(got[i], want[i]) {
				t.Errorf("position %d: got %+v,\nwant %+v", i, got[i], want[i])
			}
			if closed := got[i].Closed(); closed != (i == 1) {
				t.Errorf("position %d closed = %v", i, closed)
			}
		}
	})
}

// An answer that cannot be read as a whole fails; a row that cannot be
// read is rejected (TestDecodePositionsRejectsOddRows).
func TestPositionsErrors(t *testing.T) {
	row := `"symbol":"PERP_BTC_USDT","positionSide":"BOTH","marginMode":"CROSS","holding":"1"`
	for body, want := range map[string]string{
		`{"success":true,"data":{}}`:                                          "answer has no rows",
		`{"success":true,"data":{"positions":[{` + row + `},{` + row + `}]}}`: "positions: symbol PERP_BTC_USDT side BOTH listed twice",
		`{"success":true,"data":{"positions":{"symbol":"PERP_BTC_USDT"}}}`:    "positions",
	} {
		_, _, err := bodyClient(t, endpoint.PathOf(endpoint.Positions), []byte(body)).Positions(context.Background())
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s:\nerror %v, want it to contain %q", body, err, want)
		}
	}
	got, _, err := bodyClient(t, endpoint.PathOf(endpoint.Positions), []byte(`{"success":true,"data":{"positions":[]}}`)).Positions(context.Background())
	if err != nil || len(got) != 0 {
		t.Errorf("an empty list is an account without positions: %v, %v", got, err)
	}
}
