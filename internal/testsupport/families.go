package testsupport

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"google.golang.org/protobuf/proto"
)

// RegistryGather is what a registry of c alone gathers: what a gather
// without a registry is held to.
func RegistryGather(t testing.TB, c prometheus.Collector) ([]*dto.MetricFamily, error) {
	t.Helper()
	reg := prometheus.NewRegistry()
	if err := reg.Register(c); err != nil {
		t.Fatal(err)
	}
	return reg.Gather()
}

// SameFamilies fails t unless got and want are the same families in the
// same order, what naming them in the failure.
func SameFamilies(t testing.TB, what string, got, want []*dto.MetricFamily) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d families, a registry %d", what, len(got), len(want))
		return
	}
	for i := range want {
		if !proto.Equal(got[i], want[i]) {
			t.Errorf("%s: family %d\n got: %v\nwant: %v", what, i, got[i], want[i])
		}
	}
}
