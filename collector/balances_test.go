package collector

import (
	"context"
	"testing"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

func TestBalancesMetrics(t *testing.T) {
	r := newRig(t, &fakeexchange.Scenario{})
	setBalance := func(b fakeexchange.Balance) {
		t.Helper()
		if err := r.fake.SetBalance("main", b); err != nil {
			t.Fatal(err)
		}
	}
	setBalance(fakeexchange.Balance{Token: "BTC", Holding: "1.5", Frozen: "0.25", Staked: "0", AvailableBalance: "1.25", MarkPrice: "65000.5"})
	setBalance(fakeexchange.Balance{Token: "USDT", Holding: "1000", AvailableBalance: "1000"})
	e := onlyEndpoint(t, r, client.EndpointBalances)
	expectMetrics(t, e.byName[client.EndpointBalances], "balances.metrics")

	// A token no longer listed disappears; a changed balance shows.
	setBalance(fakeexchange.Balance{Token: "BTC", Holding: "0.5", Frozen: "0", AvailableBalance: "0.5", MarkPrice: "64000"})
	if !r.fake.RemoveBalance("main", "USDT") {
		t.Fatal("USDT was not listed")
	}
	e.pollers[0].pollOnce(context.Background())
	expectMetrics(t, e.byName[client.EndpointBalances], "balances_changed.metrics")
}
