package main

import (
	"fmt"
	"strings"
)

// spec is a parsed "Alertname label=value ...": every label must equal its
// value, alertname included.
type spec []struct{ name, value string }

func parseSpec(s string) (spec, error) {
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return nil, fmt.Errorf("empty spec %q", s)
	}
	sp := spec{{"alertname", fields[0]}}
	for _, kv := range fields[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("spec %q: %q is not label=value", s, kv)
		}
		sp = append(sp, struct{ name, value string }{k, v})
	}
	return sp, nil
}

func (sp spec) matches(a alert) bool {
	for _, l := range sp {
		if v, ok := a.Labels[l.name]; !ok || v != l.value {
			return false
		}
	}
	return true
}

func (sp spec) matchesAny(alerts []alert) bool {
	for _, a := range alerts {
		if sp.matches(a) {
			return true
		}
	}
	return false
}
