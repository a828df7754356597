package main

import (
	"context"
	"errors"
	"fmt"
	stdlog "log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path"
	"runtime"
	"strings"
	"time"
	"unicode"

	"github.com/go-kit/log"
	"github.com/go-kit/log/level"
	"github.com/prometheus/common/version"
	"github.com/prometheus/exporter-toolkit/web"

	"github.com/woox-exporter/woox_exporter/exposition"
)

type serverConfig struct {
	flags       *web.FlagConfig
	metricsPath string
	// source serves /metrics: the exporter's data metrics, encoded once per
	// change, and the live ones.
	source  exposition.Source
	ready   func() bool
	limits  serverLimits
	logger  log.Logger
	slogger *slog.Logger
}

// serverLimits bound how long a client may hold a connection and how many
// it may hold at once, so that no client can take the file descriptors the
// polls need.
type serverLimits struct {
	// readHeaderTimeout bounds the TLS handshake and the request headers.
	// Each connection that sends nothing holds a file descriptor until then
	// (or until a newer one evicts it at the cap), while a scraper sends its
	// headers in one write, within a round trip or two of connecting.
	readHeaderTimeout time.Duration
	// readTimeout also ends a request's context, and writeTimeout its
	// answer: both outlast the longest legitimate scrape by far.
	readTimeout  time.Duration
	writeTimeout time.Duration
	// idleTimeout closes a keep-alive connection between requests; it
	// outlasts common scrape intervals, so Prometheus keeps its connection.
	idleTimeout time.Duration
	// maxConnections per listener: at the cap a new connection evicts one
	// that has no request in progress (evictingListener), or waits.
	maxConnections int
}

var defaultServerLimits = serverLimits{
	readHeaderTimeout: 5 * time.Second,
	readTimeout:       time.Minute,
	writeTimeout:      time.Minute,
	idleTimeout:       2 * time.Minute,
	maxConnections:    512,
}

// serve runs the HTTP server on listeners until ctx is done, then shuts it
// down. The listeners come from listen, bounded by c.limits.maxConnections.
func serve(ctx context.Context, listeners []net.Listener, c serverConfig) error {
	mux, err := newMux(c)
	if err != nil {
		for _, l := range listeners {
			l.Close()
		}
		return err
	}
	srv := &http.Server{
		Handler:           closeAfterChunkedRequest(mux),
		ConnState:         trackConnState,
		ReadHeaderTimeout: c.limits.readHeaderTimeout,
		ReadTimeout:       c.limits.readTimeout,
		WriteTimeout:      c.limits.writeTimeout,
		IdleTimeout:       c.limits.idleTimeout,
		ErrorLog:          stdlog.New(serverErrorLog{c.logger}, "", 0),
	}
	errc := make(chan error, 1)
	go func() { errc <- web.ServeMultiple(listeners, srv, c.flags, c.slogger) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return err
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func newMux(c serverConfig) (*http.ServeMux, error) {
	mux := http.NewServeMux()
	mux.Handle(c.metricsPath, limitEncoding(exposition.NewHandler(c.source, exposition.Options{ErrorLog: promhttpLogger{c.logger}}),
		runtime.GOMAXPROCS(0)))
	mux.HandleFunc(healthyPath, func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("Healthy\n"))
	})
	mux.HandleFunc(readyPath, func(w http.ResponseWriter, _ *http.Request) {
		if !c.ready() {
			http.Error(w, "Not ready: waiting for the first poll of every endpoint", http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("Ready\n"))
	})
	if c.metricsPath != "/" {
		landing, err := web.NewLandingPage(web.LandingConfig{
			Name:        exporterName,
			Description: "Prometheus exporter for WOO X accounts and assets",
			Version:     version.Info(),
			// Not served: the links would answer 404.
			Profiling: "false",
			Links: []web.LandingLinks{
				{Address: c.metricsPath, Text: "Metrics"},
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
	level.Error(l.logger).Log("msg", "metrics handler", "err", fmtArgs(v))
}

// Paths of the health checks, served beside the metrics.
const (
	healthyPath = "/-/healthy"
	readyPath   = "/-/ready"
)

// checkTelemetryPath refuses a --web.telemetry-path that http.ServeMux would
// panic on, read as a method or host pattern, or never match because it
// redirects requests for unclean paths.
func checkTelemetryPath(p string) error {
	fail := func(why string) error { return fmt.Errorf("--web.telemetry-path %q: %s", p, why) }
	switch {
	case !strings.HasPrefix(p, "/"):
		return fail("must be an absolute path such as /metrics")
	case strings.ContainsFunc(p, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) || r == '{' || r == '}' }):
		return fail("must not contain spaces, control characters or braces")
	case p != "/" && path.Clean(p) != strings.TrimSuffix(p, "/"):
		return fail("must be a clean path (no //, . or .. segments)")
	case p == healthyPath || p == readyPath:
		return fail("is taken by a health check")
	}
	return nil
}

// maxWebConfigSize bounds the --web.config.file, which may hold inline
// certificates: exporter-toolkit reads it whole, at start and again for
// every connection and request.
const maxWebConfigSize = 1 << 20

// checkWebConfigFile refuses a web config that exporter-toolkit would block
// on (a FIFO) or read without end (a device): it is read with os.ReadFile.
func checkWebConfigFile(path string) error {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return errors.New("not a regular file")
	case fi.Size() > maxWebConfigSize:
		return fmt.Errorf("larger than %d bytes", maxWebConfigSize)
	}
	return nil
}
