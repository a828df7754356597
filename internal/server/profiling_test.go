package server

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-kit/log"
	"github.com/prometheus/client_golang/prometheus"
)

func TestProfilesAreServedOnlyWithTheFlag(t *testing.T) {
	for _, on := range []bool{false, true} {
		mux, err := newMux(Config{MetricsPath: "/metrics", Source: perScrapeOnly(prometheus.NewRegistry()), Ready: func() bool { return true },
			Profiling: on, Logger: log.NewNopLogger()})
		if err != nil {
			t.Fatal(err)
		}
		for path, want := range map[string]string{"/debug/pprof/allocs?debug=1": "profile", "/debug/pprof/heap?debug=1": "profile",
			"/debug/pprof/goroutine?debug=1": "profile", "/debug/runtime-metrics": "\n/gc/heap/allocs:objects "} {
			rec := httptest.NewRecorder()
			mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
			served := rec.Code == http.StatusOK && strings.Contains(rec.Body.String(), want)
			if served != on {
				t.Errorf("profiling %v: GET %s answered %d %.40q", on, path, rec.Code, rec.Body.String())
			}
		}
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
		if linked := strings.Contains(rec.Body.String(), "/debug/pprof"); linked != on {
			t.Errorf("profiling %v: the landing page links the profiles: %v", on, linked)
		}
	}
}
