package collector

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/go-kit/log"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/ledger"
)

// Odd bytes in every label (TestInvalidUTF8AndOddLabelValuesDoNotBreakTheScrape).
var _ = addOddAnswer(endpoint.TokenHistory, oddAnswer{path: endpoint.PathOf(endpoint.TokenHistory), family: "woox_token_history_records_total",
	body: `{"success":true,"data":{"rows":[` +
		`{"id":1,"type":"NEW\xffTYPE","token":"U\xffSDT","amount":"1.000000000000000000000000000001","timestamp":1700000000000},` +
		`{"id":2,"type":"NEW\xfeTYPE","token":"U\xfeSDT","amount":"-1","timestamp":1700000000000},` +
		`{"id":3,"type":"","token":"","amount":"0","timestamp":1700000000000}` +
		`],"meta":{"total":3,"recordsPerPage":1000,"currentPage":1}},"timestamp":1700000000000}`})

// newTestHistory is the token history of "main" read from the rig in pages
// of pageSize rows, its first query window the hour before historyNow.
func newTestHistory(r *rig, pageSize int) *historyAccount {
	l := ledger.New(historyNow.Add(-time.Hour).UnixMilli(), ledger.Config{Overlap: 5 * time.Minute, LateWindow: DefaultHistoryLateWindow})
	a := newHistoryAccount("main", r.api(), l, nil, historyOptions{lateInterval: DefaultHistoryLateInterval}, log.NewNopLogger())
	a.pageSize = pageSize
	return a
}

func TestTokenHistoryMetrics(t *testing.T) {
	r := newRig(t, &fakeexchange.Scenario{UndocumentedTypes: []string{"SOMETHING_NEW"}})
	r.add(t,
		hrec(1, 2*time.Hour, "USDT", "DEPOSIT", "1000"), // before the lookback
		hrec(2, 50*time.Minute, "USDT", "DEPOSIT", "2500.000000000000000000000000000001"),
		hrec(3, 40*time.Minute, "USDT", "TRANSACTION_FEE", "-1.25"),
		hrec(4, 30*time.Minute, "USDT", "REALIZED_PNL", "-12.5"),
		hrec(5, 20*time.Minute, "USDT", "REALIZED_PNL", "7.5"),
		hrec(6, 10*time.Minute, "BTC", "SOMETHING_NEW", "0"),
		hrec(7, 5*time.Minute, "BTC", "WITHDRAW", "-0.01"),
	)
	a := newTestHistory(r, 2)
	c := &TokenHistoryCollector{accounts: []*historyAccount{a}}
	// Before the first poll: no history series, the health counter at 0.
	expectMetrics(t, c, "token_history_empty.metrics")
	if _, err := a.poll(context.Background(), func() {}); err != nil {
		t.Fatal(err)
	}
	// A second poll re-reads the overlap and counts nothing twice.
	r.clock.Add(time.Minute)
	if _, err := a.poll(context.Background(), func() {}); err != nil {
		t.Fatal(err)
	}
	expectMetrics(t, c, "token_history.metrics")
	var starts []string // of each read, at its first page
	for _, q := range r.requests(endpoint.TokenHistory) {
		if query(t, q, "page") == "1" {
			starts = append(starts, query(t, q, "startTime"))
		}
	}
	if want := fmt.Sprint(historyNow.Add(-10 * time.Minute).UnixMilli()); len(starts) != 2 || starts[1] != want {
		t.Errorf("reads starting at %v, want two, the second at %s: 5m before the newest record", starts, want)
	}
}

func TestTokenHistoryFailedPollKeepsWhatArrived(t *testing.T) {
	r := newRig(t, &fakeexchange.Scenario{})
	r.add(t, hrec(1, 30*time.Minute, "USDT", "DEPOSIT", "1"), hrec(2, 20*time.Minute, "USDT", "DEPOSIT", "2"))
	// While page 1 is read, every request after it is set to fail.
	r.fake.BeforeHistoryPage(func(_ string, page int) {
		if page == 1 {
			r.fake.InjectFault(fakeexchange.Fault{Endpoint: endpoint.TokenHistory, Kind: fakeexchange.FaultHTTPError, Status: 503})
		}
	})
	a := newTestHistory(r, 1)
	p := testPoller(endpoint.TokenHistory, "main", a.poll, historyNow)
	p.pollOnce(context.Background())
	if st := p.lastStatus(); !st.polled || st.success {
		t.Fatalf("status %+v, want a failed poll", st)
	}
	if got := a.snap.Load().Totals; len(got) != 1 || got[0].Records != 1 || !got[0].Inflow.Equal(dec("2")) {
		t.Errorf("after a failure on page 2 totals = %+v, want page 1 (id 2, amount 2) counted", got)
	}
	if a.inUse.Load().Start() != historyNow.Add(-time.Hour).UnixMilli() {
		t.Error("cursor advanced after a failed poll")
	}
	r.fake.BeforeHistoryPage(nil)
	r.fake.ClearFaults()
	p.pollOnce(context.Background())
	if got := a.snap.Load().Totals; len(got) != 1 || got[0].Records != 2 || !got[0].Inflow.Equal(dec("3")) {
		t.Errorf("after the retry totals = %+v, want both records once", got)
	}
}

