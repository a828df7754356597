package server

import (
	"fmt"
	"net/http"
	"net/http/pprof"
	"runtime"
	"strings"

	"github.com/go-kit/log"
	"github.com/go-kit/log/level"
	"github.com/prometheus/common/version"
	"github.com/prometheus/exporter-toolkit/web"

	"github.com/woox-exporter/woox_exporter/exposition"
)

// Paths of the health checks, served beside the metrics.
const (
	healthyPath = "/-/healthy"
	readyPath   = "/-/ready"
)

// newMux routes the metrics, the health checks and, unless the metrics are
// served at /, the landing page.
func newMux(c Config) (*http.ServeMux, error) {
	mux := http.NewServeMux()
	mux.Handle(c.MetricsPath, exposition.NewHandler(c.Source, exposition.Options{ErrorLog: promhttpLogger{c.Logger}, MaxEncodings: runtime.GOMAXPROCS(0), Workers: runtime.GOMAXPROCS(0)}))
	mux.HandleFunc(healthyPath, func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("Healthy\n"))
	})
	mux.Handle(reloadPath, reloadHandler(c.Reload))
	mux.HandleFunc(readyPath, func(w http.ResponseWriter, _ *http.Request) {
		note := ""
		if c.ReadyNote != nil {
			if n := c.ReadyNote(); n != "" {
				note = "; " + n
			}
		}
		if !c.Ready() {
			http.Error(w, "Not ready: waiting for the first poll of every endpoint"+note, http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("Ready" + note + "\n"))
	})
	profiling := "false"
	if c.Profiling {
		profiling = "true"
		mux.HandleFunc("/debug/pprof/", pprof.Index)
		mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
		mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
		mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
		mux.HandleFunc(runtimeMetricsPath, serveRuntimeMetrics)
	}
	if c.MetricsPath != "/" {
		landing, err := web.NewLandingPage(web.LandingConfig{
			Name:        c.Name,
			Description: "Prometheus exporter for WOO X accounts and assets",
			Version:     version.Info(),
			// The landing page links the profiles only when they are served.
			Profiling: profiling,
			Links: []web.LandingLinks{
				{Address: c.MetricsPath, Text: "Metrics"},
				{Address: healthyPath, Text: "Health"},
				{Address: readyPath, Text: "Readiness"},
			},
		})
		if err != nil {
			return nil, err
		}
		mux.Handle("/", landing)
	}
	return mux, nil
}

// closeAfterChunkedRequest closes the connection after answering a request
// with a chunked body. Such a request may also carry a Content-Length, which
// net/http drops without a trace, and a proxy in front that reads the
// Content-Length instead would hide a second request in the body: RFC 9112
// §6.1 asks to close the connection. No scrape or health check has a body,
// so closing after every chunked one costs nothing and needs no second
// parser of the raw header.
func closeAfterChunkedRequest(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(r.TransferEncoding) > 0 {
			w.Header().Set("Connection", "close")
		}
		h.ServeHTTP(w, r)
	})
}

// serverErrorLog routes the http.Server's own errors (failed TLS
// handshakes, accept errors, handler panics) to the go-kit logger, which
// Go would otherwise print as plain text whatever --log.format says.
type serverErrorLog struct{ logger log.Logger }

func (l serverErrorLog) Write(p []byte) (int, error) {
	level.Error(l.logger).Log("msg", "HTTP server error", "err", strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

// promhttpLogger routes promhttp's errors to the go-kit logger.
type promhttpLogger struct{ logger log.Logger }

func (l promhttpLogger) Println(v ...any) {
	level.Error(l.logger).Log("msg", "metrics handler", "err", strings.TrimSuffix(fmt.Sprintln(v...), "\n"))
}
