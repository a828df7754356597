package dashboardcheck

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/woox-exporter/woox_exporter/internal/dashboard"
)

const (
	shipped = "../../dashboards/woox_exporter.json"
	// dsVar is the datasource every panel and target names: the dashboard's
	// datasource variable, so that it works with any Prometheus data source.
	dsVar = "${datasource}"
)

func load(t *testing.T) *dashboard.Dashboard {
	t.Helper()
	d, err := dashboard.Load(shipped)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// report fails t with each problem, one line each.
func report(t *testing.T, problems []string) {
	t.Helper()
	for _, p := range problems {
		t.Error(p)
	}
}

// panelName is how a problem names its panel: id and title.
func panelName(p dashboard.Panel) string {
	id := "without id"
	if p.ID != nil {
		id = fmt.Sprint(*p.ID)
	}
	return fmt.Sprintf("panel %s %q", id, p.Title)
}

func uid(ds *dashboard.Datasource) string {
	if ds == nil {
		return ""
	}
	return ds.UID
}

// datasourceProblems: every panel, rows and panels inside rows included,
// and every target reads the data source of the datasource variable.
func datasourceProblems(d *dashboard.Dashboard) []string {
	var out []string
	for _, p := range d.AllPanels() {
		if u := uid(p.Datasource); u != dsVar {
			out = append(out, fmt.Sprintf("%s: datasource is %q, want %s", panelName(p), u, dsVar))
		}
		for _, tg := range p.Targets {
			if u := uid(tg.Datasource); u != dsVar {
				out = append(out, fmt.Sprintf("%s target %s: datasource is %q, want %s", panelName(p), tg.RefID, u, dsVar))
			}
		}
	}
	return out
}

// targetProblems: every panel but a row has a query, and no query is empty.
func targetProblems(d *dashboard.Dashboard) []string {
	var out []string
	for _, p := range d.AllPanels() {
		if p.Type == "row" {
			continue
		}
		if len(p.Targets) == 0 {
			out = append(out, fmt.Sprintf("%s: no targets", panelName(p)))
		}
		for _, tg := range p.Targets {
			if strings.TrimSpace(tg.Expr) == "" {
				out = append(out, fmt.Sprintf("%s target %s: empty expr", panelName(p), tg.RefID))
			}
		}
	}
	return out
}

// idProblems: every panel has an id, no two the same (Grafana keys panel
// links and state by it), and the dashboard has a uid (links to it do).
func idProblems(d *dashboard.Dashboard) []string {
	var out []string
	seen := map[int][]string{}
	var order []int
	for _, p := range d.AllPanels() {
		if p.ID == nil {
			out = append(out, fmt.Sprintf("%s: no id", panelName(p)))
			continue
		}
		if _, ok := seen[*p.ID]; !ok {
			order = append(order, *p.ID)
		}
		seen[*p.ID] = append(seen[*p.ID], fmt.Sprintf("%q", p.Title))
	}
	for _, id := range order {
		if titles := seen[id]; len(titles) > 1 {
			out = append(out, fmt.Sprintf("panel id %d used %d times: %s", id, len(titles), strings.Join(titles, ", ")))
		}
	}
	if d.UID == "" {
		out = append(out, "dashboard has no uid")
	}
	return out
}

var accountVarQuery = regexp.MustCompile(`^label_values\(woox_api_key_info\{[^}]*\}, account\)$`)

// variableProblems: the datasource variable the panels read, and a
// multi-select account variable with All, listing the accounts that have a
// key (woox_api_key_info).
func variableProblems(d *dashboard.Dashboard) []string {
	var out []string
	if v, ok := d.Variable("datasource"); !ok || v.Type != "datasource" || v.Query != "prometheus" {
		out = append(out, "templating: no datasource variable of type datasource (prometheus)")
	}
	v, ok := d.Variable("account")
	q := v.Definition
	if q == "" {
		q = string(v.Query)
	}
	if !ok || v.Type != "query" || !v.Multi || !v.IncludeAll || !accountVarQuery.MatchString(q) {
		out = append(out, fmt.Sprintf("templating: no multi, include-All account variable from label_values(woox_api_key_info{...}, account) (found: %t, type %q, multi %t, includeAll %t, query %q)",
			ok, v.Type, v.Multi, v.IncludeAll, q))
	}
	return out
}

var (
	// accountMetric finds a woox_ family or woox: recording rule; those
	// without an account label are told apart by prefix (notAccountMetric),
	// so that a new per-account family needs no edit here.
	accountMetric = regexp.MustCompile(`woox(_[a-z0-9_]+|:[a-z0-9_:]+)\b`)
	accountFilter = regexp.MustCompile(`account=~"\$account`)
	tokenMetric   = regexp.MustCompile(`woox_token_network_[a-z_]+\b`)
	tokenFilter   = regexp.MustCompile(`token=~"\$token`)
)

// notAccountMetric: the public exchange data (token networks, exchange
// status, instruments, perpetuals), the exporter's own request metrics, the rate cap's gauges and the
// exporter-wide families, which carry no account label.
// woox_exporter_api_key_permission does: it is about the exporter's key on
// each account; so do the rate cap's counters, each account's waits.
func notAccountMetric(name string) bool {
	for _, prefix := range []string{"woox_token_network_", "woox_exchange_", "woox_instrument_", "woox_futures_", "woox_api_request_duration_", "woox_api_clock_skew_",
		"woox_api_rate_cap_queued", "woox_api_rate_cap_requests_per_second", "woox:watched_token_networks"} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return strings.HasPrefix(name, "woox_exporter_") && !strings.HasPrefix(name, "woox_exporter_api_key_permission")
}

// selectorProblems: every selector of a metric with an account label
// filters on account=~"$account", and every selector of a token network
// family on token=~"$token", so the dashboard's variables narrow every
// panel. It counts: as many filters as such selectors in each expression.
func selectorProblems(d *dashboard.Dashboard) []string {
	var out []string
	for _, p := range d.AllPanels() {
		for _, tg := range p.Targets {
			accounts := 0
			for _, m := range accountMetric.FindAllString(tg.Expr, -1) {
				if !notAccountMetric(m) {
					accounts++
				}
			}
			if n := len(accountFilter.FindAllString(tg.Expr, -1)); n != accounts {
				out = append(out, fmt.Sprintf("%s target %s: %d selectors of per-account metrics, %d with account=~\"$account...\": %s", panelName(p), tg.RefID, accounts, n, tg.Expr))
			}
			tokens := len(tokenMetric.FindAllString(tg.Expr, -1))
			if n := len(tokenFilter.FindAllString(tg.Expr, -1)); n != tokens {
				out = append(out, fmt.Sprintf("%s target %s: %d selectors of token network metrics, %d with token=~\"$token\": %s", panelName(p), tg.RefID, tokens, n, tg.Expr))
			}
		}
	}
	return out
}

func TestPanelsAndTargetsReadTheDatasourceVariable(t *testing.T) {
	report(t, datasourceProblems(load(t)))
}

func TestEveryPanelHasAQueryAndNoQueryIsEmpty(t *testing.T) {
	report(t, targetProblems(load(t)))
}

func TestPanelIDsAreUniqueAndTheDashboardHasAUID(t *testing.T) {
	report(t, idProblems(load(t)))
}

func TestDatasourceAndAccountVariablesExist(t *testing.T) {
	report(t, variableProblems(load(t)))
}

func TestEverySelectorFiltersOnAccountAndToken(t *testing.T) {
	report(t, selectorProblems(load(t)))
}
