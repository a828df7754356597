package collector

import (
	"context"
	"testing"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// Odd bytes in every label (TestInvalidUTF8AndOddLabelValuesDoNotBreakTheScrape).
var _ = addOddAnswer(endpoint.Balances, oddAnswer{path: endpoint.PathOf(endpoint.Balances), family: "woox_balance_holding",
	body: `{"success":true,"data":{"holding":[{"token":"B\xffTC","holding":"1"},{"token":"` + oddLong + `","holding":"2"},` +
		`{"token":"X\u0000Y","holding":"0"}]},"timestamp":1700000000000}`})

func TestBalancesMetrics(t *testing.T) {
	r := newRig(t, &fakeexchange.Scenario{})
	setBalance := func(b fakeexchange.Balance) {
		t.Helper()
		if err := r.fake.Apply(fakeexchange.Event{Balance: &fakeexchange.Change[fakeexchange.Balance]{Account: "main", Row: b}}); err != nil {
			t.Fatal(err)
		}
	}
	setBalance(fakeexchange.Balance{Token: "BTC", Holding: "1.5", Frozen: "0.25", Staked: "0", AvailableBalance: "1.25", MarkPrice: "65000.5"})
	setBalance(fakeexchange.Balance{Token: "USDT", Holding: "1000", AvailableBalance: "1000"})
	e := onlyEndpoint(t, r, endpoint.Balances)
	expectMetrics(t, e.byName[endpoint.Balances], "balances.metrics")

	// A token no longer listed disappears; a changed balance shows.
	setBalance(fakeexchange.Balance{Token: "BTC", Holding: "0.5", Frozen: "0", AvailableBalance: "0.5", MarkPrice: "64000"})
	remove := fakeexchange.Change[fakeexchange.Balance]{Account: "main", Row: fakeexchange.Balance{Token: "USDT"}, Remove: true}
	if err := r.fake.Apply(fakeexchange.Event{Balance: &remove}); err != nil {
		t.Fatalf("USDT was not listed: %v", err)
	}
	e.pollers[0].pollOnce(context.Background())
	expectMetrics(t, e.byName[endpoint.Balances], "balances_changed.metrics")
}
