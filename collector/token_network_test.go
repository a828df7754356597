package collector

import (
	"context"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// Odd bytes in every label (TestInvalidUTF8AndOddLabelValuesDoNotBreakTheScrape).
var _ = addOddAnswer(endpoint.TokenNetwork, oddAnswer{path: endpoint.PathOf(endpoint.TokenNetwork), family: "woox_token_network_info",
	body: `{"success":true,"data":{"rows":[` +
		`{"protocol":"ERC20","network":"ETH","token":"US\xffDT","name":"Eth\xc3\x28ereum","minimumWithdrawal":"10","withdrawalFee":"1.5","allowDeposit":1,"allowWithdraw":1},` +
		`{"protocol":"ERC20","network":"ETH","token":"US\xfeDT","name":"dup after sanitising","minimumWithdrawal":"10","withdrawalFee":"1.5","allowDeposit":1,"allowWithdraw":1},` +
		`{"protocol":"\ud800","network":"` + oddLong + `","token":"X\u0000Y","name":"","minimumWithdrawal":"0","withdrawalFee":"0","allowDeposit":0,"allowWithdraw":0}` +
		`]},"timestamp":1700000000000}`})

func tokenNetworkRows() []fakeexchange.TokenNetworkRow {
	return []fakeexchange.TokenNetworkRow{
		{Token: "USDT", Network: "ETH", Protocol: "ERC20", Name: "Ethereum", MinimumWithdrawal: "10.00000000", WithdrawalFee: "1.5", AllowDeposit: 1, AllowWithdraw: 1},
		{Token: "BTC", Network: "BTC", Protocol: "BTC", Name: "Bitcoin", MinimumWithdrawal: "0.001", WithdrawalFee: "0.0002", AllowDeposit: 1, AllowWithdraw: 0},
		// The exchange repeats a row with another name and fee: the first wins.
		{Token: "USDT", Network: "ETH", Protocol: "ERC20", Name: "Ethereum (old)", MinimumWithdrawal: "20", WithdrawalFee: "3", AllowDeposit: 0, AllowWithdraw: 0},
		// Same token and network, another protocol: a row of its own.
		{Token: "USDT", Network: "ETH", Protocol: "OMNI", Name: "Ethereum", MinimumWithdrawal: "1", WithdrawalFee: "0", AllowDeposit: 0, AllowWithdraw: 1},
	}
}

func TestTokenNetworkMetricsDeduplicateRepeatedRows(t *testing.T) {
	c := newTokenNetworkCollector(newTestRig(t).public, nil, nil)
	if _, err := c.poll(context.Background(), func() {}); err != nil {
		t.Fatal(err)
	}
	expectMetrics(t, c, "token_network.metrics")
}

func TestTokenNetworkExportsNothingBeforeTheFirstPoll(t *testing.T) {
	c := newTokenNetworkCollector(newTestRig(t).public, nil, nil)
	expectMetrics(t, c, "empty.metrics")
}

func TestTokenNetworkFailedPollKeepsLastDataAndShowsFailure(t *testing.T) {
	r := newTestRig(t)
	c := newTokenNetworkCollector(r.public, nil, nil)
	now := time.Unix(1_700_000_000, 0)
	p := testPoller(endpoint.TokenNetwork, "", c.poll, now)
	p.pollOnce(context.Background())
	r.fake.InjectFault(fakeexchange.Fault{Endpoint: endpoint.TokenNetwork, Kind: fakeexchange.FaultHTTPError, Status: 503})
	p.now = func() time.Time { return now.Add(time.Minute) }
	p.pollOnce(context.Background())
	if st := p.lastStatus(); st.success {
		t.Fatal("the poll succeeded through a 503")
	}

	expectMetrics(t, c, "token_network.metrics")
	expectMetrics(t, newHealthCollector([]*poller{p}, nil), "health_failed.metrics",
		"woox_poll_success", "woox_poll_last_success_timestamp_seconds")
}
