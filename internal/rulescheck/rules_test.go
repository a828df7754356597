package rulescheck

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

const (
	rulesFile     = "../../alerts/woox_exporter.rules.yml"
	ruleTestsFile = "../../alerts/woox_exporter.rules.test.yml"
	runbookFile   = "../../RUNBOOK.md"
	runbookURL    = "https://github.com/woox-exporter/woox_exporter/blob/main/RUNBOOK.md#"
)

// ruleFile is the part of a Prometheus rule file this test reads
// (https://prometheus.io/docs/prometheus/latest/configuration/recording_rules/).
type ruleFile struct {
	Groups []struct {
		Name  string `yaml:"name"`
		Rules []rule `yaml:"rules"`
	} `yaml:"groups"`
}

type rule struct {
	Alert       string            `yaml:"alert"`
	Expr        string            `yaml:"expr"`
	Record      string            `yaml:"record"`
	Labels      map[string]string `yaml:"labels"`
	Annotations map[string]string `yaml:"annotations"`
}

// ruleTestFile is the part of a promtool test file this test reads
// (https://prometheus.io/docs/prometheus/latest/configuration/unit_testing_rules/).
type ruleTestFile struct {
	Tests []struct {
		AlertRuleTest []struct {
			Alertname string `yaml:"alertname"`
			// A node, not a slice: an absent exp_alerts (Kind 0) is neither
			// a firing nor a silent case.
			ExpAlerts yaml.Node `yaml:"exp_alerts"`
		} `yaml:"alert_rule_test"`
	} `yaml:"tests"`
}

func decode(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// alerts returns the alert rules of the rules file, in file order; an alert
// name appears once per rule of that name.
func alerts(t *testing.T) []rule {
	t.Helper()
	var f ruleFile
	decode(t, rulesFile, &f)
	var out []rule
	for _, g := range f.Groups {
		for _, r := range g.Rules {
			if r.Alert != "" {
				out = append(out, r)
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("no alert rules found in %s", rulesFile)
	}
	return out
}

// TestAlertMetadata: every alert rule has a severity label in
// critical|warning|info, summary and description annotations, a runbook_url
// pointing at RUNBOOK.md#<alertname lowercased>, and a heading of that name
// in RUNBOOK.md.
func TestAlertMetadata(t *testing.T) {
	runbook, err := os.ReadFile(runbookFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range alerts(t) {
		name := r.Alert
		switch sev, ok := r.Labels["severity"]; {
		case sev == "critical", sev == "warning", sev == "info":
		case !ok:
			t.Errorf("%s: severity label missing or not critical|warning|info: -", name)
		default:
			t.Errorf("%s: severity label missing or not critical|warning|info: %s", name, sev)
		}
		if _, ok := r.Annotations["summary"]; !ok {
			t.Errorf("%s: summary annotation missing", name)
		}
		if _, ok := r.Annotations["description"]; !ok {
			t.Errorf("%s: description annotation missing", name)
		}
		anchor := strings.ToLower(name)
		if rb, ok := r.Annotations["runbook_url"]; !ok {
			t.Errorf("%s: runbook_url is -, want .../RUNBOOK.md#%s", name, anchor)
		} else if rb != runbookURL+anchor {
			t.Errorf("%s: runbook_url is %s, want .../RUNBOOK.md#%s", name, rb, anchor)
		}
		heading := regexp.MustCompile(`(?m)^#+ ` + regexp.QuoteMeta(name) + `$`)
		if !heading.Match(runbook) {
			t.Errorf("%s: no heading '%s' in %s", name, name, strings.TrimPrefix(runbookFile, "../../"))
		}
	}
}

// TestAlertTestCases: every alert name has a promtool test case where it
// fires (exp_alerts not empty) and one where it stays silent (exp_alerts: []).
func TestAlertTestCases(t *testing.T) {
	var f ruleTestFile
	decode(t, ruleTestsFile, &f)
	fires, silent := map[string]bool{}, map[string]bool{}
	for _, tc := range f.Tests {
		for _, a := range tc.AlertRuleTest {
			if a.ExpAlerts.Kind != yaml.SequenceNode {
				continue
			}
			if len(a.ExpAlerts.Content) == 0 {
				silent[a.Alertname] = true
			} else {
				fires[a.Alertname] = true
			}
		}
	}
	seen := map[string]bool{}
	for _, r := range alerts(t) {
		name := r.Alert
		if seen[name] {
			continue
		}
		seen[name] = true
		if !fires[name] {
			t.Errorf("%s: no test case where it fires", name)
		}
		if !silent[name] {
			t.Errorf("%s: no test case where it stays silent", name)
		}
	}
}