// Totals far beyond float64's exact range stay exact in the ledger and are
// exported as the nearest float, with a scrape that still lints clean.
// Each amount is within --limits.max-amount; their digits are not.
func TestTokenHistoryHugeTotalsStayExactAndExportAsFloats(t *testing.T) {
	huge := "999999999999999.000000000000000000000000000001" // 15 digits . 30 decimals
	r := newRig(t, &fakeexchange.Scenario{})
	r.add(t,
		hrec(1, 30*time.Minute, "USDT", "DEPOSIT", huge),
		hrec(2, 20*time.Minute, "USDT", "DEPOSIT", huge),
		hrec(3, 10*time.Minute, "USDT", "DEPOSIT", "0.000000000000000000000000000001"),
		hrec(4, 5*time.Minute, "USDT", "WITHDRAW", "-"+huge),
	)
	a := newTestHistory(r, 2)
	if _, err := a.poll(context.Background(), func() {}); err != nil {
		t.Fatal(err)
	}
	wantIn := dec(huge).Add(dec(huge)).Add(dec("0.000000000000000000000000000001"))
	byType := map[string]ledger.Total{}
	for _, tot := range a.snap.Load().Totals {
		byType[tot.Type] = tot
	}
	if got := byType["DEPOSIT"].Inflow; !got.Equal(wantIn) {
		t.Errorf("DEPOSIT inflow %s, want exactly %s", got, wantIn)
	}
	if got := byType["WITHDRAW"].Outflow; !got.Equal(dec(huge)) {
		t.Errorf("WITHDRAW outflow %s, want exactly %s", got, huge)
	}

	c := &TokenHistoryCollector{accounts: []*historyAccount{a}}
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(c)
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, mf := range mfs {
		if mf.GetName() != "woox_token_history_inflow_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, lp := range m.GetLabel() {
				if lp.GetName() == "transaction_type" && lp.GetValue() == "DEPOSIT" {
					found = true
					if got, want := m.GetCounter().GetValue(), wantIn.InexactFloat64(); got != want {
						t.Errorf("exported DEPOSIT inflow %g, want %g", got, want)
					}
				}
			}
		}
	}
	if !found {
		t.Fatal("no DEPOSIT inflow series exported")
	}
	if problems, err := testutil.CollectAndLint(c); err != nil || len(problems) > 0 {
		t.Errorf("lint: %v %v", problems, err)
	}
}

// recordsByType gathers c's woox_token_history_records_by_type_total and
// woox_token_history_records_total summed over tokens, by transaction type.
func recordsByType(t *testing.T, c prometheus.Collector) (byType, summed map[string]float64) {
	t.Helper()
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(c)
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	byType, summed = map[string]float64{}, map[string]float64{}
	for _, mf := range mfs {
		into := map[string]map[string]float64{
			"woox_token_history_records_by_type_total": byType,
			"woox_token_history_records_total":         summed,
		}[mf.GetName()]
		if into == nil {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, lp := range m.GetLabel() {
				if lp.GetName() == "transaction_type" {
					into[lp.GetValue()] += m.GetCounter().GetValue()
				}
			}
		}
	}
	return byType, summed
}

// A new account's record panels show 0, not "No data", and increase() sees
// the first record of a type: every documented type is exported at 0 before
// any record, and stays exported, as the per-token counters summed, after.
func TestTokenHistoryRecordsByTypeExportsEveryDocumentedTypeFromTheStart(t *testing.T) {
	r := newRig(t, &fakeexchange.Scenario{UndocumentedTypes: []string{"SOMETHING_NEW"}})
	a := newTestHistory(r, 2)
	c := &TokenHistoryCollector{accounts: []*historyAccount{a}}
	if _, err := a.poll(context.Background(), func() {}); err != nil {
		t.Fatal(err)
	}
	byType, summed := recordsByType(t, c)
	if len(summed) != 0 {
		t.Errorf("per-token counters %v on an empty history, want none (no token is known)", summed)
	}
	if len(byType) != len(tokenHistoryTypes) {
		t.Errorf("%d transaction types exported on an empty history, want all %d documented ones: %v", len(byType), len(tokenHistoryTypes), byType)
	}
	for _, typ := range tokenHistoryTypes {
		if v, ok := byType[typ]; !ok || v != 0 {
			t.Errorf("records_by_type_total{transaction_type=%q} = %v (exported: %v), want 0", typ, v, ok)
		}
	}

	r.add(t,
		hrec(1, 3*time.Minute, "USDT", "LIQUIDATION", "-5"),
		hrec(2, 2*time.Minute, "BTC", "LIQUIDATION", "-0.1"),
		hrec(3, time.Minute, "ETH", "SOMETHING_NEW", "1"),
	)
	if _, err := a.poll(context.Background(), func() {}); err != nil {
		t.Fatal(err)
	}
	byType, summed = recordsByType(t, c)
	if len(byType) != len(tokenHistoryTypes)+1 {
		t.Errorf("%d transaction types exported, want the %d documented ones and SOMETHING_NEW: %v", len(byType), len(tokenHistoryTypes), byType)
	}
	for typ, v := range byType {
		if v != summed[typ] {
			t.Errorf("records_by_type_total{transaction_type=%q} = %v, records_total summed over tokens = %v", typ, v, summed[typ])
		}
	}
	if byType["LIQUIDATION"] != 2 || byType["DEPOSIT"] != 0 {
		t.Errorf("LIQUIDATION %v, DEPOSIT %v; want 2 and 0", byType["LIQUIDATION"], byType["DEPOSIT"])
	}
}
