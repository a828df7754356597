package collector

import (
	"testing"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// Every endpoint of the table has a collector: its file registers its
// build function. Without one, building the exporter would call a nil
// function.
func TestEveryEndpointHasItsCollector(t *testing.T) {
	for _, ep := range endpoint.All {
		if builds[ep.Name] == nil {
			t.Errorf("%s: no build function: register it in collector/%s.go", ep.Name, ep.Name)
		}
	}
}
