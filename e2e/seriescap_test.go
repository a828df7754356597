package e2e

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/model"
	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/largeaccount"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// hostileFake is the large account with networks token network rows and a
// history of n records, each of its own token: an exchange that decides
// the exporter's series.
func hostileFake(t *testing.T, networks, n int) (url string, recs []fakeexchange.HistoryRecord) {
	t.Helper()
	fake, err := fakeexchange.New(largeaccount.Scenario(networks, 3))
	if err != nil {
		t.Fatal(err)
	}
	types := fakeexchange.HistoryTypes()
	now := time.Now()
	for i := range n {
		amount := fmt.Sprintf("%d.%08d", i%1000, (i*7919)%100000000)
		if i%3 == 2 {
			amount = "-" + amount
		}
		recs = append(recs, fakeexchange.HistoryRecord{ID: int64(i + 1), Type: types[i%len(types)], Token: fmt.Sprintf("H%06d", i),
			Amount: amount, Timestamp: now.Add(-50 * time.Minute).Add(time.Duration(i) * 40 * time.Minute / time.Duration(n)).UnixMilli()})
	}
	if err := fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main", Records: recs}}); err != nil {
		t.Fatal(err)
	}
	return serveFake(t, fake), recs
}

// startHostile starts the binary against url with extra flags, every
// endpoint polled each second.
func startHostile(t *testing.T, url string, extra ...string) *exportertest.Process {
	args := append([]string{"--woox.api-url=" + url, "--collector.sub-accounts", "--api.rate-limit=1000/1s"}, exportertest.IntervalFlags(time.Second)...)
	return exportertest.Start(t, []string{"WOOX_API_KEY=" + largeaccount.MainKey, "WOOX_API_SECRET=" + largeaccount.MainSecret},
		append(args, extra...)...)
}

// sumOf sums the samples of family name.
func sumOf(samples map[string]*model.Sample, name string) (sum float64, series int) {
	for s, v := range samples {
		if strings.HasPrefix(s, name+"{") {
			sum += float64(v.Value)
			series++
		}
	}
	return sum, series
}

// With --limits.series-per-endpoint=50, an exchange sending 300 token
// network rows and 3,000 history tokens makes the binary export at most 50
// rows of each endpoint (token history: 50 pairs by name, __other__ under
// at most 50 types, one __other__ of __other__), counts the rows beyond in
// woox_exporter_series_capped_total, and still counts every record: the
// token history summed over all tokens equals the exact sums served.
func TestBinaryCapsTheSeriesAnExchangeDecides(t *testing.T) {
	url, recs := hostileFake(t, 300, 3000)
	p := startHostile(t, url, "--limits.series-per-endpoint=50")
	p.WaitReady(t)
	var samples map[string]*model.Sample
	testsupport.WaitFor(t, "every history record counted", func() bool {
		samples = p.Scrape(t)
		n, _ := sumOf(samples, "woox_token_history_records_total")
		return int(n) == len(recs)
	})
	for fam, most := range map[string]int{
		"woox_token_network_info":          50,
		"woox_api_key_info":                50,
		"woox_balance_holding":             50,
		"woox_balance_unexplained_change":  50,
		"woox_sub_account_info":            50,
		"woox_token_history_records_total": 101,
		"woox_token_history_inflow_total":  101,
	} {
		if _, n := sumOf(samples, fam); n > most {
			t.Errorf("%s: %d series, want at most %d", fam, n, most)
		}
	}
	if _, n := sumOf(samples, "woox_token_network_info"); n != 50 {
		t.Errorf("woox_token_network_info: %d series, want the cap of 50", n)
	}
	for _, ep := range []string{`account="", endpoint="token_network"`, `account="default", endpoint="token_history"`} {
		if v := value(t, samples, "woox_exporter_series_capped_total{"+ep+"}"); v <= 0 {
			t.Errorf("woox_exporter_series_capped_total{%s} = %v, want rows counted", ep, v)
		}
	}
	if !strings.Contains(fmt.Sprint(samples), `token="__other__"`) {
		t.Error(`no token="__other__" series`)
	}
	want := testsupport.HistoryTotals(recs, func(r fakeexchange.HistoryRecord) (string, string, string) { return "*", "*", r.Amount })
	w := want[testsupport.HistoryKey{Token: "*", Type: "*"}]
	for fam, exact := range map[string]decimal.Decimal{"woox_token_history_inflow_total": w.Inflow, "woox_token_history_outflow_total": w.Outflow} {
		got, _ := sumOf(samples, fam)
		if x := exact.InexactFloat64(); math.Abs(got-x) > 1e-6*x {
			t.Errorf("%s summed over tokens = %v, want %v", fam, got, x)
		}
	}
	// Token networks, token history and balances (the fake's follow the
	// history's tokens) exceed the cap; the 3 keys and 50 sub-accounts do not.
	if n := strings.Count(p.Output(), "more distinct rows than --limits.series-per-endpoint"); n != 3 {
		t.Errorf("%d warnings, want one per endpoint and account capped (3):\n%s", n, tail(p.Output(), 20))
	}
	p.Stop(t)
}

// TestHostileExchangeMemory is the measurement of docs/reliability.md: the
// default cap against 100,000 history tokens and a token network list near
// the 8 MiB answer cap, with a peak RSS under 200 MB. Set
// WOOX_HOSTILE_RUN=1 to run it (a few minutes; .ci/run does).
func TestHostileExchangeMemory(t *testing.T) {
	if os.Getenv("WOOX_HOSTILE_RUN") == "" {
		t.Skip("WOOX_HOSTILE_RUN not set")
	}
	url, recs := hostileFake(t, 38000, 100000)
	p := startHostile(t, url)
	// The first history poll reads 100 pages of 1,000 records against the
	// fake's rate limit: minutes, not seconds.
	deadline := time.Now().Add(15 * time.Minute)
	var samples map[string]*model.Sample
	for {
		if _, err := p.Ready(time.Second); err == nil {
			samples = p.Scrape(t)
			if n, _ := sumOf(samples, "woox_token_history_records_total"); int(n) == len(recs) {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("not every history record counted within 15 minutes")
		}
		time.Sleep(5 * time.Second)
	}
	for range 10 {
		samples = p.Scrape(t)
		time.Sleep(time.Second)
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.Pid()))
	if err != nil {
		t.Fatal(err)
	}
	var hwm float64
	for _, line := range strings.Split(string(status), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			hwm = kb * 1024
		}
	}
	capped, _ := sumOf(samples, "woox_exporter_series_capped_total")
	t.Logf("%d series, peak RSS (VmHWM) %.1f MB, %v rows capped", len(samples), hwm/1e6, capped)
	if hwm >= 200e6 {
		t.Errorf("peak RSS %.1f MB, want under 200 MB", hwm/1e6)
	}
	p.Stop(t)
}
