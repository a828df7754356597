package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// alertSpec is a parsed "Alertname label=value ...", the form of the alert
// tables of TestAlertsAndDashboardEndToEnd: it matches an alert with that
// alertname and each label equal to its value (an absent label equals no
// value).
type alertSpec struct {
	text   string
	labels [][2]string
}

func parseAlertSpec(s string) (alertSpec, error) {
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return alertSpec{}, fmt.Errorf("empty alert spec %q", s)
	}
	sp := alertSpec{text: s, labels: [][2]string{{"alertname", fields[0]}}}
	for _, kv := range fields[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return alertSpec{}, fmt.Errorf("alert spec %q: %q is not label=value", s, kv)
		}
		sp.labels = append(sp.labels, [2]string{k, v})
	}
	return sp, nil
}

func (sp alertSpec) matches(labels map[string]string) bool {
	for _, l := range sp.labels {
		if v, ok := labels[l[0]]; !ok || v != l[1] {
			return false
		}
	}
	return true
}

// matchSpecs returns the specs that match at least one of alerts (each
// given by its labels) when present is true, or those that match none.
func matchSpecs(specs []string, alerts []map[string]string, present bool) ([]string, error) {
	var out []string
	for _, s := range specs {
		sp, err := parseAlertSpec(s)
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(alerts, sp.matches) == present {
			out = append(out, s)
		}
	}
	return out, nil
}

// labelsOf is the label set of each alert.
func labelsOf[A any](alerts []A, labels func(A) map[string]string) []map[string]string {
	out := make([]map[string]string, len(alerts))
	for i, a := range alerts {
		out[i] = labels(a)
	}
	return out
}

func TestAlertSpecsMatchByAlertnameAndEveryLabel(t *testing.T) {
	alerts := []map[string]string{
		{"alertname": "WooxWithdrawalsDisabled", "token": "ARB", "severity": "warning"},
		{"alertname": "WooxNewApiKey", "account": "main"},
		{"alertname": "WooxDataStale", "account": "sub", "token": ""},
	}
	specs := []string{
		"WooxWithdrawalsDisabled",
		"WooxWithdrawalsDisabled token=ARB",
		"WooxWithdrawalsDisabled token=WOO",
		"WooxWithdrawalsDisabled  token=ARB severity=warning",
		"WooxNewApiKey account=sub",
		"WooxNewApiKey token=",      // absent label: no match
		"WooxDataStale token=",      // present, empty: match
		"WooxDataStale account=sub", // the last alert
		"WooxRateLimited",
		"Woox",
	}
	for _, tc := range []struct {
		present bool
		want    []string
	}{
		{true, []string{specs[0], specs[1], specs[3], specs[6], specs[7]}},
		{false, []string{specs[2], specs[4], specs[5], specs[8], specs[9]}},
	} {
		got, err := matchSpecs(specs, alerts, tc.present)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("present=%t: got %q, want %q", tc.present, got, tc.want)
		}
	}
	if got, err := matchSpecs([]string{"X"}, nil, false); err != nil || !slices.Equal(got, []string{"X"}) {
		t.Errorf("no alerts: missing %q, %v; want [X]", got, err)
	}
}

func TestAlertSpecsRejectMalformedOnes(t *testing.T) {
	for _, s := range []string{"", "  ", "WooxNewApiKey account", "WooxNewApiKey =main"} {
		if _, err := matchSpecs([]string{s}, nil, true); err == nil {
			t.Errorf("%q: no error", s)
		}
	}
}
