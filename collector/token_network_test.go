package collector

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/client"
)

func tokenNetworkRows() []client.TokenNetwork {
	return []client.TokenNetwork{
		{Token: "USDT", Network: "ETH", Protocol: "ERC20", Name: "Ethereum", MinimumWithdrawal: dec("10.00000000"), WithdrawalFee: dec("1.5"), AllowDeposit: true, AllowWithdraw: true},
		{Token: "BTC", Network: "BTC", Protocol: "BTC", Name: "Bitcoin", MinimumWithdrawal: dec("0.001"), WithdrawalFee: dec("0.0002"), AllowDeposit: true, AllowWithdraw: false},
		// The exchange repeats a row with another name and fee: the first wins.
		{Token: "USDT", Network: "ETH", Protocol: "ERC20", Name: "Ethereum (old)", MinimumWithdrawal: dec("20"), WithdrawalFee: dec("3"), AllowDeposit: false, AllowWithdraw: false},
		// Same token and network, another protocol: a row of its own.
		{Token: "USDT", Network: "ETH", Protocol: "OMNI", Name: "Ethereum", MinimumWithdrawal: dec("1"), WithdrawalFee: dec("0"), AllowDeposit: false, AllowWithdraw: true},
	}
}

func TestTokenNetworkMetricsDeduplicateRepeatedRows(t *testing.T) {
	api := &fakeNetworks{rows: tokenNetworkRows()}
	c := newTokenNetworkCollector(api, nil)
	if err := c.poll(context.Background(), func() {}); err != nil {
		t.Fatal(err)
	}
	expectMetrics(t, c, "token_network.metrics")
}

func TestTokenNetworkExportsNothingBeforeTheFirstPoll(t *testing.T) {
	c := newTokenNetworkCollector(&fakeNetworks{}, nil)
	expectMetrics(t, c, "empty.metrics")
}

func TestTokenNetworkFailedPollKeepsLastDataAndShowsFailure(t *testing.T) {
	api := &fakeNetworks{rows: tokenNetworkRows()}
	c := newTokenNetworkCollector(api, nil)
	now := time.Unix(1_700_000_000, 0)
	p := testPoller(client.EndpointTokenNetwork, "", c.poll, now)
	p.pollOnce(context.Background())
	api.set(nil, errors.New("get token networks: transient failure (HTTP 503)"))
	p.now = func() time.Time { return now.Add(time.Minute) }
	p.pollOnce(context.Background())

	expectMetrics(t, c, "token_network.metrics")
	expectMetrics(t, &HealthCollector{pollers: []*poller{p}}, "health_failed.metrics",
		"woox_poll_success", "woox_poll_last_success_timestamp_seconds")
}
