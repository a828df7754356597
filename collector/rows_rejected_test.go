package collector

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-kit/log"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/common/expfmt"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// listEndpoints are the endpoints whose answers are lists of rows the
// fake can break one of, with the account of rowsRig that reads them.
var listEndpoints = func() map[string]string {
	out := map[string]string{}
	for _, name := range fakeexchange.UnreadableEndpoints() {
		for _, ep := range endpoint.All {
			if ep.Name == name && ep.PerAccount {
				out[name] = "main"
			} else if ep.Name == name {
				out[name] = ""
			}
		}
	}
	return out
}()

// rowsRig is the fake's demo (every endpoint's share of DefaultScenario,
// which gives account main rows on every list endpoint, so that a new
// endpoint's rows come with its demo) polled for main alone by an exporter
// of every endpoint, sub-accounts included.
func rowsRig(t *testing.T) (*rig, *Exporter) {
	t.Helper()
	r := newRig(t, fakeexchange.DefaultScenario())
	cfg := r.config()
	cfg.Accounts = slices.DeleteFunc(cfg.Accounts, func(a Account) bool { return a.Name != "main" })
	cfg.Collectors = map[string]bool{endpoint.SubAccounts: true}
	return r, newExporter(t, cfg)
}

// dataText is what the exporter's data collectors export, as text.
func dataText(t *testing.T, e *Exporter) string {
	t.Helper()
	var buf bytes.Buffer
	for _, c := range e.collectors {
		switch c.(type) {
		case *HealthCollector, *clientMetrics:
			continue
		}
		mfs, err := testsupport.RegistryGather(t, c)
		if err != nil {
			t.Fatal(err)
		}
		for _, mf := range mfs {
			if _, err := expfmt.MetricFamilyToText(&buf, mf); err != nil {
				t.Fatal(err)
			}
		}
	}
	return buf.String()
}

// healthOf is the value of the poll health family name by endpoint and
// account.
func healthOf(t *testing.T, e *Exporter, name string) map[[2]string]float64 {
	t.Helper()
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(e.byName["health"])
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[[2]string]float64{}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			var k [2]string
			for _, l := range m.GetLabel() {
				if l.GetName() == "endpoint" {
					k[0] = l.GetValue()
				} else {
					k[1] = l.GetValue()
				}
			}
			out[k] = m.GetGauge().GetValue()
		}
	}
	return out
}

// With one unreadable row on every list endpoint, every poll succeeds,
// every good row is exported exactly as without it, woox_poll_rows_rejected
// is 1 on each list endpoint (0 on the others, from their first successful
// poll), and each bad row is logged once, not on every poll; a row fixed
// and broken again is logged again.
func TestUnreadableRowsCostOnlyThemselves(t *testing.T) {
	r, e := rowsRig(t)
	pollAll(e)
	want := dataText(t, e)
	rejected := healthOf(t, e, "woox_poll_rows_rejected")
	if len(rejected) != len(e.pollers) {
		t.Fatalf("woox_poll_rows_rejected %v, want one per poller (%d)", rejected, len(e.pollers))
	}
	for k, v := range rejected {
		if v != 0 {
			t.Errorf("woox_poll_rows_rejected%v = %v before any row is broken", k, v)
		}
	}
	for endpoint := range listEndpoints {
		if err := r.fake.Apply(fakeexchange.Event{UnreadableRows: &map[string]int{endpoint: 1}}); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		pollAll(e)
	}
	if got := dataText(t, e); got != want {
		t.Errorf("an unreadable row changed what is exported:\n%s\nwant\n%s", got, want)
	}
	for k, ok := range healthOf(t, e, "woox_poll_success") {
		if ok != 1 {
			t.Errorf("woox_poll_success%v = %v", k, ok)
		}
	}
	for k, v := range healthOf(t, e, "woox_poll_rows_rejected") {
		if account, list := listEndpoints[k[0]]; (list && k[1] == account) != (v == 1) || v > 1 {
			t.Errorf("woox_poll_rows_rejected%v = %v", k, v)
		}
	}
	lines := func() int { return strings.Count(r.logs.String(), "left out a row of the answer that cannot be read") }
	if n := lines(); n != len(listEndpoints) {
		t.Errorf("%d warn lines after three polls, want one per bad row (%d):\n%s", n, len(listEndpoints), r.logs)
	}
	for endpoint, account := range listEndpoints {
		line := fmt.Sprintf("endpoint=%s account=%s page=1 row=1", endpoint, account)
		if account == "" {
			line = fmt.Sprintf("endpoint=%s account= page=1 row=1", endpoint)
		}
		if !strings.Contains(r.logs.String(), line) {
			t.Errorf("no warn line of %s:\n%s", line, r.logs)
		}
	}
	if err := r.fake.Apply(fakeexchange.Event{UnreadableRows: &map[string]int{endpoint.Balances: 0}}); err != nil {
		t.Fatal(err)
	}
	pollAll(e)
	if v := healthOf(t, e, "woox_poll_rows_rejected")[[2]string{endpoint.Balances, "main"}]; v != 0 {
		t.Errorf("woox_poll_rows_rejected of balances %v once the row is fixed, want 0", v)
	}
	if err := r.fake.Apply(fakeexchange.Event{UnreadableRows: &map[string]int{endpoint.Balances: 1}}); err != nil {
		t.Fatal(err)
	}
	pollAll(e)
	if n := lines(); n != len(listEndpoints)+1 {
		t.Errorf("%d warn lines, want the balance row broken again logged again (%d)", n, len(listEndpoints)+1)
	}
}

