package fakeexchange

import (
	"net/http"
	"testing"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// Every endpoint of the endpoint table has its route, in the table's order
// but for token history, whose events run last; a route without a serve
// func would answer nothing.
func TestEveryEndpointOfTheTableHasARoute(t *testing.T) {
	if len(routes) != len(endpoint.All) {
		t.Errorf("%d routes, %d endpoints in the table", len(routes), len(endpoint.All))
	}
	for _, ep := range endpoint.All {
		r, ok := routeOf(ep.Name)
		if !ok || r.serve == nil || r.Endpoint != ep {
			t.Errorf("endpoint %s: no route, or one without serve: add it in internal/fakeexchange/%s.go", ep.Name, ep.Name)
		}
	}
	if last := routes[len(routes)-1]; last.Name != endpoint.TokenHistory {
		t.Errorf("last route %s, want token history", last.Name)
	}
}

// Every endpoint of the table answers the default scenario, so a new one
// cannot be listed without being served.
func TestEveryEndpointServesTheDefaultScenario(t *testing.T) {
	h := newHarness(t, DefaultScenario(), WithRateLimit(0, 0))
	secrets[DefaultMainReadKey] = DefaultMainReadSecret
	for _, ep := range routes {
		if !ep.PerAccount {
			req, err := http.NewRequest(http.MethodGet, h.srv.URL+ep.Path, nil)
			if err != nil {
				t.Fatal(err)
			}
			wantOK(t, h.do(req))
			continue
		}
		wantOK(t, h.get(ep.Path, "", DefaultMainReadKey))
	}
}
