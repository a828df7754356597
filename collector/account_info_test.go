package collector

import (
	"context"
	"testing"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// Odd bytes in every label (TestInvalidUTF8AndOddLabelValuesDoNotBreakTheScrape).
var _ = addOddAnswer(endpoint.AccountInfo, oddAnswer{path: endpoint.PathOf(endpoint.AccountInfo), family: "woox_account_info",
	body: `{"success":true,"data":{"applicationId":"app-main","accountMode":"FUT\xffURES","marginRatio":"2","takerFeeRate":"0.0005"},"timestamp":1700000000000}`})

// setAccountInfo sets what the account info of "main" reports.
func (r *rig) setAccountInfo(t *testing.T, info fakeexchange.AccountInfo) {
	t.Helper()
	if err := r.fake.Apply(fakeexchange.Event{AccountInfo: &fakeexchange.Change[fakeexchange.AccountInfo]{Account: "main",
		Row: info, Replace: true}}); err != nil {
		t.Fatal(err)
	}
}

func TestAccountInfoMetrics(t *testing.T) {
	r := newRig(t, &fakeexchange.Scenario{})
	// Fee rates in basis points, as the exchange sends them.
	r.setAccountInfo(t, fakeexchange.AccountInfo{
		AccountMode: "FUTURES", Leverage: "10", MarginRatio: "3.5", OpenMarginRatio: "3.25",
		InitialMarginRatio: "0.1", MaintenanceMarginRatio: "0.03", TotalCollateral: "12345.67",
		FreeCollateral: "1000", TotalAccountValue: "13000.5", TakerFeeRate: "5", MakerFeeRate: "2",
		FuturesTakerFeeRate: "6", FuturesMakerFeeRate: "-1",
	})
	e := onlyEndpoint(t, r, endpoint.AccountInfo)
	expectMetrics(t, e.byName[endpoint.AccountInfo], "account_info.metrics")

	// A field the exchange stops sending stops being exported; a failed
	// poll keeps the last answer.
	r.setAccountInfo(t, fakeexchange.AccountInfo{MarginRatio: "2", TakerFeeRate: "4"})
	e.pollers[0].pollOnce(context.Background())
	expectMetrics(t, e.byName[endpoint.AccountInfo], "account_info_partial.metrics")
	r.fake.InjectFault(fakeexchange.Fault{Endpoint: endpoint.AccountInfo, Kind: fakeexchange.FaultMaintenance})
	e.pollers[0].pollOnce(context.Background())
	if e.pollers[0].lastStatus().success {
		t.Fatal("the poll succeeded through maintenance")
	}
	expectMetrics(t, e.byName[endpoint.AccountInfo], "account_info_partial.metrics")
}

// An answer equal to the last one leaves the collector's generation alone,
// so it is neither gathered nor encoded again; a changed one moves it.
func TestUnchangedAnswersKeepTheGeneration(t *testing.T) {
	r := newRig(t, &fakeexchange.Scenario{})
	set := func(margin, holding string) {
		t.Helper()
		r.setAccountInfo(t, fakeexchange.AccountInfo{MarginRatio: margin})
		if err := r.fake.Apply(fakeexchange.Event{Balance: &fakeexchange.Change[fakeexchange.Balance]{Account: "main",
			Row: fakeexchange.Balance{Token: "BTC", Holding: holding}}}); err != nil {
			t.Fatal(err)
		}
	}
	set("2", "1")
	for _, name := range []string{endpoint.AccountInfo, endpoint.Balances} {
		e := onlyEndpoint(t, r, name)
		c := e.byName[name].(versioned)
		first := c.generation()
		e.pollers[0].pollOnce(context.Background())
		if got := c.generation(); got != first {
			t.Errorf("%s: the same answer moved the generation from %d to %d", name, first, got)
		}
		set("1.9", "0.9")
		e.pollers[0].pollOnce(context.Background())
		if got := c.generation(); got != first+1 {
			t.Errorf("%s: a changed answer: generation %d, want %d", name, got, first+1)
		}
		set("2", "1")
	}
}
