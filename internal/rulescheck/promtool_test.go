package rulescheck

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// promtoolProblems runs promtool with args: nil when it succeeds, else one
// problem with its output, which names the rule or test case at fault.
func promtoolProblems(promtool string, args ...string) []string {
	out, err := exec.Command(promtool, args...).CombinedOutput()
	if err == nil {
		return nil
	}
	return []string{fmt.Sprintf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)}
}

func report(t *testing.T, problems []string) {
	t.Helper()
	for _, p := range problems {
		t.Error(p)
	}
}

func wantProblem(t *testing.T, got []string, want string) {
	t.Helper()
	if len(got) == 0 || !strings.Contains(got[0], want) {
		t.Errorf("no problem containing %q; got:\n%s", want, strings.Join(got, "\n"))
	}
}

// TestRulesLoad: promtool parses the rules file: YAML, PromQL, templates.
func TestRulesLoad(t *testing.T) {
	promtool := testsupport.Tool(t, "promtool", "prometheus")
	report(t, promtoolProblems(promtool, "check", "rules", rulesFile))
}

// TestRuleTestsPass: the promtool test cases of every alert pass. About a
// minute of CPU: it runs beside the other tests.
func TestRuleTestsPass(t *testing.T) {
	t.Parallel()
	promtool := testsupport.Tool(t, "promtool", "prometheus")
	report(t, promtoolProblems(promtool, "test", "rules", ruleTestsFile))
}

// TestRulesCheckFailsOnABadExpression: promtool rejects a copy of the rules
// with the first alert's expression left unclosed, naming that alert.
func TestRulesCheckFailsOnABadExpression(t *testing.T) {
	promtool := testsupport.Tool(t, "promtool", "prometheus")
	var doc yaml.Node
	decode(t, rulesFile, &doc)
	var alert string
	for _, g := range mapValue(doc.Content[0], "groups").Content {
		for _, r := range mapValue(g, "rules").Content {
			if a := mapValue(r, "alert"); a != nil && alert == "" {
				alert = a.Value
				expr := mapValue(r, "expr")
				expr.Value = "sum(" + expr.Value
			}
		}
	}
	if alert == "" {
		t.Fatalf("%s: no alert rule", rulesFile)
	}
	b, err := yaml.Marshal(&doc)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "broken.rules.yml")
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	wantProblem(t, promtoolProblems(promtool, "check", "rules", file), alert)
}

// TestRuleTestsFailWhenAFiringCaseExpectsSilence runs the first test group
// with a firing case, that case changed to expect no alert, against a copy
// of the rules: promtool must fail naming the alert.
func TestRuleTestsFailWhenAFiringCaseExpectsSilence(t *testing.T) {
	promtool := testsupport.Tool(t, "promtool", "prometheus")
	var doc yaml.Node
	decode(t, ruleTestsFile, &doc)
	tests := mapValue(doc.Content[0], "tests")
	if tests == nil {
		t.Fatalf("%s: no tests", ruleTestsFile)
	}
	var alert string
	for _, group := range tests.Content {
		for _, c := range mapValue(group, "alert_rule_test").Content {
			if exp := mapValue(c, "exp_alerts"); exp != nil && len(exp.Content) > 0 {
				exp.Content, exp.Style = nil, yaml.FlowStyle
				alert = mapValue(c, "alertname").Value
				break
			}
		}
		if alert != "" {
			tests.Content = []*yaml.Node{group}
			break
		}
	}
	if alert == "" {
		t.Fatalf("%s: no case where an alert fires", ruleTestsFile)
	}
	dir := t.TempDir()
	b, err := yaml.Marshal(&doc)
	if err != nil {
		t.Fatal(err)
	}
	rules, err := os.ReadFile(rulesFile)
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string][]byte{"woox_exporter.rules.test.yml": b, "woox_exporter.rules.yml": rules} {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	wantProblem(t, promtoolProblems(promtool, "test", "rules", filepath.Join(dir, "woox_exporter.rules.test.yml")), alert)
}

// mapValue is the value of key in the YAML mapping m, nil if m is not a
// mapping or has no such key.
func mapValue(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// TestSwitchedAlertTestsPass: the alerts a mixin switch turns on (off by
// default, so absent from the shipped rules) pass their own promtool cases,
// against the rules rendered with the switches on.
func TestSwitchedAlertTestsPass(t *testing.T) {
	promtool := testsupport.Tool(t, "promtool", "prometheus")
	testsupport.Tool(t, "jsonnet", "jsonnet")
	testsupport.Tool(t, "jq", "jq")
	rules, err := exec.Command("bash", "../../scripts/mixin.sh", "rules", "{positionWithoutStopAlert: true}").Output()
	if err != nil {
		t.Fatalf("render the rules with the switches on: %v", err)
	}
	tests, err := os.ReadFile("../../alerts/woox_exporter.switches.test.yml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, content := range map[string][]byte{"woox_exporter.switches.rules.yml": rules, "woox_exporter.switches.test.yml": tests} {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	report(t, promtoolProblems(promtool, "test", "rules", filepath.Join(dir, "woox_exporter.switches.test.yml")))
	if !strings.Contains(string(rules), "WooxPositionWithoutStop") {
		t.Error("the rules rendered with the switches on have no WooxPositionWithoutStop")
	}
}
