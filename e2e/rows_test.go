package e2e

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/model"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// unreadableEndpoints are the list endpoints the fake breaks a row of.
var unreadableEndpoints = fakeexchange.UnreadableEndpoints()

// rejectedWant is woox_poll_rows_rejected of every endpoint and account
// with one unreadable row on each list endpoint: 1 on each list, 0 on the
// other endpoints and on the sub-accounts of "sub", whose key the exchange
// refuses there.
func rejectedWant() map[string]float64 {
	want := map[string]float64{}
	for _, ep := range endpoint.All {
		accounts := []string{"main", "sub"}
		if !ep.PerAccount {
			accounts = []string{""}
		}
		for _, a := range accounts {
			v := 0.0
			for _, u := range unreadableEndpoints {
				if u == ep.Name && (a != "sub" || u != endpoint.SubAccounts) {
					v = 1
				}
			}
			want[fmt.Sprintf(`woox_poll_rows_rejected{account=%q, endpoint=%q}`, a, ep.Name)] = v
		}
	}
	return want
}

// dataSamples are the samples of what the exchange holds: every woox_
// family but the exporter's own health, and the unexplained balance change,
// which is computed only from balances answers read whole.
func dataSamples(samples map[string]*model.Sample) map[string]float64 {
	out := map[string]float64{}
	for series, s := range samples {
		if !strings.HasPrefix(series, "woox_") || strings.HasPrefix(series, "woox_poll_") || strings.HasPrefix(series, "woox_api_") ||
			strings.HasPrefix(series, "woox_exporter_") || strings.HasPrefix(series, "woox_balance_unexplained_change") {
			continue
		}
		out[series] = float64(s.Value)
	}
	return out
}

// The binary against the fake with one unreadable row on every list
// endpoint from its first answer: every poll succeeds,
// woox_poll_rows_rejected reads 1 on each of those endpoints, the good rows
// are exported exactly as once the rows are fixed, and the log has one warn
// line per bad row, however many polls read it.
func TestBinaryExportsTheRowsItCanRead(t *testing.T) {
	s := fakeexchange.DefaultScenario()
	s.Accounts[0].HistoryGenerator = nil // nothing moves but the rows
	s.RateLimit, s.PublicRateLimit = "0/0s", "0/0s"
	s.UnreadableRows = map[string]int{}
	for _, ep := range unreadableEndpoints {
		s.UnreadableRows[ep] = 1
	}
	fake, err := fakeexchange.New(s)
	if err != nil {
		t.Fatal(err)
	}
	p := exportertest.Start(t, defaultSecrets, append([]string{"--woox.api-url=" + serveFake(t, fake),
		"--config.file=" + accountsConfig(t, t.TempDir(), "main", "sub"), "--collector.sub-accounts", "--api.rate-limit=1000/1s"},
		exportertest.IntervalFlags(300*time.Millisecond)...)...)
	p.WaitReady(t)
	want := rejectedWant()
	var broken map[string]*model.Sample
	testsupport.WaitFor(t, "every list endpoint polled four times", func() bool {
		polls := map[string]int{}
		for _, r := range fake.Requests() {
			polls[r.Endpoint+"/"+r.Account]++
		}
		for _, ep := range unreadableEndpoints {
			if polls[ep+"/main"]+polls[ep+"/"] < 4 {
				return false
			}
		}
		broken = p.Scrape(t)
		return true
	})
	for series, v := range want {
		if got := value(t, broken, series); got != v {
			t.Errorf("%s = %v, want %v", series, got, v)
		}
	}
	for series, s := range broken {
		if strings.HasPrefix(series, "woox_poll_success{") && s.Value != 1 {
			t.Errorf("%s = %v, want 1", series, s.Value)
		}
		if strings.Contains(series, "UNREADABLE") || strings.Contains(series, "unreadable") {
			t.Errorf("an unreadable row is exported: %s", series)
		}
	}
	lines, bad := strings.Count(p.Output(), `msg="left out a row of the answer that cannot be read; the other rows are exported"`), 0.0
	for _, v := range want {
		bad += v
	}
	if lines != int(bad) {
		t.Errorf("%d warn lines of rows left out, want one per bad row (%v):\n%s", lines, bad, tail(p.Output(), 30))
	}

	for _, ep := range unreadableEndpoints {
		if err := fake.Apply(fakeexchange.Event{UnreadableRows: &map[string]int{ep: 0}}); err != nil {
			t.Fatal(err)
		}
	}
	var fixed map[string]*model.Sample
	testsupport.WaitFor(t, "no row rejected", func() bool {
		fixed = p.Scrape(t)
		for series := range want {
			if s, ok := fixed[series]; !ok || s.Value != 0 {
				return false
			}
		}
		return true
	})
	got, full := dataSamples(broken), dataSamples(fixed)
	if len(full) < 50 {
		t.Fatalf("%d data series once fixed: the comparison would prove little", len(full))
	}
	var diffs []string
	for series, v := range full {
		if g, ok := got[series]; !ok || g != v {
			diffs = append(diffs, fmt.Sprintf("%s: %v with the rows broken, %v fixed (present %v)", series, g, v, ok))
		}
	}
	for series := range got {
		if _, ok := full[series]; !ok {
			diffs = append(diffs, series+": only with the rows broken")
		}
	}
	sort.Strings(diffs)
	if len(diffs) > 0 {
		t.Errorf("the good rows were not all exported as they are once the bad ones are fixed:\n%s", strings.Join(diffs, "\n"))
	}
	p.Stop(t)
}
