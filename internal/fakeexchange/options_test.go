package fakeexchange

import (
	"strings"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
)

func TestRateLimitIsSharedByKeysOfOneAccount(t *testing.T) {
	h := newHarness(t, testScenario())
	for i := range 10 {
		key := []string{"a1", "a2"}[i%2]
		wantOK(t, h.get(PathTokenHistory, "", key))
	}
	wantError(t, h.get(PathTokenHistory, "", "a1"), 429, "-1003")
	wantError(t, h.get(PathTokenHistory, "", "a2"), 429, "-1003")
	// Other accounts and other endpoints have their own budgets.
	wantOK(t, h.get(PathTokenHistory, "", "b1"))
	wantOK(t, h.get(PathCredentials, "", "a1"))
}

func TestRateLimitWindowSlides(t *testing.T) {
	h := newHarness(t, testScenario(), WithRateLimit(3, time.Minute))
	wantOK(t, h.get(PathCredentials, "", "a1"))
	h.clock.Add(30 * time.Second)
	wantOK(t, h.get(PathCredentials, "", "a1"))
	wantOK(t, h.get(PathCredentials, "", "a1"))
	wantError(t, h.get(PathCredentials, "", "a1"), 429, "-1003")
	// Rejected requests use no budget: once the first request is a full
	// limit window old, exactly one more is admitted.
	h.clock.Add(30 * time.Second)
	wantOK(t, h.get(PathCredentials, "", "a1"))
	wantError(t, h.get(PathCredentials, "", "a1"), 429, "-1003")
	h.clock.Add(30 * time.Second)
	wantOK(t, h.get(PathCredentials, "", "a1"))
	wantOK(t, h.get(PathCredentials, "", "a1"))
	wantError(t, h.get(PathCredentials, "", "a1"), 429, "-1003")
}

func TestRateLimitFromScenarioAndDisabled(t *testing.T) {
	s := testScenario()
	s.RateLimit = "2/10s"
	h := newHarness(t, s)
	wantOK(t, h.get(PathCredentials, "", "a1"))
	wantOK(t, h.get(PathCredentials, "", "a1"))
	wantError(t, h.get(PathCredentials, "", "a1"), 429, "-1003")

	h = newHarness(t, testScenario(), WithRateLimit(0, 0))
	for range 50 {
		wantOK(t, h.get(PathCredentials, "", "a1"))
	}
}

func TestPublicRateLimitIsPerIP(t *testing.T) {
	h := newHarness(t, testScenario(), WithPublicRateLimit(2, time.Minute))
	wantOK(t, h.public())
	wantOK(t, h.public())
	wantError(t, h.public(), 429, "-1003")
	// Private budgets are separate from the public one.
	wantOK(t, h.get(PathCredentials, "", "a1"))
}

func TestAuthFailuresUseNoBudget(t *testing.T) {
	h := newHarness(t, testScenario(), WithRateLimit(1, time.Minute))
	for range 5 {
		wantError(t, h.get(PathCredentials, "", "a-trade"), 401, "-1002")
	}
	wantOK(t, h.get(PathCredentials, "", "a1"))
}

// Without a scenario or option, the public endpoints admit 10 requests per
// second per IP, the limit public clients assume.
func TestPublicRateLimitDefaultsTo10PerSecond(t *testing.T) {
	h := newHarness(t, testScenario())
	for range DefaultPublicRateLimitRequests {
		wantOK(t, h.public())
	}
	wantError(t, h.public(), 429, "-1003")
	h.clock.Add(time.Second)
	wantOK(t, h.public())
}

// Each private endpoint admits its published limit by default: positions
// 30 in 10 s, balances 10 a second, credentials 10 a minute.
func TestPrivateEndpointsDefaultToTheirPublishedLimits(t *testing.T) {
	h := newHarness(t, testScenario())
	for _, tc := range []struct {
		path     string
		endpoint string
	}{{PathPositions, endpoint.Positions}, {PathBalances, endpoint.Balances}, {PathCredentials, endpoint.Credentials}} {
		ep, ok := endpoint.Of(tc.endpoint)
		if !ok {
			t.Fatalf("%s has no published limit", tc.endpoint)
		}
		for i := range ep.Limit.Requests {
			if r := h.get(tc.path, "", "a1"); r.status != 200 {
				t.Fatalf("%s request %d of %s: status %d", tc.endpoint, i+1, client.RateLimit(ep.Limit), r.status)
			}
		}
		wantError(t, h.get(tc.path, "", "a1"), 429, "-1003")
	}
	// Each limit window ends on its own.
	h.clock.Add(time.Second)
	wantOK(t, h.get(PathBalances, "", "a1"))
	wantError(t, h.get(PathPositions, "", "a1"), 429, "-1003")
	h.clock.Add(9 * time.Second)
	wantOK(t, h.get(PathPositions, "", "a1"))
	wantError(t, h.get(PathCredentials, "", "a1"), 429, "-1003")
}

// rate_limits sets one endpoint's limit, before rate_limit and the
// published ones; a name that is not a private endpoint is refused.
func TestRateLimitsOfOneEndpointFromScenario(t *testing.T) {
	s := testScenario()
	s.RateLimit = "5/10s"
	s.RateLimits = map[string]string{endpoint.Positions: "2/10s"}
	h := newHarness(t, s)
	wantOK(t, h.get(PathPositions, "", "a1"))
	wantOK(t, h.get(PathPositions, "", "a1"))
	wantError(t, h.get(PathPositions, "", "a1"), 429, "-1003")
	for range 5 {
		wantOK(t, h.get(PathBalances, "", "a1"))
	}
	wantError(t, h.get(PathBalances, "", "a1"), 429, "-1003")

	for _, bad := range []map[string]string{{"token_network": "1/1s"}, {"nope": "1/1s"}, {"positions": "ten"}} {
		s := testScenario()
		s.RateLimits = bad
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "rate_limits.") {
			t.Errorf("rate_limits %v: error %v, want one naming rate_limits.", bad, err)
		}
	}
}
