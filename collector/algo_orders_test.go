package collector

import (
	"context"
	"testing"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// Odd bytes in every label (TestInvalidUTF8AndOddLabelValuesDoNotBreakTheScrape).
var _ = addOddAnswer(endpoint.AlgoOrders, oddAnswer{path: endpoint.PathOf(endpoint.AlgoOrders), family: "woox_open_algo_orders",
	body: `{"success":true,"data":{"meta":{"total":3,"recordsPerPage":100,"currentPage":1},"rows":[` +
		`{"algoOrderId":1,"symbol":"PERP_B\xffTC_USDT","algoType":"STOP","algoStatus":"NEW"},` +
		`{"algoOrderId":2,"symbol":"` + oddLong + `","algoType":"TP_SL","algoStatus":"NEW"},` +
		`{"algoOrderId":3,"symbol":"PERP_ETH_USDT","algoType":"S\xc3\x28TOP","algoStatus":"NEW"}` +
		`]},"timestamp":1700000000000}`})

// algoOrdersRig polls the algo orders of account "main" holding the demo's
// (a stop, a trailing stop, a cancelled stop), encoded as mode asks.
func algoOrdersRig(t *testing.T, mode func(*fakeexchange.Scenario)) (*rig, *Exporter) {
	t.Helper()
	main := mainAccount()
	main.AlgoOrders = fakeexchange.DefaultScenario().Accounts[0].AlgoOrders
	s := &fakeexchange.Scenario{Accounts: []fakeexchange.Account{main}}
	mode(s)
	r := newRig(t, s)
	return r, onlyEndpoint(t, r, endpoint.AlgoOrders)
}

func TestOpenAlgoOrdersInEveryEncoding(t *testing.T) {
	for name, mode := range encodings {
		t.Run(name, func(t *testing.T) {
			_, e := algoOrdersRig(t, mode)
			expectMetrics(t, e.byName[endpoint.AlgoOrders], "algo_orders.metrics")
		})
	}
}

// Orders of one symbol and type are counted together; a stop triggered
// and filled, or cancelled, leaves its series at once when it was the last.
func TestOpenAlgoOrdersCounted(t *testing.T) {
	r, e := algoOrdersRig(t, func(*fakeexchange.Scenario) {})
	for _, c := range []fakeexchange.Change[fakeexchange.AlgoOrder]{
		{Account: "main", Row: fakeexchange.AlgoOrder{AlgoOrderID: 1, Symbol: "PERP_ETH_USDT", AlgoType: "TP_SL", AlgoStatus: "NEW"}},
		{Account: "main", Row: fakeexchange.AlgoOrder{AlgoOrderID: 2, Symbol: "PERP_ETH_USDT", AlgoType: "TP_SL", AlgoStatus: "PARTIAL_FILLED"}},
		{Account: "main", Row: fakeexchange.AlgoOrder{AlgoOrderID: 792420, AlgoStatus: "FILLED"}},
	} {
		if err := r.fake.Apply(fakeexchange.Event{AlgoOrder: &c}); err != nil {
			t.Fatal(err)
		}
	}
	e.pollers[0].pollOnce(context.Background())
	if st := e.pollers[0].lastStatus(); !st.success {
		t.Fatal("algo orders poll failed")
	}
	expectMetrics(t, e.byName[endpoint.AlgoOrders], "algo_orders_counted.metrics")
}
