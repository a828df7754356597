package collector

import (
	"testing"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// Every endpoint of the table has a collector: its file registers its
// build function. Without one, building the exporter would call a nil
// function.
func TestEveryEndpointHasItsCollector(t *testing.T) {
	if len(Endpoints) != len(endpoint.All) {
		t.Fatalf("%d endpoints, the table has %d", len(Endpoints), len(endpoint.All))
	}
	for i, ep := range Endpoints {
		if ep.Endpoint != endpoint.All[i] {
			t.Errorf("endpoint %d is %s, the table's %s", i, ep.Name, endpoint.All[i].Name)
		}
		if ep.build == nil {
			t.Errorf("%s: no build function: register it in collector/%s.go", ep.Name, ep.Name)
		}
	}
}
