package client_test

import (
	"context"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	dto "github.com/prometheus/client_model/go"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

const requestsHelp = `# HELP woox_api_requests_total Requests sent to the exchange API, by endpoint, account and HTTP status code ("error" when no response came).
# TYPE woox_api_requests_total counter
`

// increase() only sees a 429 when the series existed before it: the
// WooxRateLimited alert needs code="429" at 0 from the start, for each
// endpoint a client calls.
func TestRateLimitSeriesExistAtZeroBeforeAny429(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := client.NewMetrics(reg)
	for _, cfg := range []client.Config{
		{BaseURL: "http://127.0.0.1:1", Metrics: m},
		{BaseURL: "http://127.0.0.1:1", Account: "main", APIKey: testKey, APISecret: testSecret, Metrics: m},
		{BaseURL: "http://127.0.0.1:1", Account: "hedging", APIKey: "k2", APISecret: "s2", Metrics: m},
	} {
		if _, err := client.New(cfg); err != nil {
			t.Fatal(err)
		}
	}
	want := requestsHelp + `woox_api_requests_total{account="",code="429",endpoint="system_info"} 0
woox_api_requests_total{account="",code="429",endpoint="token_network"} 0
woox_api_requests_total{account="hedging",code="429",endpoint="credentials"} 0
woox_api_requests_total{account="hedging",code="429",endpoint="system_info"} 0
woox_api_requests_total{account="hedging",code="429",endpoint="token_history"} 0
woox_api_requests_total{account="main",code="429",endpoint="credentials"} 0
woox_api_requests_total{account="main",code="429",endpoint="system_info"} 0
woox_api_requests_total{account="main",code="429",endpoint="token_history"} 0
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "woox_api_requests_total"); err != nil {
		t.Error(err)
	}
}

// The endpoints a client will call come from its config when given: a new
// endpoint gets its code="429" series without a change to the client.
func TestRateLimitSeriesFollowConfiguredEndpoints(t *testing.T) {
	reg := prometheus.NewRegistry()
	if _, err := client.New(client.Config{BaseURL: "http://127.0.0.1:1", Account: "main", APIKey: testKey, APISecret: testSecret,
		Metrics: client.NewMetrics(reg), Endpoints: []string{"balances"}}); err != nil {
		t.Fatal(err)
	}
	want := requestsHelp + `woox_api_requests_total{account="main",code="429",endpoint="balances"} 0
woox_api_requests_total{account="main",code="429",endpoint="system_info"} 0
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "woox_api_requests_total"); err != nil {
		t.Error(err)
	}
}

// The pre-created series is the one a 429 then counts on.
func TestFirst429CountsOnThePrecreatedSeries(t *testing.T) {
	const window = 50 * time.Millisecond
	h := newHarness(t, testScenario())
	c := h.client(t, func(c *client.Config) { c.RateLimit = client.RateLimit{Requests: 10, Window: window} })
	h.fake.InjectFault(fakeexchange.Fault{Kind: fakeexchange.FaultRateLimitStorm, Endpoint: endpoint.Credentials, Count: 1})
	if _, _, err := c.Credentials(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := requestsHelp + `woox_api_requests_total{account="main",code="200",endpoint="credentials"} 1
woox_api_requests_total{account="main",code="429",endpoint="credentials"} 1
woox_api_requests_total{account="main",code="429",endpoint="system_info"} 0
woox_api_requests_total{account="main",code="429",endpoint="token_history"} 0
`
	if err := testutil.GatherAndCompare(h.reg, strings.NewReader(want), "woox_api_requests_total"); err != nil {
		t.Error(err)
	}
}

// gatherHistogram returns the woox_api_request_duration_seconds histogram of
// endpoint, or nil when there is none.
func gatherHistogram(t *testing.T, reg *prometheus.Registry, endpoint string) *dto.Histogram {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != "woox_api_request_duration_seconds" {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, lp := range m.GetLabel() {
				if lp.GetName() == "endpoint" && lp.GetValue() == endpoint {
					return m.GetHistogram()
				}
			}
		}
	}
	return nil
}

