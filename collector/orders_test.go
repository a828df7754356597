package collector

import (
	"context"
	"testing"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// Odd bytes cannot reach a label of the count (TestInvalidUTF8AndOddLabelValuesDoNotBreakTheScrape).
var _ = addOddAnswer(endpoint.Orders, oddAnswer{path: endpoint.PathOf(endpoint.Orders), family: "woox_open_orders",
	body: `{"success":true,"data":{"meta":{"total":3,"recordsPerPage":1,"currentPage":1},` +
		`"rows":[{"orderId":1,"symbol":"PERP_B\xffTC_USDT","status":"NEW","orderTag":"` + oddLong + `"}]},"timestamp":1700000000000}`})

// ordersRig polls the open orders of account "main" holding the demo's
// orders (three open, one filled), encoded as mode asks.
func ordersRig(t *testing.T, mode func(*fakeexchange.Scenario)) (*rig, *Exporter) {
	t.Helper()
	main := mainAccount()
	main.Orders = fakeexchange.DefaultScenario().Accounts[0].Orders
	s := &fakeexchange.Scenario{Accounts: []fakeexchange.Account{main}}
	mode(s)
	r := newRig(t, s)
	return r, onlyEndpoint(t, r, endpoint.Orders)
}

func TestOpenOrdersInEveryEncoding(t *testing.T) {
	for name, mode := range encodings {
		t.Run(name, func(t *testing.T) {
			_, e := ordersRig(t, mode)
			expectMetrics(t, e.byName[endpoint.Orders], "orders.metrics")
		})
	}
}

// A flood of 2,500 orders shows with the next poll, from one request.
func TestOpenOrdersFlood(t *testing.T) {
	r, e := ordersRig(t, func(*fakeexchange.Scenario) {})
	if err := r.fake.Apply(fakeexchange.Event{Order: &fakeexchange.Change[fakeexchange.Order]{Account: "main",
		Row: fakeexchange.Order{OrderID: 10_000, Symbol: "PERP_ETH_USDT", Status: "NEW", Copies: 2500}}}); err != nil {
		t.Fatal(err)
	}
	before := len(r.fake.Requests())
	e.pollers[0].pollOnce(context.Background())
	if st := e.pollers[0].lastStatus(); !st.success {
		t.Fatal("orders poll failed")
	}
	if n := len(r.fake.Requests()) - before; n != 1 {
		t.Errorf("%d requests for the count, want 1", n)
	}
	expectMetrics(t, e.byName[endpoint.Orders], "orders_flood.metrics")
}
