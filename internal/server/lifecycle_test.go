package server

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-kit/log"
	"github.com/prometheus/client_golang/prometheus"
)

func TestReloadAnswersAsPrometheusDoes(t *testing.T) {
	reloads := 0
	var fail error
	reload := func() error {
		reloads++
		return fail
	}
	for _, tc := range []struct {
		name   string
		reload func() error
		method string
		fail   error
		code   int
		body   string
		calls  int
	}{
		{"lifecycle off", nil, http.MethodPost, nil, http.StatusForbidden, "Lifecycle API is not enabled.", 0},
		{"GET", reload, http.MethodGet, nil, http.StatusMethodNotAllowed, "Only POST or PUT", 0},
		{"POST", reload, http.MethodPost, nil, http.StatusOK, "configuration reloaded", 1},
		{"PUT", reload, http.MethodPut, nil, http.StatusOK, "configuration reloaded", 1},
		{"failed", reload, http.MethodPost, errors.New("accounts.yml:3: name: listed twice"), http.StatusInternalServerError, "failed to reload config: accounts.yml:3: name: listed twice", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reloads, fail = 0, tc.fail
			mux, err := newMux(Config{MetricsPath: "/metrics", Source: perScrapeOnly(prometheus.NewRegistry()), Ready: func() bool { return true },
				Reload: tc.reload, Logger: log.NewNopLogger()})
			if err != nil {
				t.Fatal(err)
			}
			rec := httptest.NewRecorder()
			mux.ServeHTTP(rec, httptest.NewRequest(tc.method, "/-/reload", nil))
			if rec.Code != tc.code || !strings.Contains(rec.Body.String(), tc.body) {
				t.Errorf("%s /-/reload: %d %q, want %d containing %q", tc.method, rec.Code, rec.Body.String(), tc.code, tc.body)
			}
			if reloads != tc.calls {
				t.Errorf("reloaded %d times, want %d", reloads, tc.calls)
			}
		})
	}
}
