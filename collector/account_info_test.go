package collector

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/client"
)

// onlyEndpoint builds an exporter that polls one per-account endpoint of
// account, and polls it once.
func onlyEndpoint(t *testing.T, endpoint string, account AccountAPI) *Exporter {
	t.Helper()
	collectors := map[string]bool{}
	for _, ep := range Endpoints {
		collectors[ep.Name] = ep.Name == endpoint
	}
	e, err := New(Config{Accounts: []Account{{Name: "main", APIKey: ownKey, API: account}}, Collectors: collectors,
		Now: func() time.Time { return historyNow }})
	if err != nil {
		t.Fatal(err)
	}
	if len(e.pollers) != 1 || e.pollers[0].endpoint != endpoint {
		t.Fatalf("pollers %v, want one of %s", e.pollers, endpoint)
	}
	e.pollers[0].pollOnce(context.Background())
	return e
}

func decp(s string) *decimal.Decimal {
	d := decimal.RequireFromString(s)
	return &d
}

func TestAccountInfoMetrics(t *testing.T) {
	account := &fakeAccount{now: historyNow, info: client.AccountInfo{
		AccountMode: "FUTURES", Leverage: decp("10"), MarginRatio: decp("3.5"), OpenMarginRatio: decp("3.25"),
		InitialMarginRatio: decp("0.1"), MaintenanceMarginRatio: decp("0.03"), TotalCollateral: decp("12345.67"),
		FreeCollateral: decp("1000"), TotalAccountValue: decp("13000.5"), TakerFeeRate: decp("0.0005"), MakerFeeRate: decp("0.0002"),
		FuturesTakerFeeRate: decp("0.0006"), FuturesMakerFeeRate: decp("-0.0001"),
	}}
	e := onlyEndpoint(t, client.EndpointAccountInfo, account)
	expectMetrics(t, e.byName[client.EndpointAccountInfo], "account_info.metrics")

	// A field the exchange stops sending stops being exported; a failed
	// poll keeps the last answer.
	account.mu.Lock()
	account.info = client.AccountInfo{MarginRatio: decp("2"), TakerFeeRate: decp("0.0004")}
	account.mu.Unlock()
	e.pollers[0].pollOnce(context.Background())
	expectMetrics(t, e.byName[client.EndpointAccountInfo], "account_info_partial.metrics")
	account.mu.Lock()
	account.healthErr = errors.New("down")
	account.mu.Unlock()
	e.pollers[0].pollOnce(context.Background())
	expectMetrics(t, e.byName[client.EndpointAccountInfo], "account_info_partial.metrics")
}

// An answer equal to the last one leaves the collector's generation alone,
// so it is neither gathered nor encoded again; a changed one moves it.
func TestUnchangedAnswersKeepTheGeneration(t *testing.T) {
	account := &fakeAccount{now: historyNow, info: client.AccountInfo{MarginRatio: decp("2")},
		balances: []client.Balance{{Token: "BTC", Holding: decp("1")}}}
	for _, endpoint := range []string{client.EndpointAccountInfo, client.EndpointBalances} {
		e := onlyEndpoint(t, endpoint, account)
		c := e.byName[endpoint].(versioned)
		first := c.generation()
		e.pollers[0].pollOnce(context.Background())
		if got := c.generation(); got != first {
			t.Errorf("%s: the same answer moved the generation from %d to %d", endpoint, first, got)
		}
		account.mu.Lock()
		account.info.MarginRatio = decp("1.9")
		account.balances[0].Holding = decp("0.9")
		account.mu.Unlock()
		e.pollers[0].pollOnce(context.Background())
		if got := c.generation(); got != first+1 {
			t.Errorf("%s: a changed answer: generation %d, want %d", endpoint, got, first+1)
		}
		account.mu.Lock()
		account.info.MarginRatio = decp("2")
		account.balances[0].Holding = decp("1")
		account.mu.Unlock()
	}
}
