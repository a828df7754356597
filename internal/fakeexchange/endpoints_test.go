package fakeexchange

import (
	"net/http"
	"testing"
)

// Two entries of the table sharing a path or a name would leave one
// unreachable by requests, faults or rate limits.
func TestEndpointTableNamesEachEndpointOnce(t *testing.T) {
	paths, names := map[string]bool{}, map[string]bool{}
	for _, ep := range endpoints {
		if ep.path == "" || ep.name == "" || ep.serve == nil {
			t.Errorf("endpoint %q at %q: path, name and serve must be set", ep.name, ep.path)
		}
		if paths[ep.path] || names[ep.name] {
			t.Errorf("endpoint %q at %q: path or name already in the table", ep.name, ep.path)
		}
		paths[ep.path], names[ep.name] = true, true
	}
	if len(endpoints) < 9 {
		t.Errorf("%d endpoints in the table", len(endpoints))
	}
}

// Every endpoint of the table answers the default scenario, so a new one
// cannot be listed without being served.
func TestEveryEndpointServesTheDefaultScenario(t *testing.T) {
	h := newHarness(t, DefaultScenario(), WithRateLimit(0, 0))
	secrets[DefaultMainReadKey] = DefaultMainReadSecret
	for _, ep := range endpoints {
		if ep.public {
			req, err := http.NewRequest(http.MethodGet, h.srv.URL+ep.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			wantOK(t, h.do(req))
			continue
		}
		wantOK(t, h.get(ep.path, "", DefaultMainReadKey))
	}
}
