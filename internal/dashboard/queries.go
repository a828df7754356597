package dashboard

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Values are what Grafana's variables stand for in Queries. The zero value of
// a field means its default (Defaults).
type Values struct {
	Account, Token, HistoryToken, Job, Instance string
	RateInterval, Interval, Range               time.Duration
}

// Defaults are the values of "All" (.* or .+), the job of
// examples/prometheus.yml, and one minute or one hour for the intervals.
func Defaults() Values {
	return Values{
		Account: ".*", Token: ".*", HistoryToken: ".*", Job: "woox", Instance: ".+",
		RateInterval: time.Minute, Interval: time.Minute, Range: time.Hour,
	}
}

func (v Values) withDefaults() Values {
	d := Defaults()
	for _, f := range []struct {
		s   *string
		def string
	}{{&v.Account, d.Account}, {&v.Token, d.Token}, {&v.HistoryToken, d.HistoryToken}, {&v.Job, d.Job}, {&v.Instance, d.Instance}} {
		if *f.s == "" {
			*f.s = f.def
		}
	}
	for _, f := range []struct {
		d   *time.Duration
		def time.Duration
	}{{&v.RateInterval, d.RateInterval}, {&v.Interval, d.Interval}, {&v.Range, d.Range}} {
		if *f.d == 0 {
			*f.d = f.def
		}
	}
	return v
}

// Query is one PromQL expression of a panel.
type Query struct {
	PanelID int
	Expr    string
}

// variable matches $name, ${name} and ${name:format}.
func variable(name string) *regexp.Regexp {
	return regexp.MustCompile(`\$\{` + name + `(:[a-z]+)?\}|\$` + name + `\b`)
}

var spaces = regexp.MustCompile(`\s+`)

// Queries lists every target's expression, panel by panel (AllPanels'
// order), with the variables replaced by v and runs of white space made
// one space. It fails naming the panel of an expression where a variable is
// left, or when the dashboard has no expression at all.
func (d *Dashboard) Queries(v Values) ([]Query, error) {
	v = v.withDefaults()
	// Longer names first: $__interval_ms before $__interval.
	subs := []struct {
		name, value string
	}{
		{"__rate_interval", promDuration(v.RateInterval)},
		{"__interval_ms", strconv.FormatInt(v.Interval.Milliseconds(), 10)},
		{"__interval", promDuration(v.Interval)},
		{"__range_s", strconv.FormatInt(int64(v.Range.Seconds()), 10)},
		{"__range_ms", strconv.FormatInt(v.Range.Milliseconds(), 10)},
		{"__range", promDuration(v.Range)},
		{"account", v.Account},
		{"token", v.Token},
		{"history_token", v.HistoryToken},
		{"job", v.Job},
		{"instance", v.Instance},
	}
	var out []Query
	for _, p := range d.AllPanels() {
		for _, t := range p.Targets {
			if strings.TrimSpace(t.Expr) == "" {
				continue
			}
			e := t.Expr
			for _, s := range subs {
				e = variable(s.name).ReplaceAllLiteralString(e, s.value)
			}
			e = strings.TrimSpace(spaces.ReplaceAllString(e, " "))
			id := 0
			if p.ID != nil {
				id = *p.ID
			}
			if strings.Contains(e, "$") {
				return nil, fmt.Errorf("panel %d %q target %s: a variable is left after substitution: %s", id, p.Title, t.RefID, e)
			}
			out = append(out, Query{PanelID: id, Expr: e})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("dashboard %q has no expression", d.Title)
	}
	return out, nil
}

// fallback is a trailing constant: ` or vector(0)`, ` or on() vector(1)`.
var fallback = regexp.MustCompile(`\s+or\s+(on\s*\(\s*\)\s*)?vector\s*\(\s*[-+]?[0-9][0-9.eE+-]*\s*\)\s*$`)

// StripFallback removes a trailing constant fallback from expr. The fallback
// makes a stat panel show 0 instead of "No data", but would also answer for
// a misspelt metric: a test that wants the real query's data strips it.
func StripFallback(expr string) string {
	return fallback.ReplaceAllString(expr, "")
}

// promDuration writes d in the largest Prometheus unit that divides it.
func promDuration(d time.Duration) string {
	s := int64(d / time.Second)
	for _, u := range []struct {
		unit string
		secs int64
	}{{"w", 604800}, {"d", 86400}, {"h", 3600}, {"m", 60}} {
		if s >= u.secs && s%u.secs == 0 {
			return strconv.FormatInt(s/u.secs, 10) + u.unit
		}
	}
	return strconv.FormatInt(s, 10) + "s"
}
