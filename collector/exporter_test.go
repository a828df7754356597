package collector

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-kit/log"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/woox-exporter/woox_exporter/client"
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

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 10s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func testConfig(networks TokenNetworkAPI, account AccountAPI) Config {
	return Config{
		Public:         networks,
		Accounts:       []Account{{Name: "main", APIKey: ownKey, API: account}},
		Intervals:      map[string]time.Duration{client.EndpointTokenNetwork: time.Hour, client.EndpointCredentials: time.Hour, client.EndpointTokenHistory: time.Hour},
		HistoryOverlap: 5 * time.Minute, HistoryLookback: time.Hour,
		Now: func() time.Time { return historyNow },
	}
}

func TestCollectNeverWaitsForAPollInProgress(t *testing.T) {
	networks := &fakeNetworks{rows: tokenNetworkRows(), block: make(chan struct{})}
	account := &fakeAccount{now: historyNow, pageSize: 1, creds: credentialRows(), history: []client.HistoryRecord{
		hrec(1, 30*time.Minute, "USDT", "DEPOSIT", "1"),
		hrec(2, 20*time.Minute, "USDT", "DEPOSIT", "2"),
	}}
	release := make(chan struct{})
	pageServed := make(chan struct{})
	account.afterPage = func(ctx context.Context, page int) error {
		if page == 1 {
			close(pageServed)
		}
		select {
		case <-release:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	e, err := New(testConfig(networks, account))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { e.Run(ctx); close(done) }()
	defer func() { cancel(); <-done }()

	<-pageServed // the history poll now hangs after page 1; the network poll hangs from the start
	if e.Ready() {
		t.Error("Ready while two pollers are still in their first poll")
	}
	for _, c := range e.collectors {
		collectWithin(t, c, 2*time.Second)
	}
	if got := sumOf(t, e.byName[client.EndpointTokenHistory], "woox_token_history_records_total"); got != 1 {
		t.Errorf("records exported while the poll hangs after page 1 = %v, want 1", got)
	}
	close(release)
	close(networks.block)
	waitFor(t, e.Ready)
	if got := sumOf(t, e.byName[client.EndpointTokenHistory], "woox_token_history_records_total"); got != 2 {
		t.Errorf("records after the poll finished = %v, want 2", got)
	}
}

func TestPollNeverWaitsForAScrape(t *testing.T) {
	account := &fakeAccount{now: historyNow, creds: credentialRows(), history: []client.HistoryRecord{
		hrec(1, 30*time.Minute, "USDT", "DEPOSIT", "1"),
	}}
	e, err := New(testConfig(&fakeNetworks{rows: tokenNetworkRows()}, account))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range e.pollers {
		p.pollOnce(context.Background())
	}
	// A scrape that stalls after its first metric, like a slow Prometheus.
	ch := make(chan prometheus.Metric)
	for _, c := range e.collectors {
		go c.Collect(ch)
	}
	<-ch
	account.addHistory(hrec(2, 10*time.Minute, "USDT", "DEPOSIT", "2"))
	account.mu.Lock()
	account.creds = credentialRows()[:1]
	account.mu.Unlock()
	polled := make(chan struct{})
	go func() {
		for _, p := range e.pollers {
			p.pollOnce(context.Background())
		}
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
	if got := sumOf(t, e.byName[client.EndpointTokenHistory], "woox_token_history_records_total"); got != 2 {
		t.Errorf("records = %v, want 2", got)
	}
}

func TestFailedPollsKeepLastDataAndReadyCountsThem(t *testing.T) {
	networks := &fakeNetworks{rows: tokenNetworkRows()}
	account := &fakeAccount{now: historyNow, creds: credentialRows(), history: []client.HistoryRecord{
		hrec(1, 30*time.Minute, "USDT", "DEPOSIT", "1"),
	}}
	e, err := New(testConfig(networks, account))
	if err != nil {
		t.Fatal(err)
	}
	if e.Ready() {
		t.Error("Ready before any poll")
	}
	for _, p := range e.pollers {
		p.pollOnce(context.Background())
	}
	if !e.Ready() {
		t.Error("not Ready after every poller's first poll")
	}
	networks.set(nil, errors.New("get token networks: transient failure"))
	account.mu.Lock()
	account.credsErr = errors.New("get credentials page 1: authentication failed (HTTP 401, code -1002)")
	account.histErr = errors.New("get token history page 1: rate limited (HTTP 429, code -1003)")
	account.healthErr = errors.New("exchange under maintenance (HTTP 400, code -1011)")
	account.mu.Unlock()
	for _, p := range e.pollers {
		p.now = func() time.Time { return historyNow.Add(time.Hour) }
		p.pollOnce(context.Background())
	}
	for name, golden := range map[string]string{client.EndpointTokenNetwork: "token_network.metrics",
		client.EndpointCredentials: "credentials.metrics", client.EndpointTokenHistory: "token_history_one.metrics"} {
		expectMetrics(t, e.byName[name], golden)
	}
	expectMetrics(t, e.byName["health"], "health_all_failed.metrics",
		"woox_poll_success", "woox_poll_last_success_timestamp_seconds")
}

func TestReadyAfterFirstPollsFailWithRun(t *testing.T) {
	var logs syncBuffer
	networks := &fakeNetworks{err: errors.New("get token networks: transient failure")}
	account := &fakeAccount{now: historyNow, credsErr: errors.New("creds down"), histErr: errors.New("history down"),
		healthErr: errors.New("account health down")}
	cfg := testConfig(networks, account)
	cfg.Logger = log.NewLogfmtLogger(&logs)
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { e.Run(ctx); close(done) }()
	waitFor(t, e.Ready)
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after its context was cancelled")
	}
	for _, want := range []string{
		`level=warn msg="poll failed" endpoint=token_network account= err="get token networks: transient failure"`,
		`level=warn msg="poll failed" endpoint=credentials account=main err="creds down"`,
		`level=warn msg="poll failed" endpoint=token_history account=main err="history down"`,
		`level=warn msg="poll failed" endpoint=account_info account=main err="account health down"`,
		`level=warn msg="poll failed" endpoint=balances account=main err="account health down"`,
		`level=warn msg="poll failed" endpoint=wallet account=main err="account health down"`,
	} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %s:\n%s", want, logs.String())
		}
	}
	if got := sumOf(t, e.byName["health"], "woox_poll_success"); got != 0 {
		t.Errorf("poll_success sum = %v, want 0", got)
	}
}

