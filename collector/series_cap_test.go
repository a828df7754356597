package collector

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/largeaccount"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
	"github.com/woox-exporter/woox_exporter/ledger"
)

// cappedRig is a large account (60 token networks, keys and balances, 50
// sub-accounts, 40 history tokens) exported with a cap of 10 rows.
func cappedRig(t *testing.T) (*rig, *Exporter, []fakeexchange.HistoryRecord) {
	t.Helper()
	r := newRig(t, largeaccount.Scenario(60, 60))
	recs := largeaccount.History(40, 40*27, 1, historyNow.Add(-50*time.Minute), historyNow.Add(-time.Minute))
	r.add(t, recs...)
	cfg := r.config()
	cfg.SeriesPerEndpoint = 10
	cfg.Collectors = map[string]bool{endpoint.SubAccounts: true}
	e := newExporter(t, cfg)
	pollAll(e)
	pollAll(e)
	return r, e, recs
}

func TestSeriesCapBoundsEveryEndpointsRows(t *testing.T) {
	r, e, _ := cappedRig(t)
	for name, fam := range map[string]string{
		endpoint.TokenNetwork: "woox_token_network_info",
		endpoint.Credentials:  "woox_api_key_info",
		endpoint.Balances:     "woox_balance_holding",
		endpoint.SubAccounts:  "woox_sub_account_info",
	} {
		if n := testutil.CollectAndCount(e.byName[name], fam); n != 10 {
			t.Errorf("%s: %d series, want the cap of 10", fam, n)
		}
	}
	// 40 tokens × 27 types: 10 pairs by name, __other__ of 10 types, then
	// __other__ of __other__.
	if n := testutil.CollectAndCount(e.byName[endpoint.TokenHistory], "woox_token_history_records_total"); n != 21 {
		t.Errorf("token history: %d series, want 21", n)
	}
	if !strings.Contains(r.logs.String(), "more distinct rows than --limits.series-per-endpoint") {
		t.Errorf("no warning logged:\n%s", r.logs.String())
	}
}

func TestSeriesCappedCountsTheRowsDroppedPerPoll(t *testing.T) {
	_, e, recs := cappedRig(t)
	// The endpoints whose rows outgrew the cap; every other endpoint's
	// series, where it has one, is 0.
	want := map[[2]string]float64{
		{endpoint.TokenNetwork, ""}:    2 * 50,
		{endpoint.Credentials, "main"}: 2 * 50,
		{endpoint.Balances, "main"}:    2 * 30, // the 40 tokens of the history
		{endpoint.SubAccounts, "main"}: 2 * 40,
		// Each record of a pair beyond the first 10, once.
		{endpoint.TokenHistory, "main"}: float64(len(recs) - 10),
	}
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(e.byName["health"])
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(mfs, func(mf *dto.MetricFamily) bool { return mf.GetName() == "woox_exporter_series_capped_total" })
	if i < 0 {
		t.Fatal("no woox_exporter_series_capped_total")
	}
	got := map[[2]string]float64{}
	for _, m := range mfs[i].GetMetric() {
		l := m.GetLabel()
		got[[2]string{l[1].GetValue(), l[0].GetValue()}] = m.GetCounter().GetValue()
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("woox_exporter_series_capped_total%v = %v, want %v", k, got[k], v)
		}
	}
	known := map[string]bool{}
	for _, ep := range endpoint.All {
		known[ep.Name] = true
	}
	for k, v := range got {
		if _, listed := want[k]; !listed && (v != 0 || !known[k[0]]) {
			t.Errorf("woox_exporter_series_capped_total%v = %v, want no series or 0 of an endpoint of the table", k, v)
		}
	}
}

func TestSeriesCapKeepsTokenHistorySumsExact(t *testing.T) {
	_, e, recs := cappedRig(t)
	all := func(r fakeexchange.HistoryRecord) (string, string, string) { return "*", "*", r.Amount }
	got := map[testsupport.HistoryKey]testsupport.HistorySums{}
	var totals []ledger.Total
	for _, a := range e.history.accounts {
		totals = a.snap.Load().Totals
	}
	var s testsupport.HistorySums
	for _, tot := range totals {
		s.Records += tot.Records
		s.Inflow = s.Inflow.Add(tot.Inflow)
		s.Outflow = s.Outflow.Add(tot.Outflow)
	}
	got[testsupport.HistoryKey{Token: "*", Type: "*"}] = s
	for _, d := range testsupport.DiffTotals(got, testsupport.HistoryTotals(recs, all)) {
		t.Error(d)
	}
}
