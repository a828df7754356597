package main

import (
	"context"
	"errors"
	"fmt"
	stdlog "log"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"runtime"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/go-kit/log"
	"github.com/go-kit/log/level"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/common/version"
	"github.com/prometheus/exporter-toolkit/web"
)

type serverConfig struct {
	flags       *web.FlagConfig
	metricsPath string
	// gatherer serves /metrics: the exporter's metrics with the registry's.
	gatherer prometheus.Gatherer
	ready    func() bool
	logger   log.Logger
	slogger  *slog.Logger
}

// serve runs the HTTP server until ctx is done, then shuts it down.
func serve(ctx context.Context, c serverConfig) error {
	mux, err := newMux(c)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          stdlog.New(serverErrorLog{c.logger}, "", 0),
	}
	errc := make(chan error, 1)
	go func() { errc <- web.ListenAndServe(srv, c.flags, c.slogger) }()
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
	mux.Handle(c.metricsPath, limitEncoding(promhttp.HandlerFor(c.gatherer, promhttp.HandlerOpts{
		ErrorLog:          promhttpLogger{c.logger},
		ErrorHandling:     promhttp.ContinueOnError,
		EnableOpenMetrics: true,
	}), runtime.GOMAXPROCS(0)))
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

// checkListenAddresses refuses a --web.listen-address that cannot be
// listened on as written, so that it fails before anything polls.
func checkListenAddresses(addrs []string) error {
	for _, a := range addrs {
		var err error
		if strings.HasPrefix(a, "vsock://") {
			_, err = vsockPort(a)
		} else {
			err = checkHostPort(a)
		}
		if err != nil {
			return fmt.Errorf("--web.listen-address %q: want [host]:port such as %s, or vsock://:port: %w", a, defaultListenAddress, err)
		}
	}
	return nil
}

func checkHostPort(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	// A service name (":http") is a port too.
	_, err = net.LookupPort("tcp", port)
	return err
}

// vsockPort is the port of a vsock://:port address, as exporter-toolkit
// reads it.
func vsockPort(addr string) (uint32, error) {
	u, err := url.Parse(addr)
	if err != nil {
		return 0, err
	}
	_, port, err := net.SplitHostPort(u.Host)
	if err != nil {
		return 0, err
	}
	p, err := strconv.ParseUint(port, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("port %q: not a number", port)
	}
	return uint32(p), nil
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
