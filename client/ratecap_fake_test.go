package client_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

const (
	otherKey    = "other-acct-key-0123=="
	otherSecret = "OTHER-ACCOUNT-SECRET-5Tz"
)

// Through the fake exchange, two accounts' clients share one cap: while one
// has 25 requests waiting, the other's request reaches the exchange after at
// most a round's worth of them, not after all; every request goes out once.
func TestRateCapSharedByTwoAccountsAgainstTheFake(t *testing.T) {
	s := testScenario()
	s.Accounts = append(s.Accounts, fakeexchange.Account{Name: "other", AccountName: "Other", UserID: 12524,
		Keys: []fakeexchange.Key{{APIKey: otherKey, APISecret: otherSecret, Permissions: []string{"READ"}}}})
	h := newHarness(t, s, fakeexchange.WithRateLimit(0, 0))
	rateCap := client.NewRateCap(20, h.metrics)
	// Each endpoint's own budget far above the cap, so the cap is what
	// holds the requests back.
	roomy := func(c *client.Config) {
		c.RateCap, c.RateLimit, c.Budget = rateCap, client.RateLimit{Requests: 1000, Window: time.Second}, 1
	}
	busy := h.client(t, roomy)
	quiet := h.client(t, func(c *client.Config) {
		roomy(c)
		c.Account, c.APIKey, c.APISecret = "other", otherKey, otherSecret
	})

	ctx := context.Background()
	const backlog = 25
	var wg sync.WaitGroup
	errs := make(chan error, backlog)
	for range backlog {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := busy.Balances(ctx); err != nil {
				errs <- err
			}
		}()
	}
	testsupport.WaitFor(t, "20 of main's requests waiting for the cap", func() bool {
		return gaugeValue(t, h.reg, "woox_api_rate_cap_queued") >= 20
	})
	from := len(h.fake.Requests())
	if _, _, err := quiet.Balances(ctx); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	ahead, seen := 0, false
	for _, q := range h.fake.Requests()[from:] {
		if q.Account == "other" {
			seen = true
			break
		}
		ahead++
	}
	// One of main's may have had its slot before other's request queued,
	// then main's turn, then other's; one more for arrivals reordered on
	// the way.
	if !seen || ahead > 3 {
		t.Errorf("other's request reached the exchange after %d of main's (seen %t), want at most 3 of the %d waiting", ahead, seen, backlog)
	}
	counts := map[string]int{}
	for _, q := range h.fake.Requests() {
		counts[q.Account]++
	}
	if counts["main"] != backlog || counts["other"] != 1 {
		t.Errorf("requests at the exchange %v, want main %d, other 1", counts, backlog)
	}
	for account, want := range map[string]int{"main": backlog, "other": 1} {
		if got := accountCounter(t, h.reg, "woox_api_rate_cap_admitted_total", account); got != float64(want) {
			t.Errorf("woox_api_rate_cap_admitted_total{account=%q} = %v, want %d", account, got, want)
		}
	}
	if got := gaugeValue(t, h.reg, "woox_api_rate_cap_queued"); got != 0 {
		t.Errorf("woox_api_rate_cap_queued = %v at the end, want 0", got)
	}
}

// accountCounter is the value of the counter name{account=account} in reg,
// -1 when absent.
func accountCounter(t *testing.T, reg *prometheus.Registry, name, account string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			if mf.GetName() == name && len(m.GetLabel()) == 1 && m.GetLabel()[0].GetValue() == account {
				return m.GetCounter().GetValue()
			}
		}
	}
	return -1
}
