package e2e

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/internal/promtest"
)

// waitForAlerts waits until end for the alerts and data the tables expect
// (expectedAlerts, expectedSyntheticAlerts and inhibitedAlerts in
// Alertmanager, pendingAlerts in Prometheus, seenQueries with data), all at
// once, posting the synthetic alerts every round so that Alertmanager does
// not resolve them. It fails naming what is missing, or a process that
// exited.
func (c *chain) waitForAlerts(t *testing.T, end time.Time) {
	t.Helper()
	const while = "waiting for the expected alerts in Alertmanager"
	t.Logf("%s, until %s", while, end.Format(time.TimeOnly))
	began, lastSaid := time.Now(), time.Now()
	for failures := 0; ; time.Sleep(3 * time.Second) {
		c.checkAlive(t, while)
		missing, err := c.missing()
		if err != nil {
			// A slow answer once is no failure; a broken API is.
			if failures++; failures >= 5 {
				t.Fatalf("%s: the API failed 5 times in a row: %v", while, err)
			}
			missing = append(missing, err.Error())
		} else {
			failures = 0
		}
		if len(missing) == 0 {
			return
		}
		if time.Now().After(end) {
			c.failure = fmt.Sprintf("alerts never reached Alertmanager, or data never reached Prometheus:\n  %s\n%s",
				strings.Join(missing, "\n  "), c.alertsNow())
			t.Fatalf("%s%s", c.failure, c.logs("exporter"))
		}
		if time.Since(lastSaid) >= 30*time.Second {
			t.Logf("%s: still missing after %s:\n  %s", while, time.Since(began).Round(time.Second), strings.Join(missing, "\n  "))
			lastSaid = time.Now()
		}
	}
}

// missing lists, each with its place, the specs and queries of the tables
// that nothing matches now.
func (c *chain) missing() ([]string, error) {
	if err := c.am.Post(syntheticAlerts(c.exporter.Addr)); err != nil {
		return nil, err
	}
	notInhibited, err := c.am.Alerts(url.Values{"active": {"true"}, "silenced": {"false"}, "inhibited": {"false"}})
	if err != nil {
		return nil, err
	}
	onlyInhibited, err := c.am.Alerts(url.Values{"active": {"false"}, "silenced": {"false"}, "inhibited": {"true"}})
	if err != nil {
		return nil, err
	}
	var inhibited []promtest.AlertmanagerAlert
	for _, a := range onlyInhibited {
		if a.Status.State == "suppressed" && len(a.Status.InhibitedBy) > 0 {
			inhibited = append(inhibited, a)
		}
	}
	promAlerts, err := c.prom.Alerts()
	if err != nil {
		return nil, err
	}
	amLabels, inhibitedLabels := labelsOf(notInhibited, amAlertLabels), labelsOf(inhibited, amAlertLabels)
	var missing []string
	for _, check := range []struct {
		prefix string
		specs  []string
		alerts []map[string]string
	}{
		{"", expectedAlerts, amLabels},
		{"not inhibited in Alertmanager: ", expectedSyntheticAlerts, amLabels},
		{"inhibited in Alertmanager: ", inhibitedAlerts(c.exporter.Addr), inhibitedLabels},
		{"pending in Prometheus: ", pendingAlerts, labelsOf(promAlerts, promAlertLabels)},
	} {
		specs, err := matchSpecs(check.specs, check.alerts, false)
		if err != nil {
			return nil, err
		}
		for _, s := range specs {
			missing = append(missing, check.prefix+s)
		}
	}
	for _, q := range seenQueries {
		v, err := c.prom.Query(q, time.Now())
		if err != nil {
			return nil, err
		}
		if len(v) == 0 {
			missing = append(missing, "query without data: "+q)
		}
	}
	return missing, nil
}

// checkSilent fails the test for each of silentAlerts that is firing or
// pending in Prometheus, or listed by Alertmanager (the synthetic alerts
// aside).
func (c *chain) checkSilent(t *testing.T) {
	t.Helper()
	promAlerts, err := c.prom.Alerts()
	if err != nil {
		t.Fatalf("checking that the alerts that must stay silent do: %v", err)
	}
	amAlerts, err := c.am.Alerts(nil)
	if err != nil {
		t.Fatalf("checking that the alerts that must stay silent do: %v", err)
	}
	all := labelsOf(promAlerts, promAlertLabels)
	for _, l := range labelsOf(amAlerts, amAlertLabels) {
		if l["e2e"] != "synthetic" {
			all = append(all, l)
		}
	}
	fired, err := matchSpecs(silentAlerts, all, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(fired) > 0 {
		c.failure = fmt.Sprintf("alerts that must stay silent fired or are pending:\n  %s\n%s", strings.Join(fired, "\n  "), c.alertsNow())
		t.Error(c.failure)
		return
	}
	t.Logf("all %d alerts that must stay silent stayed silent", len(silentAlerts))
}

// alertsNow lists the alerts of Prometheus with their state, for a failure
// message.
func (c *chain) alertsNow() string {
	alerts, err := c.prom.Alerts()
	if err != nil {
		return fmt.Sprintf("Prometheus alerts: %v\n", err)
	}
	var b strings.Builder
	b.WriteString("Prometheus alerts:\n")
	for _, a := range alerts {
		fmt.Fprintf(&b, "  %s %v\n", a.State, a.Labels)
	}
	return b.String()
}

func amAlertLabels(a promtest.AlertmanagerAlert) map[string]string { return a.Labels }

func promAlertLabels(a promtest.Alert) map[string]string { return a.Labels }