func TestLatencyHistogramObservesEveryRequestByEndpoint(t *testing.T) {
	h := newHarness(t, testScenario(), fakeexchange.WithRateLimit(1000, time.Minute))
	account := h.client(t, func(c *client.Config) { c.RateLimit = client.RateLimit{Requests: 1000, Window: time.Minute} })
	public := h.client(t, func(c *client.Config) { c.Account, c.APIKey, c.APISecret = "", "", "" })
	// One slow answer, so the histogram must hold a duration above 50 ms.
	h.fake.InjectFault(fakeexchange.Fault{Kind: fakeexchange.FaultLatency, Endpoint: endpoint.Credentials, Delay: 80 * time.Millisecond, Count: 1})
	for range 3 {
		if _, _, err := account.Credentials(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := public.TokenNetworks(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Each call is one page of keys, clearly the last.
	creds := gatherHistogram(t, h.reg, endpoint.Credentials)
	if creds == nil || creds.GetSampleCount() != 3 {
		t.Fatalf("credentials histogram = %v, want 3 observations", creds)
	}
	if b := creds.GetBucket()[0]; b.GetUpperBound() != 0.05 || b.GetCumulativeCount() > 2 {
		t.Errorf("bucket %v holds every observation; the 80 ms answer should be above it", b)
	}
	if creds.GetSampleSum() < 0.08 {
		t.Errorf("sum of durations %v s, want at least the 80 ms delay", creds.GetSampleSum())
	}
	if nets := gatherHistogram(t, h.reg, endpoint.TokenNetwork); nets == nil || nets.GetSampleCount() != 1 {
		t.Errorf("token_network histogram = %v, want 1 observation", nets)
	}
	if hist := gatherHistogram(t, h.reg, endpoint.TokenHistory); hist != nil {
		t.Errorf("token_history histogram = %v, want none: no request was sent", hist)
	}
}

func TestRequestsTotalByEndpointAccountAndCode(t *testing.T) {
	h := newHarness(t, testScenario(), fakeexchange.WithRateLimit(1000, time.Minute))
	account := h.client(t, func(c *client.Config) {
		c.RateLimit = client.RateLimit{Requests: 1000, Window: time.Minute}
		c.MaxRetries = -1
	})
	public := h.client(t, func(c *client.Config) { c.Account, c.APIKey, c.APISecret = "", "", "" })
	if _, _, err := account.Credentials(context.Background()); err != nil {
		t.Fatal(err)
	}
	h.fake.InjectFault(fakeexchange.Fault{Kind: fakeexchange.FaultHTTPError, Status: 503, Endpoint: endpoint.TokenHistory, Count: 1})
	if _, _, err := account.TokenHistory(context.Background(), client.HistoryQuery{}); !client.IsTransient(err) {
		t.Fatalf("err = %v, want the 503", err)
	}
	if _, _, err := public.TokenNetworks(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Nothing listens on a closed server's address: no response at all.
	closed := httptest.NewServer(nil)
	closed.Close()
	down := h.client(t, func(c *client.Config) { c.BaseURL, c.Account, c.MaxRetries = closed.URL, "down", -1 })
	if _, _, err := down.Credentials(context.Background()); !client.IsTransient(err) {
		t.Fatalf("err = %v, want a connection error", err)
	}
	want := requestsHelp + `woox_api_requests_total{account="",code="200",endpoint="token_network"} 1
woox_api_requests_total{account="",code="429",endpoint="system_info"} 0
woox_api_requests_total{account="",code="429",endpoint="token_network"} 0
woox_api_requests_total{account="down",code="429",endpoint="credentials"} 0
woox_api_requests_total{account="down",code="429",endpoint="system_info"} 0
woox_api_requests_total{account="down",code="429",endpoint="token_history"} 0
woox_api_requests_total{account="down",code="error",endpoint="credentials"} 1
woox_api_requests_total{account="main",code="200",endpoint="credentials"} 1
woox_api_requests_total{account="main",code="429",endpoint="credentials"} 0
woox_api_requests_total{account="main",code="429",endpoint="system_info"} 0
woox_api_requests_total{account="main",code="429",endpoint="token_history"} 0
woox_api_requests_total{account="main",code="503",endpoint="token_history"} 1
`
	if err := testutil.GatherAndCompare(h.reg, strings.NewReader(want), "woox_api_requests_total"); err != nil {
		t.Error(err)
	}
	// The failed connection is timed too.
	if creds := gatherHistogram(t, h.reg, endpoint.Credentials); creds.GetSampleCount() != 2 {
		t.Errorf("credentials histogram has %d observations, want 2", creds.GetSampleCount())
	}
}

// newTestClock is a clock that moves only when told, shared by the fake and
// the client so that offsets are exact.
func newTestClock() *testsupport.Clock {
	return testsupport.NewClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
}

func TestClockOffsetAndSkewGaugeFollowTheExchangeClock(t *testing.T) {
	for _, tc := range []struct {
		ahead time.Duration
		warns int
	}{
		{90 * time.Second, 1},
		{-90 * time.Second, 1},
		{10 * time.Second, 0},
	} {
		t.Run(tc.ahead.String(), func(t *testing.T) {
			clk := newTestClock()
			s := testScenario()
			s.ServerTimeOffset = tc.ahead
			h := newHarness(t, s, fakeexchange.WithClock(clk.Now), fakeexchange.WithRateLimit(1000, time.Minute))
			c := h.client(t, func(c *client.Config) {
				c.Now = clk.Now
				c.RateLimit = client.RateLimit{Requests: 1000, Window: time.Minute}
			})
			if _, ok := c.ClockOffset(); ok {
				t.Fatal("offset known before any answer")
			}
			// Signed requests still pass: 90 s is within 300 s of server time.
			if _, _, err := c.Credentials(context.Background()); err != nil {
				t.Fatal(err)
			}
			if _, _, err := c.TokenHistory(context.Background(), client.HistoryQuery{}); err != nil {
				t.Fatal(err)
			}
			if off, ok := c.ClockOffset(); !ok || off != tc.ahead {
				t.Errorf("offset = %v (known %v), want %v", off, ok, tc.ahead)
			}
			if got := c.ServerNow(); !got.Equal(clk.Now().Add(tc.ahead)) {
				t.Errorf("ServerNow = %v, want the fake's clock %v", got, clk.Now().Add(tc.ahead))
			}
			want := `# HELP woox_api_clock_skew_seconds Exchange server clock minus local clock, from the latest trusted answer (successful, quick, within a day).
# TYPE woox_api_clock_skew_seconds gauge
woox_api_clock_skew_seconds ` + strconv.FormatFloat(tc.ahead.Seconds(), 'g', -1, 64) + "\n"
			if err := testutil.GatherAndCompare(h.reg, strings.NewReader(want), "woox_api_clock_skew_seconds"); err != nil {
				t.Error(err)
			}
			logs := h.logbuf.String()
			if n := strings.Count(logs, "local clock is drifting"); n != tc.warns {
				t.Errorf("%d skew warnings after 2 answers, want %d:\n%s", n, tc.warns, logs)
			}
			if tc.warns > 0 && (!strings.Contains(logs, "level=warn") || !strings.Contains(logs, "offset="+tc.ahead.String())) {
				t.Errorf("warning without level or offset:\n%s", logs)
			}
		})
	}
}

// A skewed clock warns when the offset crosses 60 s, then at most once a
// minute, instead of on every answer.
func TestSkewWarningIsRateLimited(t *testing.T) {
	clk := newTestClock()
	h := newHarness(t, testScenario(), fakeexchange.WithClock(clk.Now))
	var shift atomic.Int64 // local clock minus the fake's
	c := h.client(t, func(c *client.Config) {
		c.Account, c.APIKey, c.APISecret = "", "", ""
		c.Now = func() time.Time { return clk.Now().Add(time.Duration(shift.Load())) }
		c.RateLimit = client.RateLimit{Requests: 1000, Window: time.Minute}
	})
	warnings := func() int { return strings.Count(h.logbuf.String(), "local clock is drifting") }
	call := func() {
		t.Helper()
		if _, _, err := c.TokenNetworks(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	shift.Store(int64(-90 * time.Second))
	for range 5 {
		call()
	}
	if n := warnings(); n != 1 {
		t.Fatalf("%d warnings after 5 skewed answers at once, want 1", n)
	}
	clk.Add(59 * time.Second)
	call()
	if n := warnings(); n != 1 {
		t.Fatalf("%d warnings 59 s after the first, want 1", n)
	}
	clk.Add(time.Second)
	call()
	if n := warnings(); n != 2 {
		t.Fatalf("%d warnings a minute after the first, want 2", n)
	}
	shift.Store(0)
	call()
	if !strings.Contains(h.logbuf.String(), "back within 60s") {
		t.Errorf("no note when the clock came back:\n%s", h.logbuf.String())
	}
	// A new crossing warns at once.
	shift.Store(int64(-90 * time.Second))
	call()
	if n := warnings(); n != 3 {
		t.Fatalf("%d warnings after the clock drifted again, want 3", n)
	}
}
