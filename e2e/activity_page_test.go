package e2e

import (
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// TestAccountActivityPagesInTime is the measurement of the closing note of
// issue 54: the binary on its default flags (account info, orders every
// 15 s), the fake serving the demo, and a real Prometheus evaluating
// alerts/woox_exporter.rules.yml every 15 s. At a random instant main's
// leverage is raised: WooxAccountSettingChanged (critical) must fire within
// 90 s. Then a bot floods main's book with 500 orders: WooxOpenOrdersSurge
// must fire within 3 minutes (its `for` is 1 minute). Set WOOX_VENUE_RUN=1
// to run it (about 6 minutes).
func TestAccountActivityPagesInTime(t *testing.T) {
	if os.Getenv("WOOX_VENUE_RUN") == "" {
		t.Skip("WOOX_VENUE_RUN not set")
	}
	fake, prom := demoWithShippedRules(t)

	// firing reports whether alert fires with every label of want.
	firing := func(alert string, want map[string]string) bool {
		alerts, err := prom.Alerts()
		if err != nil {
			t.Logf("Prometheus alerts: %v", err)
			return false
		}
		for _, a := range alerts {
			match := a.Labels["alertname"] == alert && a.State == "firing"
			for k, v := range want {
				match = match && a.Labels[k] == v
			}
			if match {
				return true
			}
		}
		return false
	}
	waitFor := func(alert string, want map[string]string, limit time.Duration) {
		t.Helper()
		start := time.Now()
		for time.Since(start) < limit+30*time.Second {
			if firing(alert, want) {
				took := time.Since(start)
				t.Logf("%s %v paged after %s", alert, want, took.Round(time.Second))
				if took > limit {
					t.Errorf("%s paged after %s, want within %s", alert, took.Round(time.Second), limit)
				}
				return
			}
			time.Sleep(time.Second)
		}
		t.Fatalf("%s %v: not within %s", alert, want, limit+30*time.Second)
	}
	apply := func(ev fakeexchange.Event) {
		t.Helper()
		if err := fake.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}

	// Three minutes of the orders' level first: the surge compares with the
	// median of what Prometheus holds, and a flood outweighs a shorter
	// history before the alert's minute of `for` is over. Then a random
	// phase against the polls and the evaluations.
	time.Sleep(3*time.Minute + rand.N(30*time.Second))
	for _, alert := range []string{"WooxAccountSettingChanged", "WooxOpenOrdersSurge"} {
		if firing(alert, nil) {
			t.Fatalf("%s fires before any change", alert)
		}
	}
	apply(fakeexchange.Event{AccountInfo: &fakeexchange.Change[fakeexchange.AccountInfo]{Account: "main",
		Row: fakeexchange.AccountInfo{Leverage: "50"}}})
	waitFor("WooxAccountSettingChanged", map[string]string{"account": "main", "setting": "leverage", "severity": "critical"}, 90*time.Second)
	apply(fakeexchange.Event{Order: &fakeexchange.Change[fakeexchange.Order]{Account: "main",
		Row: fakeexchange.Order{OrderID: 100_000, Symbol: "PERP_BTC_USDT", Status: "NEW", Side: "BUY", Type: "LIMIT", Price: "1", Quantity: "1", Copies: 500}}})
	waitFor("WooxOpenOrdersSurge", map[string]string{"account": "main"}, 3*time.Minute)
}
