package server

import (
	"fmt"
	"net/http"
	"runtime/metrics"
)

// runtimeMetricsPath serves, with profiling on, every scalar of Go's
// runtime/metrics as "NAME VALUE" lines: allocations, collections and the
// collector's CPU, read without gathering or encoding any metric family,
// so that a load test can divide them by the requests sent.
const runtimeMetricsPath = "/debug/runtime-metrics"

// serveRuntimeMetrics writes the scalar runtime metrics.
func serveRuntimeMetrics(w http.ResponseWriter, _ *http.Request) {
	descs := metrics.All()
	samples := make([]metrics.Sample, 0, len(descs))
	for _, d := range descs {
		if d.Kind == metrics.KindUint64 || d.Kind == metrics.KindFloat64 {
			samples = append(samples, metrics.Sample{Name: d.Name})
		}
	}
	metrics.Read(samples)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	for _, s := range samples {
		switch s.Value.Kind() {
		case metrics.KindUint64:
			fmt.Fprintf(w, "%s %d\n", s.Name, s.Value.Uint64())
		case metrics.KindFloat64:
			fmt.Fprintf(w, "%s %g\n", s.Name, s.Value.Float64())
		}
	}
}
