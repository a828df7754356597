package collector

import (
	"testing"

	"github.com/woox-exporter/woox_exporter/client"
)

// Every endpoint polled declares its published limit in its client file:
// per IP for a public one, per account with the page that publishes it for
// the others. Without one it would fall back to client.DefaultRateLimit.
func TestEveryEndpointHasItsPublishedLimit(t *testing.T) {
	for _, ep := range Endpoints {
		p, ok := client.PublishedLimitOf(ep.Name)
		if !ok {
			t.Errorf("%s: no published limit: publish it in the endpoint's client file", ep.Name)
			continue
		}
		if p.PerIP == ep.PerAccount {
			t.Errorf("%s: published limit per IP %v, per account endpoint %v", ep.Name, p.PerIP, ep.PerAccount)
		}
		if ep.PerAccount && p.Page == "" {
			t.Errorf("%s: no page publishes its limit", ep.Name)
		}
	}
}
