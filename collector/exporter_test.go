package collector

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-kit/log"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// collectWithin fails the test unless a full Collect of c completes in d.
func collectWithin(t *testing.T, c prometheus.Collector, d time.Duration) {
	t.Helper()
	done := make(chan struct{})
	go func() { testutil.CollectAndCount(c); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("Collect of %T did not complete within %s while a poll was in progress", c, d)
	}
}

// sumOf is the sum of every sample of the named metric c exports.
func sumOf(t *testing.T, c prometheus.Collector, name string) float64 {
	t.Helper()
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(c)
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			switch {
			case m.Counter != nil:
				sum += m.GetCounter().GetValue()
			case m.Gauge != nil:
				sum += m.GetGauge().GetValue()
			}
		}
	}
	return sum
}

// testConfig is r.config() without the system status, which the poll
// health goldens of these tests leave out.
func testConfig(r *rig) Config {
	cfg := r.config()
	cfg.Collectors = map[string]bool{endpoint.SystemInfo: false}
	return cfg
}

// holdTokenNetworks holds every token network request until the faults are
// cleared.
func (r *rig) holdTokenNetworks() {
	r.fake.InjectFault(fakeexchange.Fault{Endpoint: endpoint.TokenNetwork, Kind: fakeexchange.FaultLatency, Delay: time.Hour})
}

// failEveryEndpoint makes every endpoint fail until the faults are cleared:
// those named here each in a way of its own, any other with maintenance.
func (r *rig) failEveryEndpoint() {
	faults := map[string]fakeexchange.Fault{
		endpoint.TokenNetwork: {Kind: fakeexchange.FaultHTTPError, Status: 503},
		endpoint.Credentials:  {Kind: fakeexchange.FaultHTTPError, Status: 500},
		endpoint.TokenHistory: {Kind: fakeexchange.FaultRateLimitStorm},
	}
	for _, ep := range endpoint.All {
		f, ok := faults[ep.Name]
		if !ok {
			f = fakeexchange.Fault{Kind: fakeexchange.FaultMaintenance}
		}
		f.Endpoint = ep.Name
		r.fake.InjectFault(f)
	}
}

func TestCollectNeverWaitsForAPollInProgress(t *testing.T) {
	r := newTestRig(t)
	r.add(t, hrec(1, 30*time.Minute, "USDT", "DEPOSIT", "1"), hrec(2, 20*time.Minute, "USDT", "DEPOSIT", "2"))
	r.holdTokenNetworks()
	pageServed, release := r.holdHistoryPage(t, 2)
	e := newExporter(t, testConfig(r))
	setPageSize(e, 1)
	run(t, e)

	<-pageServed // the history poll now hangs after page 1; the network poll hangs from the start
	if e.Ready() {
		t.Error("Ready while two pollers are still in their first poll")
	}
	for _, c := range e.collectors {
		collectWithin(t, c, 2*time.Second)
	}
	if got := sumOf(t, e.byName[endpoint.TokenHistory], "woox_token_history_records_total"); got != 1 {
		t.Errorf("records exported while the poll hangs after page 1 = %v, want 1", got)
	}
	release()
	r.fake.ClearFaults()
	testsupport.WaitFor(t, "every first poll", e.Ready)
	if got := sumOf(t, e.byName[endpoint.TokenHistory], "woox_token_history_records_total"); got != 2 {
		t.Errorf("records after the poll finished = %v, want 2", got)
	}
}

func TestPollNeverWaitsForAScrape(t *testing.T) {
	r := newTestRig(t)
	r.add(t, hrec(1, 30*time.Minute, "USDT", "DEPOSIT", "1"))
	e := newExporter(t, testConfig(r))
	pollAll(e)
	// A scrape that stalls after its first metric, like a slow Prometheus.
	ch := make(chan prometheus.Metric)
	for _, c := range e.collectors {
		go c.Collect(ch)
	}
	<-ch
	r.add(t, hrec(2, 10*time.Minute, "USDT", "DEPOSIT", "2"))
	r.listCredentials(t, credentialRows()[:1])
	polled := make(chan struct{})
	go func() {
		pollAll(e)
		close(polled)
	}()
	select {
	case <-polled:
	case <-time.After(2 * time.Second):
		t.Fatal("polls did not finish while a scrape was stalled")
	}
	go func() {
		for range ch {
		}
	}()
	if got := sumOf(t, e.byName[endpoint.TokenHistory], "woox_token_history_records_total"); got != 2 {
		t.Errorf("records = %v, want 2", got)
	}
}