// A balances answer with a row left out is not reconciled with the token
// history: the token of that row would read as emptied.
func TestHoldingsOfAnAnswerWithARowLeftOutAreNotReconciled(t *testing.T) {
	d := dec("1")
	s := client.BalanceSnapshot{TimeMs: 1, Balances: []client.Balance{{Token: "USDT", Holding: &d}}}
	if _, ok := holdingsOf(s); !ok {
		t.Fatal("a whole answer is not reconciled")
	}
	s.Rejected = []client.RejectedRow{{Page: 1, Index: 1, ID: "token BTC", Field: "holding"}}
	if _, ok := holdingsOf(s); ok {
		t.Error("an answer with a row left out is reconciled")
	}
}

// Token history leaves out, in woox_poll_rows_rejected, the malformed rows
// it skipped that its query window holds; while a row still fails the poll the
// gauge keeps the last successful poll's value.
func TestTokenHistoryCountsTheSkippedRowsItsWindowHolds(t *testing.T) {
	x := newReadingsRig(t, &fakeexchange.Scenario{MalformedIDs: []int64{5}})
	x.add(t, hist(4, x.clock.Now().Add(-2*time.Minute), "DEPOSIT", "USDT", "1"))
	p := testPoller(endpoint.TokenHistory, "main", x.account.poll, historyNow)
	rejected := func() (int, bool) { st := p.lastStatus(); return st.rejected, st.success }
	p.pollOnce(context.Background())
	if n, ok := rejected(); n != 0 || !ok {
		t.Fatalf("rejected %d, success %v; want 0 after a clean poll", n, ok)
	}
	x.add(t, hist(5, x.clock.Now().Add(-time.Minute), "DEPOSIT", "USDT", "1"))
	for range 2 {
		p.pollOnce(context.Background())
		if n, ok := rejected(); n != 0 || ok {
			t.Fatalf("rejected %d, success %v; want the last success's 0 while the row fails polls", n, ok)
		}
	}
	p.pollOnce(context.Background()) // the third failure skips it
	if n, ok := rejected(); n != 1 || !ok {
		t.Errorf("rejected %d, success %v; want the row skipped", n, ok)
	}
	p.pollOnce(context.Background())
	if n, _ := rejected(); n != 1 {
		t.Errorf("rejected %d while the window still holds the skipped row, want 1", n)
	}
	x.clock.Add(time.Hour)
	x.add(t, hist(6, x.clock.Now().Add(-time.Second), "DEPOSIT", "USDT", "1"))
	p.pollOnce(context.Background()) // reads on from the cursor before the hour
	x.clock.Add(time.Minute)
	p.pollOnce(context.Background())
	if n, _ := rejected(); n != 0 {
		t.Errorf("rejected %d once the window moved past the row, want 0", n)
	}
}

// rejectLog logs at most maxRejectLines rows a poll, then a count; a row
// logged before is not logged again while it keeps coming back.
func TestRejectLogLogsEachRowOnceAndABoundedNumber(t *testing.T) {
	var rows []client.RejectedRow
	for i := range maxRejectLines + 5 {
		rows = append(rows, client.RejectedRow{Page: 1, Index: i, Field: "apiKey", Err: "apiKey: missing"})
	}
	var buf bytes.Buffer
	logger := log.NewLogfmtLogger(&buf)
	var l rejectLog
	l.note(logger, "credentials", "main", rows)
	if n := strings.Count(buf.String(), "\n"); n != maxRejectLines+1 || !strings.Contains(buf.String(), "rows=5") {
		t.Errorf("%d lines, want %d and a count of 5:\n%s", n, maxRejectLines+1, buf.String())
	}
	buf.Reset()
	l.note(logger, "credentials", "main", rows)
	if buf.Len() != 0 {
		t.Errorf("rows logged again:\n%s", buf.String())
	}
	// A named row is the same row wherever it moves.
	named := client.RejectedRow{Page: 1, Index: 3, ID: "id w9", Field: "createdTime", Err: "createdTime: missing"}
	l.note(logger, "wallet", "main", []client.RejectedRow{named})
	named.Index = 0
	l.note(logger, "wallet", "main", []client.RejectedRow{named})
	if n := strings.Count(buf.String(), "\n"); n != 1 {
		t.Errorf("%d lines for one named row that moved, want 1:\n%s", n, buf.String())
	}
}
