package dashboardcheck

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/woox-exporter/woox_exporter/internal/dashboard"
)

// The rules of grafana/dashboard-linter, which the module proxy reachable
// from CI does not serve; each problem starts with the linter's rule name.

func dsOK(uid string) bool { return uid == dsVar || uid == "$datasource" }

// templateProblems: template-datasource-rule, template-job-rule and
// template-instance-rule (a job and an instance variable: query type,
// labelled as named, on $datasource, multi, All meaning .+), and for every
// query variable template-label-promql-rule (label_values(...)) and
// template-on-time-change-reload-rule (refresh 2).
func templateProblems(d *dashboard.Dashboard) []string {
	var out []string
	if v, ok := d.Variable("datasource"); !ok || v.Type != "datasource" || v.Query != "prometheus" {
		out = append(out, "template-datasource-rule: no datasource variable of type datasource (prometheus)")
	}
	for _, n := range []string{"job", "instance"} {
		v, ok := d.Variable(n)
		rule := "template-" + n + "-rule: "
		if !ok {
			out = append(out, rule+"no "+n+" variable")
			continue
		}
		if v.Type != "query" {
			out = append(out, fmt.Sprintf("%stype is %q, want query", rule, v.Type))
		}
		if v.Label != n {
			out = append(out, fmt.Sprintf("%slabel is %q, want %s", rule, v.Label, n))
		}
		if !dsOK(uid(v.Datasource)) {
			out = append(out, fmt.Sprintf("%sdatasource is %q, not $datasource", rule, uid(v.Datasource)))
		}
		if !v.Multi {
			out = append(out, rule+"not multi-select")
		}
		if !v.IncludeAll {
			out = append(out, rule+"no All option")
		}
		if v.AllValue != ".+" {
			out = append(out, fmt.Sprintf("%sallValue is %q, want .+", rule, v.AllValue))
		}
	}
	for _, v := range d.Templating.List {
		if v.Type != "query" {
			continue
		}
		if !strings.HasPrefix(string(v.Query), "label_values(") {
			out = append(out, fmt.Sprintf("template-label-promql-rule: variable %s: query %q is not label_values(...)", v.Name, v.Query))
		}
		if v.Refresh != 2 {
			out = append(out, fmt.Sprintf("template-on-time-change-reload-rule: variable %s: refresh is %d, want 2", v.Name, v.Refresh))
		}
	}
	return out
}

// exportProblems: uneditable-dashboard (editable false: the file is the
// source, edits in Grafana would be lost), and grafana.com's export format:
// Grafana and the Prometheus data source in __requires, and no __inputs entry
// that nothing reads: Grafana's import dialog asks for every input, and one
// that no panel, target or variable names as ${NAME} changes nothing.
func exportProblems(d *dashboard.Dashboard) []string {
	var out []string
	if d.Editable == nil || *d.Editable {
		e := "absent"
		if d.Editable != nil {
			e = "true"
		}
		out = append(out, fmt.Sprintf("uneditable-dashboard: editable is %s, want false", e))
	}
	for _, in := range d.Inputs {
		if !readsInput(d, in.Name) {
			out = append(out, fmt.Sprintf("export format: __inputs declares %s, which no panel, target or variable reads as ${%s}: Grafana's import would ask for it and change nothing", in.Name, in.Name))
		}
	}
	grafana, prom := false, false
	for _, r := range d.Requires {
		grafana = grafana || r.ID == "grafana"
		prom = prom || r.ID == "prometheus" && r.Type == "datasource"
	}
	if !grafana {
		out = append(out, "export format: __requires lacks grafana")
	}
	if !prom {
		out = append(out, "export format: __requires lacks the prometheus datasource")
	}
	return out
}

// readsInput reports whether a data source of a panel, a target or a
// variable is the import input name.
func readsInput(d *dashboard.Dashboard, name string) bool {
	ref := "${" + name + "}"
	is := func(ds *dashboard.Datasource) bool { return ds != nil && ds.UID == ref }
	for _, p := range d.AllPanels() {
		if is(p.Datasource) {
			return true
		}
		for _, t := range p.Targets {
			if is(t.Datasource) {
				return true
			}
		}
	}
	for _, v := range d.Templating.List {
		if is(v.Datasource) {
			return true
		}
	}
	return false
}