func TestFailedPollsKeepLastDataAndReadyCountsThem(t *testing.T) {
	r := newTestRig(t)
	r.add(t, hrec(1, 30*time.Minute, "USDT", "DEPOSIT", "1"))
	e := newExporter(t, testConfig(r))
	if e.Ready() {
		t.Error("Ready before any poll")
	}
	pollAll(e)
	if !e.Ready() {
		t.Error("not Ready after every poller's first poll")
	}
	r.failEveryEndpoint()
	for _, p := range e.pollers {
		p.now = func() time.Time { return historyNow.Add(time.Hour) }
		p.pollOnce(context.Background())
		if p.lastStatus().success {
			t.Errorf("%s %s: a poll succeeded through the fault", p.endpoint, p.account)
		}
	}
	for name, golden := range map[string]string{endpoint.TokenNetwork: "token_network.metrics",
		endpoint.Credentials: "credentials.metrics", endpoint.TokenHistory: "token_history_one.metrics"} {
		expectMetrics(t, e.byName[name], golden)
	}
	if err := testutil.CollectAndCompare(e.byName["health"], strings.NewReader(allFailedHealth(testConfig(r))),
		"woox_poll_success", "woox_poll_last_success_timestamp_seconds"); err != nil {
		t.Error(err)
	}
}

// allFailedHealth is the health of every endpoint cfg polls once its polls
// failed after a first success at historyNow, by the endpoint table, so
// that a new endpoint needs no golden file rewritten.
func allFailedHealth(cfg Config) string {
	var polled [][2]string
	for _, ep := range endpoint.All {
		for _, a := range cfg.Accounts {
			if ep.Enabled(cfg.Collectors) && ep.PerAccount {
				polled = append(polled, [2]string{a.Name, ep.Name})
			}
		}
		if ep.Enabled(cfg.Collectors) && !ep.PerAccount {
			polled = append(polled, [2]string{"", ep.Name})
		}
	}
	slices.SortFunc(polled, func(a, b [2]string) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	var b strings.Builder
	for _, f := range []struct{ name, help, value string }{
		{"woox_poll_last_success_timestamp_seconds", "Unix time of the last successful background poll of the endpoint.", "1.7e+09"},
		{"woox_poll_success", "Whether the last background poll of the endpoint succeeded (1) or failed (0); after a failure the last good data stays exported.", "0"},
	} {
		fmt.Fprintf(&b, "# HELP %s %s\n# TYPE %s gauge\n", f.name, f.help, f.name)
		for _, p := range polled {
			fmt.Fprintf(&b, "%s{account=%q,endpoint=%q} %s\n", f.name, p[0], p[1], f.value)
		}
	}
	return b.String()
}

func TestReadyAfterFirstPollsFailWithRun(t *testing.T) {
	r := newTestRig(t)
	r.failEveryEndpoint()
	cfg := testConfig(r)
	e := newExporter(t, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { e.Run(ctx); close(done) }()
	testsupport.WaitFor(t, "every first poll", e.Ready)
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after its context was cancelled")
	}
	for _, want := range []string{
		`level=warn msg="poll failed" endpoint=token_network account= err="get token networks: transient failure (HTTP 503)"`,
		`level=warn msg="poll failed" endpoint=credentials account=main err="get credentials page 1: transient failure (HTTP 500, code -1000): internal server error"`,
		`level=warn msg="poll failed" endpoint=token_history account=main err="get token history page 1: rate limited (HTTP 429, code -1003): too many requests"`,
		`level=warn msg="poll failed" endpoint=account_info account=main err="get account info: transient failure (HTTP 400, code -1011): system under maintenance"`,
		`level=warn msg="poll failed" endpoint=balances account=main err="get balances: transient failure (HTTP 400, code -1011): system under maintenance"`,
		`level=warn msg="poll failed" endpoint=wallet account=main err="get wallet history page 1: transient failure (HTTP 400, code -1011): system under maintenance"`,
	} {
		if !strings.Contains(r.logs.String(), want) {
			t.Errorf("log lacks %s:\n%s", want, r.logs.String())
		}
	}
	for _, name := range append(endpoint.Names(false, cfg.Collectors), endpoint.Names(true, cfg.Collectors)...) {
		if !strings.Contains(r.logs.String(), `level=warn msg="poll failed" endpoint=`+name+` `) {
			t.Errorf("no failed poll of %s logged:\n%s", name, r.logs.String())
		}
	}
	if got := sumOf(t, e.byName["health"], "woox_poll_success"); got != 0 {
		t.Errorf("poll_success sum = %v, want 0", got)
	}
}

func TestStalledPollIsCancelled(t *testing.T) {
	r := newTestRig(t)
	r.holdTokenNetworks()
	c := newTokenNetworkCollector(r.public, nil, nil)
	p := testPoller(endpoint.TokenNetwork, "", c.poll, historyNow)
	p.interval, p.stallAfter = 50*time.Millisecond, 50*time.Millisecond
	var logs testsupport.SyncBuffer
	p.logger = log.NewLogfmtLogger(&logs)
	done := make(chan struct{})
	go func() { p.pollOnce(context.Background()); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("a poll without progress was not cancelled after its interval")
	}
	if st := p.lastStatus(); st.success || !st.polled {
		t.Errorf("status %+v, want a failed poll", st)
	}
	if !strings.Contains(logs.String(), "poll made no progress for 50ms") {
		t.Errorf("log does not say why the poll failed:\n%s", logs.String())
	}
}

func TestProgressKeepsALongPollAlive(t *testing.T) {
	p := testPoller(endpoint.TokenHistory, "main", withoutRows(func(ctx context.Context, progress func()) error {
		for range 6 { // 6 × 30ms of paging, longer than the 100ms interval
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(30 * time.Millisecond):
			}
			progress()
		}
		return nil
	}), historyNow)
	p.interval, p.stallAfter = 100*time.Millisecond, 100*time.Millisecond
	p.pollOnce(context.Background())
	if st := p.lastStatus(); !st.success {
		t.Errorf("a poll that kept making progress was cancelled: %+v", st)
	}
}

