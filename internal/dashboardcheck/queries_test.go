package dashboardcheck

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/woox-exporter/woox_exporter/internal/dashboard"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// queryProblems: every query of d, its variables replaced by their "All"
// values (dashboard.Queries), parses as PromQL. promtool checks each as the
// expression of a recording rule named after its panel, so a problem names
// the panel; the prometheus module, whose parser this would otherwise use,
// is not a dependency of this one.
func queryProblems(t *testing.T, promtool string, d *dashboard.Dashboard) []string {
	t.Helper()
	qs, err := d.Queries(dashboard.Values{})
	if err != nil {
		return []string{err.Error()}
	}
	type rule struct {
		Record string `yaml:"record"`
		Expr   string `yaml:"expr"`
	}
	rules := make([]rule, len(qs))
	for i, q := range qs {
		rules[i] = rule{Record: fmt.Sprintf("dashboard:panel_%d_query_%d", q.PanelID, i+1), Expr: q.Expr}
	}
	b, err := yaml.Marshal(map[string]any{"groups": []any{map[string]any{"name": "dashboard_queries", "rules": rules}}})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "queries.rules.yml")
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(promtool, "check", "rules", file).CombinedOutput()
	if err == nil {
		return nil
	}
	var problems []string
	for i, q := range qs {
		if strings.Contains(string(out), `"`+rules[i].Record+`"`) {
			p, _ := d.PanelByID(q.PanelID)
			problems = append(problems, fmt.Sprintf("%s: query does not parse as PromQL: %s", panelName(p), q.Expr))
		}
	}
	return append(problems, fmt.Sprintf("promtool check rules (the dashboard's queries): %v\n%s", err, out))
}

func TestEveryQueryParsesAsPromQL(t *testing.T) {
	promtool := testsupport.Tool(t, "promtool", "prometheus")
	report(t, queryProblems(t, promtool, load(t)))
}
