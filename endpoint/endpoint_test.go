package endpoint

import (
	"strings"
	"testing"
)

// Each entry is whole: a name and path of its own, a positive limit, a page
// publishing a private endpoint's limit, a default interval and words for
// the flags' help. Two entries sharing a name or path would leave one
// unreachable by its flags, budget or the fake's routes.
func TestEveryEntryIsWholeAndItsOwn(t *testing.T) {
	names, paths := map[string]bool{}, map[string]bool{}
	for _, ep := range All {
		if ep.Name == "" || strings.ContainsAny(ep.Name, "-. ") || !strings.HasPrefix(ep.Path, "/v3/") {
			t.Errorf("%q at %q: want a snake_case name and a /v3/ path", ep.Name, ep.Path)
		}
		if names[ep.Name] || paths[ep.Path] {
			t.Errorf("%s at %s: name or path already in the table", ep.Name, ep.Path)
		}
		names[ep.Name], paths[ep.Path] = true, true
		if ep.Limit.Requests <= 0 || ep.Limit.Window <= 0 {
			t.Errorf("%s: limit %+v", ep.Name, ep.Limit)
		}
		if ep.PerAccount && ep.Page == "" {
			t.Errorf("%s: no page publishes its limit", ep.Name)
		}
		if ep.DefaultInterval <= 0 || ep.Description == "" {
			t.Errorf("%s: default interval %s, description %q", ep.Name, ep.DefaultInterval, ep.Description)
		}
		if got, ok := Of(ep.Name); !ok || got != ep || PathOf(ep.Name) != ep.Path {
			t.Errorf("Of(%s) = %+v, %v", ep.Name, got, ok)
		}
	}
	if _, ok := Of("no_such_endpoint"); ok {
		t.Error("an unknown name is found")
	}
}
