package fakeexchange

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// UnreadableEndpoints are the list endpoints that serve rows no client can read
// on request (Scenario.UnreadableRows), in the table's order; each builds its
// row in its file.
func UnreadableEndpoints() []string {
	var names []string
	for _, ep := range routes {
		if ep.unreadable != nil {
			names = append(names, ep.Name)
		}
	}
	return names
}

// validateUnreadableRows checks Scenario.UnreadableRows.
func validateUnreadableRows(rows map[string]int) error {
	for _, name := range slices.Sorted(maps.Keys(rows)) {
		if !slices.Contains(UnreadableEndpoints(), name) {
			return fieldErr("unreadable_rows."+name, "not a list endpoint with unreadable rows (%s)", strings.Join(UnreadableEndpoints(), ", "))
		}
		if rows[name] < 0 {
			return fieldErr("unreadable_rows."+name, "must not be negative, got %d", rows[name])
		}
	}
	return nil
}

// setUnreadableRows applies an event's UnreadableRows.
func (e *Exchange) setUnreadableRows(rows map[string]int) error {
	if err := validateUnreadableRows(rows); err != nil {
		return fmt.Errorf("unreadable rows event: %w", err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	maps.Copy(e.s.UnreadableRows, rows)
	return nil
}

// listLength is how many rows a list of n good rows holds. The caller holds mu.
func (e *Exchange) listLength(endpoint string, n int) int { return n + e.s.UnreadableRows[endpoint] }

// listRows is the rows [from, to) of endpoint's list of n good rows (built by
// good), its unreadable rows after the first. The caller holds mu.
func (e *Exchange) listRows(endpoint string, n, from, to int, good func(i int) any) []any {
	ep, _ := routeOf(endpoint)
	bad, row := e.s.UnreadableRows[endpoint], ep.unreadable
	at := min(1, n)
	out := make([]any, 0, to-from)
	for i := from; i < to; i++ {
		switch {
		case i < at:
			out = append(out, good(i))
		case i < at+bad:
			out = append(out, row(e, i-at))
		default:
			out = append(out, good(i-bad))
		}
	}
	return out
}
