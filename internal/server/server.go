// Package server is the exporter's HTTP side, as kube-state-metrics keeps
// it in pkg/metricshandler: it opens the listeners the web flags name, each
// with a connection cap, and serves /metrics (an encoding at a time per
// CPU), the health checks and the landing page with timeouts that no client
// can outstay. It knows nothing of the exchange: the metrics come from an
// exposition.Source.
package server

import (
	"context"
	"errors"
	stdlog "log"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/go-kit/log"
	"github.com/prometheus/exporter-toolkit/web"

	"github.com/woox-exporter/woox_exporter/exposition"
)

// Config is what Serve serves and how.
type Config struct {
	// Name is the exporter's name on the landing page.
	Name string
	// Flags are exporter-toolkit's web flags: the addresses or systemd
	// sockets Listen opens, and the web config file (TLS, basic auth).
	Flags       *web.FlagConfig
	MetricsPath string
	// Source serves MetricsPath: the exporter's data metrics, encoded once
	// per change, and the per-scrape ones.
	Source exposition.Source
	// Ready answers the readiness check; ReadyNote, when set, adds to its
	// answer what a ready exporter may still lack (pollers failing).
	Ready     func() bool
	ReadyNote func() string
	// Reload re-reads the configuration on POST /-/reload; nil answers
	// 403 (--web.enable-lifecycle not set).
	Reload func() error
	// Profiling serves net/http/pprof's handlers under /debug/pprof/.
	Profiling bool
	Limits    Limits
	Logger    log.Logger
	// ToolkitLogger is Logger bridged to slog, for exporter-toolkit.
	ToolkitLogger *slog.Logger
}

// Limits bound how long a client may hold a connection and how many it may
// hold at once, so that no client can take the file descriptors the polls
// need.
type Limits struct {
	// ReadHeaderTimeout bounds the TLS handshake and the request headers.
	// Each connection that sends nothing holds a file descriptor until then
	// (or until a newer one evicts it at the cap), while a scraper sends its
	// headers in one write, within a round trip or two of connecting.
	ReadHeaderTimeout time.Duration
	// ReadTimeout also ends a request's context, and WriteTimeout its
	// answer: both outlast the longest legitimate scrape by far.
	ReadTimeout  time.Duration
	WriteTimeout time.Duration
	// IdleTimeout closes a keep-alive connection between requests; it
	// outlasts common scrape intervals, so Prometheus keeps its connection.
	IdleTimeout time.Duration
	// MaxConnections per listener: at the cap a new connection evicts one
	// that has no request in progress (evictingListener), or waits.
	MaxConnections int
}

// DefaultLimits are the limits the exporter serves with.
var DefaultLimits = Limits{
	ReadHeaderTimeout: 5 * time.Second,
	ReadTimeout:       time.Minute,
	WriteTimeout:      time.Minute,
	IdleTimeout:       2 * time.Minute,
	MaxConnections:    512,
}

// Serve runs the HTTP server on listeners until ctx is done, then shuts it
// down. The listeners come from Listen, bounded by c.Limits.MaxConnections.
func Serve(ctx context.Context, listeners []net.Listener, c Config) error {
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
		ReadHeaderTimeout: c.Limits.ReadHeaderTimeout,
		ReadTimeout:       c.Limits.ReadTimeout,
		WriteTimeout:      c.Limits.WriteTimeout,
		IdleTimeout:       c.Limits.IdleTimeout,
		ErrorLog:          stdlog.New(serverErrorLog{c.Logger}, "", 0),
	}
	errc := make(chan error, 1)
	go func() { errc <- web.ServeMultiple(listeners, srv, c.Flags, c.ToolkitLogger) }()
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
