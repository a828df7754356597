package client_test

import (
	"context"
	"testing"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

func TestDocsOrders(t *testing.T) {
	for _, file := range forms("docs_orders") {
		t.Run(file, func(t *testing.T) {
			n, err := captureClient(t, endpoint.PathOf(endpoint.Orders), file).OpenOrders(context.Background())
			if err != nil || n != 31 {
				t.Errorf("got %d, %v; want the 31 of meta.total", n, err)
			}
		})
	}
}

// In every reading of the fake: the count is the INCOMPLETE orders (NEW and
// PARTIAL_FILLED), never the filled one; 2,500 more open orders are counted
// from one request of a page of one row, with only the documented
// parameters.
func TestOpenOrdersAgainstTheFake(t *testing.T) {
	eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
		s.Accounts[0].Orders = fakeexchange.DefaultScenario().Accounts[0].Orders
		h := newHarness(t, s)
		c := h.client(t, nil)
		count := func(want int64) {
			t.Helper()
			if n, err := c.OpenOrders(context.Background()); err != nil || n != want {
				t.Fatalf("got %d, %v; want %d", n, err, want)
			}
		}
		count(3)
		if err := h.fake.Apply(fakeexchange.Event{Order: &fakeexchange.Change[fakeexchange.Order]{Account: "main",
			Row: fakeexchange.Order{OrderID: 10_000, Symbol: "PERP_ETH_USDT", Status: "NEW", Side: "BUY", Type: "LIMIT", Price: "1", Quantity: "1", Copies: 2500}}}); err != nil {
			t.Fatal(err)
		}
		count(2503)
		if err := h.fake.Apply(fakeexchange.Event{Order: &fakeexchange.Change[fakeexchange.Order]{Account: "main",
			Row: fakeexchange.Order{OrderID: 135, Status: "CANCELLED"}}}); err != nil {
			t.Fatal(err)
		}
		count(2502)
		for _, r := range h.fake.Requests() {
			if r.Endpoint == endpoint.Orders && r.RawQuery != "page=1&size=1&status=INCOMPLETE" {
				t.Errorf("query %q sent", r.RawQuery)
			}
		}
	})
}
