package dashboardcheck

import (
	"slices"
	"strings"
	"testing"

	"github.com/woox-exporter/woox_exporter/internal/dashboard"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// firstQueryPanel is the first panel with a query, inside a row or not, as
// a pointer into d so that a test can break it.
func firstQueryPanel(t *testing.T, d *dashboard.Dashboard) *dashboard.Panel {
	t.Helper()
	for i := range d.Panels {
		if len(d.Panels[i].Targets) > 0 {
			return &d.Panels[i]
		}
		for j := range d.Panels[i].Panels {
			if len(d.Panels[i].Panels[j].Targets) > 0 {
				return &d.Panels[i].Panels[j]
			}
		}
	}
	t.Fatal("no panel with a query")
	return nil
}

func variable(t *testing.T, d *dashboard.Dashboard, name string) *dashboard.Variable {
	t.Helper()
	for i := range d.Templating.List {
		if d.Templating.List[i].Name == name {
			return &d.Templating.List[i]
		}
	}
	t.Fatalf("no variable %s", name)
	return nil
}

// A query that passes every check: the selector filters on every variable.
const goodExpr = `sum(rate(woox_token_history_records_total{job=~"$job", instance=~"$instance", account=~"$account"}[$__rate_interval]))`

type brokenCase struct {
	name  string
	check func(*dashboard.Dashboard) []string
	// breakIt breaks a fresh copy of the shipped dashboard; p is its first
	// panel with a query, its first target's expression set to goodExpr.
	breakIt func(t *testing.T, d *dashboard.Dashboard, p *dashboard.Panel)
	// want is in one problem; a %s stands for the panel's name and target A.
	want string
}

var brokenCases = []brokenCase{
	{"target without datasource", datasourceProblems,
		func(_ *testing.T, _ *dashboard.Dashboard, p *dashboard.Panel) { p.Targets[0].Datasource = nil },
		`%s: datasource is "", want ${datasource}`},
	{"panel on a fixed datasource", datasourceProblems,
		func(_ *testing.T, _ *dashboard.Dashboard, p *dashboard.Panel) {
			p.Datasource = &dashboard.Datasource{UID: "prometheus"}
		},
		`datasource is "prometheus", want ${datasource}`},
	{"panel without targets", targetProblems,
		func(_ *testing.T, _ *dashboard.Dashboard, p *dashboard.Panel) { p.Targets = nil },
		`: no targets`},
	{"empty expression", targetProblems,
		func(_ *testing.T, _ *dashboard.Dashboard, p *dashboard.Panel) { p.Targets[0].Expr = " \n" },
		`%s: empty expr`},
	{"panel without id", idProblems,
		func(_ *testing.T, _ *dashboard.Dashboard, p *dashboard.Panel) { p.ID = nil },
		`panel without id`},
	{"two panels with one id", idProblems,
		func(_ *testing.T, d *dashboard.Dashboard, p *dashboard.Panel) {
			other := &d.Panels[len(d.Panels)-1]
			if other == p {
				other = &d.Panels[0]
			}
			other.ID = p.ID
		},
		`used 2 times`},
	{"no uid", idProblems,
		func(_ *testing.T, d *dashboard.Dashboard, _ *dashboard.Panel) { d.UID = "" },
		`dashboard has no uid`},
	{"no datasource variable", variableProblems,
		func(t *testing.T, d *dashboard.Dashboard, _ *dashboard.Panel) {
			variable(t, d, "datasource").Name = "ds"
		},
		`templating: no datasource variable`},
	{"single-select account variable", variableProblems,
		func(t *testing.T, d *dashboard.Dashboard, _ *dashboard.Panel) {
			variable(t, d, "account").Multi = false
		},
		`templating: no multi, include-All account variable`},
	{"account variable from another metric", variableProblems,
		func(t *testing.T, d *dashboard.Dashboard, _ *dashboard.Panel) {
			v := variable(t, d, "account")
			v.Definition, v.Query = "label_values(woox_balance{}, account)", "label_values(woox_balance{}, account)"
		},
		`templating: no multi, include-All account variable`},
	{"selector without $account", selectorProblems,
		func(_ *testing.T, _ *dashboard.Dashboard, p *dashboard.Panel) {
			p.Targets[0].Expr += ` / sum(woox_balance{job=~"$job", instance=~"$instance"})`
		},
		`%s: 2 selectors of per-account metrics, 1 with account=~"$account..."`},
	{"exporter's key permissions (per account) without $account", selectorProblems,
		func(_ *testing.T, _ *dashboard.Dashboard, p *dashboard.Panel) {
			// woox_exporter_build_info and the token networks have no
			// account label: only the permission selector counts.
			p.Targets[0].Expr = `woox_exporter_api_key_permission{job=~"$job", instance=~"$instance"}` +
				` * on() group_left woox_exporter_build_info{job=~"$job", instance=~"$instance"}` +
				` * on() group_left count(woox_token_network_info{job=~"$job", instance=~"$instance", token=~"$token"})`
		},
		`%s: 1 selectors of per-account metrics, 0 with account=~"$account..."`},
	{"selector of a token network family without $token", selectorProblems,
		func(_ *testing.T, _ *dashboard.Dashboard, p *dashboard.Panel) {
			p.Targets[0].Expr = `count(woox_token_network_info{job=~"$job", instance=~"$instance"})`
		},
		`%s: 1 selectors of token network metrics, 0 with token=~"$token"`},
	{"no job variable", templateProblems,
		func(t *testing.T, d *dashboard.Dashboard, _ *dashboard.Panel) { variable(t, d, "job").Name = "jobs" },
		`template-job-rule: no job variable`},
	{"instance variable with All as .*", templateProblems,
		func(t *testing.T, d *dashboard.Dashboard, _ *dashboard.Panel) {
			variable(t, d, "instance").AllValue = ".*"
		},
		`template-instance-rule: allValue is ".*", want .+`},
	{"instance variable on a fixed datasource", templateProblems,
		func(t *testing.T, d *dashboard.Dashboard, _ *dashboard.Panel) {
			variable(t, d, "instance").Datasource = &dashboard.Datasource{UID: "prometheus"}
		},
		`template-instance-rule: datasource is "prometheus", not $datasource`},
	{"variable from a query other than label_values", templateProblems,
		func(t *testing.T, d *dashboard.Dashboard, _ *dashboard.Panel) {
			variable(t, d, "token").Query = "query_result(up)"
		},
		`template-label-promql-rule: variable token`},
	{"variable not refreshed on time change", templateProblems,
		func(t *testing.T, d *dashboard.Dashboard, _ *dashboard.Panel) { variable(t, d, "account").Refresh = 1 },
		`template-on-time-change-reload-rule: variable account: refresh is 1, want 2`},
	{"editable", exportProblems,
		func(_ *testing.T, d *dashboard.Dashboard, _ *dashboard.Panel) { d.Editable = new(true) },
		`uneditable-dashboard: editable is true, want false`},
	{"an __inputs entry nothing reads", exportProblems,
		func(_ *testing.T, d *dashboard.Dashboard, _ *dashboard.Panel) {
			d.Inputs = append(d.Inputs, dashboard.Input{Name: "DS_PROMETHEUS", Type: "datasource", PluginID: "prometheus"})
		},
		`export format: __inputs declares DS_PROMETHEUS, which no panel, target or variable reads as ${DS_PROMETHEUS}: Grafana's import would ask for it and change nothing`},
	{"__requires without grafana", exportProblems,
		func(_ *testing.T, d *dashboard.Dashboard, _ *dashboard.Panel) {
			d.Requires = slices.DeleteFunc(d.Requires, func(r dashboard.Require) bool { return r.ID == "grafana" })
		},
		`export format: __requires lacks grafana`},
	{"panel without description", panelProblems,
		func(_ *testing.T, _ *dashboard.Dashboard, p *dashboard.Panel) { p.Description = "" },
		`panel-title-description-rule: %[1]s: no description`},
	{"panel without unit", panelProblems,
		func(_ *testing.T, _ *dashboard.Dashboard, p *dashboard.Panel) { p.FieldConfig.Defaults.Unit = "" },
		`panel-units-rule: %[1]s: no unit`},
	{"rate over a fixed range", targetLintProblems,
		func(_ *testing.T, _ *dashboard.Dashboard, p *dashboard.Panel) {
			p.Targets[0].Expr = strings.Replace(goodExpr, "$__rate_interval", "5m", 1)
		},
		`target-rate-interval-rule: %s: rate over [5m], not [$__rate_interval]`},
	{"selector without $job", targetLintProblems,
		func(_ *testing.T, _ *dashboard.Dashboard, p *dashboard.Panel) {
			p.Targets[0].Expr = strings.Replace(goodExpr, `job=~"$job", `, "", 1)
		},
		`target-job-rule: %s: 1 selectors, 0 with job=~"$job"`},
	{"selector without $instance", targetLintProblems,
		func(_ *testing.T, _ *dashboard.Dashboard, p *dashboard.Panel) {
			p.Targets[0].Expr += ` + process_resident_memory_bytes{job=~"$job"}`
		},
		`target-instance-rule: %s: 2 selectors, 1 with instance=~"$instance"`},
	{"counter outside rate", targetLintProblems,
		func(_ *testing.T, _ *dashboard.Dashboard, p *dashboard.Panel) {
			p.Targets[0].Expr = `sum(woox_token_history_records_total{job=~"$job", instance=~"$instance", account=~"$account"})`
		},
		`target-counter-agg-rule: %s: counter woox_token_history_records_total{`},
}

// TestChecksFailOnABrokenDashboard: each check, run on a copy of the shipped
// dashboard broken in the way it guards against, reports it, naming the
// panel; and passes on the same copy before it is broken.
func TestChecksFailOnABrokenDashboard(t *testing.T) {
	for _, c := range brokenCases {
		t.Run(c.name, func(t *testing.T) {
			d := load(t)
			p := firstQueryPanel(t, d)
			p.Targets = p.Targets[:1]
			p.Targets[0].RefID, p.Targets[0].Expr = "A", goodExpr
			if got := c.check(d); len(got) != 0 {
				t.Fatalf("problems before breaking it:\n%s", strings.Join(got, "\n"))
			}
			c.breakIt(t, d, p)
			want := strings.ReplaceAll(c.want, "%[1]s", panelName(*p))
			want = strings.ReplaceAll(want, "%s", panelName(*p)+" target A")
			got := c.check(d)
			for _, g := range got {
				if strings.Contains(g, want) {
					return
				}
			}
			t.Errorf("no problem containing %q; got:\n%s", want, strings.Join(got, "\n"))
		})
	}
}

func TestQueryCheckFailsOnAnUnparsableQuery(t *testing.T) {
	promtool := testsupport.Tool(t, "promtool", "prometheus")
	d := load(t)
	p := firstQueryPanel(t, d)
	p.Targets[0].Expr = `sum(rate(woox_balance{account=~"$account"}[$__rate_interval])`
	want := panelName(*p) + ": query does not parse as PromQL: sum(rate(woox_balance"
	got := queryProblems(t, promtool, d)
	if len(got) == 0 || !strings.Contains(got[0], want) {
		t.Errorf("no problem starting %q; got:\n%s", want, strings.Join(got, "\n"))
	}
}

func TestQueryCheckFailsOnAVariableLeftOver(t *testing.T) {
	d := load(t)
	p := firstQueryPanel(t, d)
	p.Targets[0].Expr = `sum(woox_balance{account=~"$acount"})`
	got := queryProblems(t, "promtool", d)
	if len(got) != 1 || !strings.Contains(got[0], "$acount") || !strings.Contains(got[0], p.Title) {
		t.Errorf("want one problem naming the panel and $acount; got:\n%s", strings.Join(got, "\n"))
	}
}
