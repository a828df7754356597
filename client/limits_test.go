package client

import (
	"strings"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// An endpoint's own limit comes first, then the one for all, then the
// published one, then the lowest private one for an endpoint the table
// lacks.
func TestLimitOfEachEndpoint(t *testing.T) {
	published, err := New(Config{APIKey: "k", APISecret: "s"})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]RateLimit{
		endpoint.Positions:   {Requests: 30, Window: 10 * time.Second},
		endpoint.Balances:    {Requests: 10, Window: time.Second},
		endpoint.AccountInfo: {Requests: 10, Window: time.Minute},
		"no_such_endpoint":   DefaultRateLimit,
	} {
		if got := published.LimitOf(name); got != want {
			t.Errorf("published: LimitOf(%s) = %s, want %s", name, got, want)
		}
	}
	overridden, err := New(Config{APIKey: "k", APISecret: "s", RateLimit: RateLimit{Requests: 4, Window: time.Second},
		RateLimits: map[string]RateLimit{endpoint.Positions: {Requests: 2, Window: time.Second}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := overridden.LimitOf(endpoint.Positions); got != (RateLimit{Requests: 2, Window: time.Second}) {
		t.Errorf("LimitOf(positions) = %s, want its own 2/1s", got)
	}
	if got := overridden.LimitOf(endpoint.Balances); got != (RateLimit{Requests: 4, Window: time.Second}) {
		t.Errorf("LimitOf(balances) = %s, want the one for all, 4/1s", got)
	}
}

// A limit of one endpoint that is not positive, or that the budget leaves
// no request of, is refused naming the endpoint.
func TestNewRefusesALimitTheBudgetLeavesNothingOf(t *testing.T) {
	for _, tc := range []struct {
		limits map[string]RateLimit
		want   string
	}{
		{map[string]RateLimit{endpoint.Positions: {Requests: 0, Window: time.Second}}, "of positions: must be positive"},
		{map[string]RateLimit{endpoint.Balances: {Requests: 1, Window: time.Second}}, "budget 0.5 of 1/1s of balances allows no request at all"},
	} {
		_, err := New(Config{APIKey: "k", APISecret: "s", RateLimits: tc.limits})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", tc.limits, err, tc.want)
		}
	}
}

// Each endpoint's budget holds its own limit: at budget 0.5, 15 positions
// requests go out at once (30 per 10 s) and 5 account info requests (10
// per 60 s).
func TestEachEndpointsBudgetHoldsItsOwnLimit(t *testing.T) {
	c, err := New(Config{APIKey: "k", APISecret: "s"})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]RateLimit{endpoint.Positions: {Requests: 15, Window: 10 * time.Second},
		endpoint.AccountInfo: {Requests: 5, Window: time.Minute}, endpoint.Balances: {Requests: 5, Window: time.Second}} {
		if got := c.budgetFor(name).Limit(); got != want {
			t.Errorf("%s: budget of %s, want %s", name, got, want)
		}
	}
}