func TestStalledPollIsCancelled(t *testing.T) {
	networks := &fakeNetworks{rows: tokenNetworkRows(), block: make(chan struct{})}
	c := newTokenNetworkCollector(networks, nil)
	p := testPoller(client.EndpointTokenNetwork, "", c.poll, historyNow)
	p.interval, p.stallAfter = 50*time.Millisecond, 50*time.Millisecond
	var logs syncBuffer
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
	p := testPoller(client.EndpointTokenHistory, "main", func(ctx context.Context, progress func()) error {
		for range 6 { // 6 × 30ms of paging, longer than the 100ms interval
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(30 * time.Millisecond):
			}
			progress()
		}
		return nil
	}, historyNow)
	p.interval, p.stallAfter = 100*time.Millisecond, 100*time.Millisecond
	p.pollOnce(context.Background())
	if st := p.lastStatus(); !st.success {
		t.Errorf("a poll that kept making progress was cancelled: %+v", st)
	}
}

// A poll waiting out the request budget after a 429 (longer than its
// interval, shorter than the stall timeout) is waiting its turn, not stuck.
func TestStallTimeoutLongerThanIntervalLetsAPollWaitForBudget(t *testing.T) {
	api := &fakeNetworks{rows: tokenNetworkRows(), block: make(chan struct{})}
	cfg := Config{Public: api, Intervals: map[string]time.Duration{client.EndpointTokenNetwork: 30 * time.Millisecond}, StallTimeout: time.Minute}
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := e.pollers[0].stallAfter; got != time.Minute {
		t.Fatalf("stallAfter = %v, want the 1m stall timeout", got)
	}
	p := e.pollers[0]
	done := make(chan struct{})
	go func() { p.pollOnce(context.Background()); close(done) }()
	time.Sleep(150 * time.Millisecond) // five intervals without progress
	close(api.block)
	<-done
	if st := p.lastStatus(); !st.success {
		t.Errorf("a poll waiting longer than its interval was cancelled: %+v", st)
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	api := &fakeAccount{}
	for name, cfg := range map[string]Config{
		"nothing to poll":      {},
		"account without name": {Accounts: []Account{{API: api}}},
		"account twice":        {Accounts: []Account{{Name: "a", API: api}, {Name: "a", API: api}}},
		"account without API":  {Accounts: []Account{{Name: "a"}}},
		"negative interval":    {Public: &fakeNetworks{}, Intervals: map[string]time.Duration{client.EndpointTokenNetwork: -time.Second}},
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// A zero overlap and lookback take the flags' defaults (5m, 1h), so an
// embedder and the binary count the same way.
func TestZeroHistoryDurationsAreTheFlagDefaults(t *testing.T) {
	account := &fakeAccount{now: historyNow, history: []client.HistoryRecord{hrec(1, 30*time.Minute, "USDT", "DEPOSIT", "1")}}
	cfg := testConfig(nil, account)
	cfg.HistoryOverlap, cfg.HistoryLookback = 0, 0
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	l := e.ledgers["main"]
	if want := historyNow.Add(-time.Hour).UnixMilli(); l.Start() != want {
		t.Errorf("first window starts %d, want now - 1h = %d", l.Start(), want)
	}
	for _, p := range e.pollers {
		if p.endpoint == client.EndpointTokenHistory {
			p.pollOnce(context.Background())
		}
	}
	if want := historyNow.Add(-35 * time.Minute).UnixMilli(); l.Start() != want {
		t.Errorf("cursor %d after a poll, want 5m before the newest record = %d", l.Start(), want)
	}
}

func TestCollectorsDescribeWhatTheyCollect(t *testing.T) {
	account := &fakeAccount{now: historyNow, creds: credentialRows(), history: []client.HistoryRecord{
		hrec(1, 30*time.Minute, "USDT", "DEPOSIT", "1"),
	}}
	e, err := New(testConfig(&fakeNetworks{rows: tokenNetworkRows()}, account))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range e.pollers {
		p.pollOnce(context.Background())
	}
	// A pedantic registry fails Gather for a metric with an undescribed Desc.
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(e.collectors...)
	if _, err := reg.Gather(); err != nil {
		t.Error(err)
	}
}
