package client_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// The algo orders through the fake, and the row the client rejects when
// the fake breaks one (TestTheFakesUnreadableRowsAreRejectedAlone).
var _ = addListEndpoint(endpoint.AlgoOrders, listEndpoint{
	fill: func(s *fakeexchange.Scenario) {
		s.Accounts[0].AlgoOrders = fakeexchange.DefaultScenario().Accounts[0].AlgoOrders
	},
	read: func(ctx context.Context, c *client.Client) (any, []client.RejectedRow, error) {
		return c.OpenAlgoOrders(ctx)
	},
	unreadable: client.RejectedRow{ID: "algo order 900000", Field: "algoType"},
})

func algoOrdersText(rows []client.AlgoOrder) string {
	var out []string
	for _, o := range rows {
		out = append(out, fmt.Sprint(o.ID, " ", o.Symbol, " ", o.AlgoType, " ", o.Status))
	}
	return strings.Join(out, "; ")
}

func TestDocsAlgoOrders(t *testing.T) {
	for _, file := range forms("docs_algo_orders") {
		t.Run(file, func(t *testing.T) {
			got, rejected, err := captureClient(t, endpoint.PathOf(endpoint.AlgoOrders), file).OpenAlgoOrders(context.Background())
			if err != nil || len(rejected) != 0 {
				t.Fatal(err, rejected)
			}
			if s, want := algoOrdersText(got), "792419 SPOT_WOO_USDT TRAILING_STOP NEW; 792420 SPOT_WOO_USDT TRAILING_STOP NEW"; s != want {
				t.Errorf("got  %s\nwant %s", s, want)
			}
		})
	}
}

// In every reading of the fake: the open algo orders alone (the cancelled
// one left out by status=INCOMPLETE), all 250 of them over 3 pages of 100,
// each request with the documented parameters only.
func TestOpenAlgoOrdersAgainstTheFake(t *testing.T) {
	eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
		s.Accounts[0].AlgoOrders = fakeexchange.DefaultScenario().Accounts[0].AlgoOrders
		h := newHarness(t, s)
		c := h.client(t, nil)
		got, rejected, err := c.OpenAlgoOrders(context.Background())
		if err != nil || len(rejected) != 0 {
			t.Fatal(err, rejected)
		}
		if s, want := algoOrdersText(got), "792419 PERP_BTC_USDT STOP NEW; 792420 SPOT_WOO_USDT TRAILING_STOP NEW"; s != want {
			t.Errorf("got  %s\nwant %s", s, want)
		}
		for i := range 248 {
			if err := h.fake.Apply(fakeexchange.Event{AlgoOrder: &fakeexchange.Change[fakeexchange.AlgoOrder]{Account: "main",
				Row: fakeexchange.AlgoOrder{AlgoOrderID: int64(800_000 + i), Symbol: "PERP_ETH_USDT", AlgoType: "TP_SL", AlgoStatus: "NEW"}}}); err != nil {
				t.Fatal(err)
			}
		}
		if got, _, err = c.OpenAlgoOrders(context.Background()); err != nil || len(got) != 250 {
			t.Fatalf("%d algo orders, %v; want 250", len(got), err)
		}
		var queries []string
		for _, r := range h.fake.Requests() {
			if r.Endpoint == endpoint.AlgoOrders {
				queries = append(queries, r.RawQuery)
			}
		}
		want := []string{"size=100&status=INCOMPLETE", "size=100&status=INCOMPLETE", "page=2&size=100&status=INCOMPLETE", "page=3&size=100&status=INCOMPLETE"}
		if !slices.Equal(queries, want) {
			t.Errorf("queries %q, want %q", queries, want)
		}
	})
}