// panelProblems: panel-title-description-rule (every panel a title, every
// panel but a row a description) and panel-units-rule (every panel but a
// row a unit). panel-datasource-rule is datasourceProblems.
func panelProblems(d *dashboard.Dashboard) []string {
	var out []string
	for _, p := range d.AllPanels() {
		if p.Title == "" {
			out = append(out, fmt.Sprintf("panel-title-description-rule: %s: no title", panelName(p)))
		}
		if p.Type == "row" {
			continue
		}
		if p.Description == "" {
			out = append(out, fmt.Sprintf("panel-title-description-rule: %s: no description", panelName(p)))
		}
		if p.FieldConfig.Defaults.Unit == "" {
			out = append(out, fmt.Sprintf("panel-units-rule: %s: no unit", panelName(p)))
		}
	}
	return out
}

var (
	rateRange = regexp.MustCompile(`\b(?:rate|irate)\s*\([^\[]*\[([^\]]*)\]`)
	// jobSelector finds what target-job-rule and target-instance-rule hold
	// to the job and instance variables: the exporter's families, the
	// process_ ones it exports, and the woox: recording rules.
	jobSelector    = regexp.MustCompile(`\b(?:(?:woox|process)_[a-z0-9_]+|woox:[a-z0-9_:]+)\b`)
	jobFilter      = regexp.MustCompile(`job=~"\$job"`)
	instanceFilter = regexp.MustCompile(`instance=~"\$instance"`)
	// counterSelector is a counter's selector; counterAggProblems looks at
	// what follows it, for RE2 has no lookahead.
	counterSelector = regexp.MustCompile(`\b[a-z0-9_]+_(?:total|bucket)\{[^}]*\}`)
)

// targetLintProblems: target-rate-interval-rule (rate and irate over
// $__rate_interval, which Grafana keeps at four scrape intervals or more),
// target-job-rule and target-instance-rule (as many job=~"$job" and
// instance=~"$instance" filters as selectors), target-counter-agg-rule
// (a counter's selector only as a range vector, inside rate or increase).
func targetLintProblems(d *dashboard.Dashboard) []string {
	var out []string
	for _, p := range d.AllPanels() {
		for _, tg := range p.Targets {
			e, n := tg.Expr, panelName(p)+" target "+tg.RefID
			for _, m := range rateRange.FindAllStringSubmatch(e, -1) {
				if m[1] != "$__rate_interval" {
					out = append(out, fmt.Sprintf("target-rate-interval-rule: %s: rate over [%s], not [$__rate_interval]: %s", n, m[1], e))
				}
			}
			sel := len(jobSelector.FindAllString(e, -1))
			if c := len(jobFilter.FindAllString(e, -1)); c != sel {
				out = append(out, fmt.Sprintf("target-job-rule: %s: %d selectors, %d with job=~\"$job\": %s", n, sel, c, e))
			}
			if c := len(instanceFilter.FindAllString(e, -1)); c != sel {
				out = append(out, fmt.Sprintf("target-instance-rule: %s: %d selectors, %d with instance=~\"$instance\": %s", n, sel, c, e))
			}
			for _, loc := range counterSelector.FindAllStringIndex(e, -1) {
				if loc[1] == len(e) || e[loc[1]] != '[' {
					out = append(out, fmt.Sprintf("target-counter-agg-rule: %s: counter %s used outside rate/increase: %s", n, e[loc[0]:loc[1]], e))
				}
			}
		}
	}
	return out
}

func TestLintTemplateVariables(t *testing.T) {
	report(t, templateProblems(load(t)))
}

func TestLintExportFormatAndUneditable(t *testing.T) {
	report(t, exportProblems(load(t)))
}

func TestLintPanelTitleDescriptionAndUnit(t *testing.T) {
	report(t, panelProblems(load(t)))
}

func TestLintTargets(t *testing.T) {
	report(t, targetLintProblems(load(t)))
}
