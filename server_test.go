package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-kit/log"
	"github.com/prometheus/client_golang/prometheus"
)

// Every telemetry path is either refused by checkTelemetryPath, before
// anything polls, or served: the mux builds without a panic, the path
// answers with metrics and the health checks still answer.
func TestTelemetryPathIsRefusedOrServed(t *testing.T) {
	for _, tc := range []struct {
		path string
		ok   bool
	}{
		{"/metrics", true},
		{"/", true},
		{"/metrics/", true},
		{"/x/metrics", true},
		{"/-/metrics", true},
		{"/metrics%20x", true},
		{"", false},
		{"metrics", false},
		{"/-/healthy", false},
		{"/-/ready", false},
		{"GET /metrics", false},
		{"/metrics x", false},
		{"/metrics/{x}", false},
		{"/metrics/{$}", false},
		{"/a//metrics", false},
		{"/a/../metrics", false},
		{"/./metrics", false},
		{"/metrics\n", false},
		{"example.com/metrics", false},
	} {
		err := checkTelemetryPath(tc.path)
		if !tc.ok {
			if err == nil {
				t.Errorf("%q: accepted, want an error", tc.path)
			} else if !strings.HasPrefix(err.Error(), "--web.telemetry-path ") {
				t.Errorf("%q: error %q does not name the flag", tc.path, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.path, err)
			continue
		}
		reg := prometheus.NewRegistry()
		reg.MustRegister(prometheus.NewGauge(prometheus.GaugeOpts{Name: "telemetry_path_test"}))
		mux, err := newMux(serverConfig{metricsPath: tc.path, gatherer: reg, ready: func() bool { return true }, logger: log.NewNopLogger()})
		if err != nil {
			t.Errorf("%q: %v", tc.path, err)
			continue
		}
		for path, want := range map[string]string{
			strings.ReplaceAll(tc.path, "%20", " "): "telemetry_path_test",
			"/-/healthy":                            "Healthy",
			"/-/ready":                              "Ready",
		} {
			rec := httptest.NewRecorder()
			mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://x"+strings.ReplaceAll(path, " ", "%20"), nil))
			body, _ := io.ReadAll(rec.Body)
			if rec.Code != http.StatusOK || !strings.Contains(string(body), want) {
				t.Errorf("telemetry path %q: GET %s = %d %.60q, want 200 with %s", tc.path, path, rec.Code, body, want)
			}
		}
	}
}
