package collector

import (
	"context"
	"testing"

	"github.com/woox-exporter/woox_exporter/client"
)

func TestBalancesMetrics(t *testing.T) {
	account := &fakeAccount{now: historyNow, balances: []client.Balance{
		{Token: "BTC", Holding: decp("1.5"), Frozen: decp("0.25"), Staked: decp("0"), Available: decp("1.25"), MarkPrice: decp("65000.5")},
		{Token: "USDT", Holding: decp("1000"), Available: decp("1000")},
	}}
	e := onlyEndpoint(t, client.EndpointBalances, account)
	expectMetrics(t, e.byName[client.EndpointBalances], "balances.metrics")

	// A token no longer listed disappears; a changed balance shows.
	account.mu.Lock()
	account.balances = []client.Balance{{Token: "BTC", Holding: decp("0.5"), Frozen: decp("0"), Available: decp("0.5"), MarkPrice: decp("64000")}}
	account.mu.Unlock()
	e.pollers[0].pollOnce(context.Background())
	expectMetrics(t, e.byName[client.EndpointBalances], "balances_changed.metrics")
}
