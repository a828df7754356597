package dashboard

import (
	"strings"
	"testing"
	"time"
)

const shipped = "../../dashboards/woox_exporter.json"

func TestQueriesReplaceEveryVariable(t *testing.T) {
	d := &Dashboard{Title: "t"}
	id := 7
	d.Panels = []Panel{{ID: &id, Title: "p", Targets: []Target{{RefID: "A", Expr: `rate(x{job=~"$job", instance=~"${instance}", account=~"${account:regex}",
		token=~"$token", t2=~"$history_token"}[$__rate_interval]) * $__interval_ms / $__range_s + $__range_ms + increase(y[$__range]) + z[$__interval]`}}}}
	qs, err := d.Queries(Values{Job: "j", Range: 2 * time.Hour, Interval: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	want := `rate(x{job=~"j", instance=~".+", account=~".*", token=~".*", t2=~".*"}[1m]) * 30000 / 7200 + 7200000 + increase(y[2h]) + z[30s]`
	if len(qs) != 1 || qs[0].Expr != want || qs[0].PanelID != 7 {
		t.Errorf("got %+v\nwant %s", qs, want)
	}
}

func TestQueriesFailOnAnUnknownVariable(t *testing.T) {
	d := &Dashboard{Panels: []Panel{{Title: "p", Targets: []Target{{RefID: "A", Expr: `x{a="$nope"}`}}}}}
	if _, err := d.Queries(Values{}); err == nil || !strings.Contains(err.Error(), "$nope") {
		t.Errorf("err = %v, want one naming $nope", err)
	}
}

func TestQueriesFailOnADashboardWithoutExpressions(t *testing.T) {
	if _, err := (&Dashboard{}).Queries(Values{}); err == nil {
		t.Error("no error for a dashboard without expressions")
	}
}

func TestStripFallbackRemovesOnlyATrailingConstant(t *testing.T) {
	for in, want := range map[string]string{
		`sum(x) or vector(0)`:             `sum(x)`,
		`sum(x) or on() vector(1)`:        `sum(x)`,
		`sum(x)  or  on ( ) vector(-1.5)`: `sum(x)`,
		`sum(x) or vector(y)`:             `sum(x) or vector(y)`,
		`vector(0) or sum(x)`:             `vector(0) or sum(x)`,
	} {
		if got := StripFallback(in); got != want {
			t.Errorf("StripFallback(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestShippedDashboardQueriesAllRowsIncluded(t *testing.T) {
	d, err := Load(shipped)
	if err != nil {
		t.Fatal(err)
	}
	qs, err := d.Queries(Values{})
	if err != nil {
		t.Fatal(err)
	}
	targets := 0
	for _, p := range d.AllPanels() {
		for _, tg := range p.Targets {
			if strings.TrimSpace(tg.Expr) != "" {
				targets++
			}
		}
	}
	if len(qs) != targets || targets == 0 {
		t.Errorf("%d queries for %d targets", len(qs), targets)
	}
}
