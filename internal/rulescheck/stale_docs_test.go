package rulescheck

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/model"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

const readmeFile = "../../README.md"

// staleGroup is one threshold of WooxDataStale and the endpoints it holds
// to it.
type staleGroup struct {
	after     time.Duration
	endpoints []string
}

// staleTerm is a term of WooxDataStale's expression: the endpoints whose
// last success is older than a number of seconds.
var staleTerm = regexp.MustCompile(`\(time\(\) - woox_poll_last_success_timestamp_seconds\{job="woox", endpoint=~?"([^"]+)"\} > (\d+)\)`)

// staleGroups are WooxDataStale's thresholds, read from the rendered rules.
func staleGroups(t *testing.T) []staleGroup {
	t.Helper()
	var groups []staleGroup
	for _, r := range alerts(t) {
		if r.Alert != "WooxDataStale" {
			continue
		}
		for _, m := range staleTerm.FindAllStringSubmatch(r.Expr, -1) {
			seconds, _ := strconv.Atoi(m[2])
			groups = append(groups, staleGroup{after: time.Duration(seconds) * time.Second, endpoints: strings.Split(m[1], "|")})
		}
	}
	if len(groups) < 2 {
		t.Fatalf("read %d thresholds from WooxDataStale's expression: is the pattern still right?", len(groups))
	}
	return groups
}

// defaultInterval is an endpoint's default interval as its flag takes it.
func defaultInterval(name string) string {
	if ep, ok := endpoint.Of(name); ok {
		return ep.DefaultIntervalFlag()
	}
	return ""
}

var (
	durationWord = regexp.MustCompile(`\b\d+(?:ms|s|m|h)\b`)
	endpointWord = regexp.MustCompile(`\b[a-z]+(?:_[a-z]+)+\b`)
)

// TestDataStaleReadmeRowStatesTheRulesGroups: the README's alert table says,
// for each threshold of WooxDataStale, "5m (endpoints polled every 5s, 15s or
// 1m)": every endpoint of that threshold by its name or its default
// interval, and no interval or endpoint of another. A default interval or a
// group changed fails until the row is corrected.
func TestDataStaleReadmeRowStatesTheRulesGroups(t *testing.T) {
	b, err := os.ReadFile(readmeFile)
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`(?m)^\| WooxDataStale \|.*$`).Find(b)
	if row == nil {
		t.Fatal("README.md's alert table has no WooxDataStale row")
	}
	for _, g := range staleGroups(t) {
		after := model.Duration(g.after).String()
		m := regexp.MustCompile(`\b` + regexp.QuoteMeta(after) + ` \(([^)]*)\)`).FindSubmatch(row)
		if m == nil {
			t.Errorf("README.md's WooxDataStale row has no %q (...) for %s:\n%s", after, strings.Join(g.endpoints, ", "), row)
			continue
		}
		clause := string(m[1])
		var intervals []string
		for _, ep := range g.endpoints {
			d := defaultInterval(ep)
			intervals = append(intervals, d)
			if !strings.Contains(clause, ep) && !slices.Contains(durationWord.FindAllString(clause, -1), d) {
				t.Errorf("README.md's WooxDataStale row: %q names neither %s nor its default interval %s", m[0], ep, d)
			}
		}
		for _, d := range durationWord.FindAllString(clause, -1) {
			if !slices.Contains(intervals, d) {
				t.Errorf("README.md's WooxDataStale row: %q: no endpoint held to %s is polled every %s by default", m[0], after, d)
			}
		}
		for _, name := range endpointWord.FindAllString(clause, -1) {
			if !slices.Contains(g.endpoints, name) {
				t.Errorf("README.md's WooxDataStale row: %q: %s is not held to %s", m[0], name, after)
			}
		}
	}
}

// runbookThreshold is "more than 5 minutes" or "more than an hour" in the
// runbook's prose.
var runbookThreshold = regexp.MustCompile(`more than (\d+ minutes|an hour|\d+ hours)`)

// TestDataStaleRunbookNamesTheRulesGroups: RUNBOOK.md's WooxDataStale
// section says which endpoints each threshold holds, as the rules do.
func TestDataStaleRunbookNamesTheRulesGroups(t *testing.T) {
	b, err := os.ReadFile(runbookFile)
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(b), "## WooxDataStale\n")
	meaning, _, _ := strings.Cut(section, "\n\n")
	meaning = strings.Join(strings.Fields(meaning), " ")
	starts := runbookThreshold.FindAllStringSubmatchIndex(meaning, -1)
	groups := staleGroups(t)
	if len(starts) != len(groups) {
		t.Fatalf("RUNBOOK.md's WooxDataStale says %d thresholds (\"more than ...\"), the rule has %d:\n%s", len(starts), len(groups), meaning)
	}
	for i, s := range starts {
		end := len(meaning)
		if i+1 < len(starts) {
			end = starts[i+1][0]
		}
		after := runbookDuration(meaning[s[2]:s[3]])
		var named []string
		for _, m := range regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(meaning[s[0]:end], -1) {
			named = append(named, m[1])
		}
		slices.Sort(named)
		i := slices.IndexFunc(groups, func(g staleGroup) bool { return g.after == after })
		if i < 0 {
			t.Errorf("RUNBOOK.md's WooxDataStale: %q: the rule has no such threshold", meaning[s[0]:end])
			continue
		}
		want := slices.Sorted(slices.Values(groups[i].endpoints))
		if !slices.Equal(named, want) {
			t.Errorf("RUNBOOK.md's WooxDataStale: %q names %v; the rule holds %v to %s", meaning[s[0]:end], named, want, model.Duration(after))
		}
	}
}

func runbookDuration(s string) time.Duration {
	if s == "an hour" {
		return time.Hour
	}
	n, unit, _ := strings.Cut(s, " ")
	v, _ := strconv.Atoi(n)
	if unit == "hours" {
		return time.Duration(v) * time.Hour
	}
	return time.Duration(v) * time.Minute
}