// A poll waiting out the request budget after a 429 (longer than its
// interval, shorter than the stall timeout) is waiting its turn, not stuck.
func TestStallTimeoutLongerThanIntervalLetsAPollWaitForBudget(t *testing.T) {
	r := newTestRig(t)
	// Five intervals without progress.
	r.fake.InjectFault(fakeexchange.Fault{Endpoint: endpoint.TokenNetwork, Kind: fakeexchange.FaultLatency, Delay: 150 * time.Millisecond, Count: 1})
	e := newExporter(t, Config{Public: r.public, Intervals: map[string]time.Duration{endpoint.TokenNetwork: 30 * time.Millisecond}, StallTimeout: time.Minute})
	if got := e.pollers[0].stallAfter; got != time.Minute {
		t.Fatalf("stallAfter = %v, want the 1m stall timeout", got)
	}
	p := e.pollers[0]
	done := make(chan struct{})
	go func() { p.pollOnce(context.Background()); close(done) }()
	<-done
	if st := p.lastStatus(); !st.success {
		t.Errorf("a poll waiting longer than its interval was cancelled: %+v", st)
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	r := newTestRig(t)
	api := r.api()
	for name, cfg := range map[string]Config{
		"nothing to poll":      {},
		"account without name": {Accounts: []Account{{API: api}}},
		"account twice":        {Accounts: []Account{{Name: "a", API: api}, {Name: "a", API: api}}},
		"account without API":  {Accounts: []Account{{Name: "a"}}},
		"negative interval":    {Public: r.public, Intervals: map[string]time.Duration{endpoint.TokenNetwork: -time.Second}},
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// A zero overlap and lookback take the flags' defaults (5m, 1h), so an
// embedder and the binary count the same way.
func TestZeroHistoryDurationsAreTheFlagDefaults(t *testing.T) {
	r := newTestRig(t)
	r.add(t, hrec(1, 30*time.Minute, "USDT", "DEPOSIT", "1"))
	cfg := testConfig(r)
	cfg.Public, cfg.HistoryOverlap, cfg.HistoryLookback = nil, 0, 0
	e := newExporter(t, cfg)
	l := e.ledgers["main"].Load()
	if want := historyNow.Add(-time.Hour).UnixMilli(); l.Start() != want {
		t.Errorf("first window starts %d, want now - 1h = %d", l.Start(), want)
	}
	for _, p := range e.pollers {
		if p.endpoint == endpoint.TokenHistory {
			p.pollOnce(context.Background())
		}
	}
	if want := historyNow.Add(-35 * time.Minute).UnixMilli(); l.Start() != want {
		t.Errorf("cursor %d after a poll, want 5m before the newest record = %d", l.Start(), want)
	}
}

func TestCollectorsDescribeWhatTheyCollect(t *testing.T) {
	r := newTestRig(t)
	r.add(t, hrec(1, 30*time.Minute, "USDT", "DEPOSIT", "1"))
	e := newExporter(t, testConfig(r))
	pollAll(e)
	// A pedantic registry fails Gather for a metric with an undescribed Desc.
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(e.collectors...)
	if _, err := reg.Gather(); err != nil {
		t.Error(err)
	}
}
