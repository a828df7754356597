package client_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/fakeexchange"
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
	want := requestsHelp + `woox_api_requests_total{account="",code="429",endpoint="token_network"} 0
woox_api_requests_total{account="hedging",code="429",endpoint="credentials"} 0
woox_api_requests_total{account="hedging",code="429",endpoint="token_history"} 0
woox_api_requests_total{account="main",code="429",endpoint="credentials"} 0
woox_api_requests_total{account="main",code="429",endpoint="token_history"} 0
`
	if err := testutil.CollectAndCompare(reg, strings.NewReader(want), "woox_api_requests_total"); err != nil {
		t.Error(err)
	}
}

// The pre-created series is the one a 429 then counts on.
func TestFirst429CountsOnThePrecreatedSeries(t *testing.T) {
	const window = 50 * time.Millisecond
	h := newHarness(t, testScenario())
	c := h.client(t, func(c *client.Config) { c.RateLimit = client.RateLimit{Requests: 10, Window: window} })
	h.fake.InjectFault(fakeexchange.Fault{Kind: fakeexchange.FaultRateLimitStorm, Endpoint: fakeexchange.EndpointCredentials, Count: 1})
	if _, err := c.Credentials(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := requestsHelp + `woox_api_requests_total{account="main",code="200",endpoint="credentials"} 1
woox_api_requests_total{account="main",code="429",endpoint="credentials"} 1
woox_api_requests_total{account="main",code="429",endpoint="token_history"} 0
`
	if err := testutil.CollectAndCompare(h.reg, strings.NewReader(want), "woox_api_requests_total"); err != nil {
		t.Error(err)
	}
}
