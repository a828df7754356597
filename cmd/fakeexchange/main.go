// Command fakeexchange serves a fake WOO X v3 REST API for end-to-end, soak
// and load tests of the exporter. Without --scenario it serves
// fakeexchange.DefaultScenario.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/alecthomas/kingpin/v2"
	"github.com/go-kit/log"
	"github.com/go-kit/log/level"

	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "fakeexchange:", err)
		os.Exit(1)
	}
}

// run parses args, serves until ctx is done, then shuts down.
func run(ctx context.Context, args []string, logOut io.Writer) error {
	app := kingpin.New("fakeexchange", "A fake WOO X v3 REST API for tests.")
	listen := app.Flag("listen", "Address to listen on, e.g. 127.0.0.1:8080 (port 0 picks a free one).").Default("127.0.0.1:8080").String()
	scenarioPath := app.Flag("scenario", "Scenario YAML file (every field is shown in internal/fakeexchange/testdata/example.yaml); the built-in default scenario when empty.").String()
	rateLimit := app.Flag("rate-limit", "Per-account limit of every private endpoint, N/window (e.g. 10/60s); overrides the scenario and the published limits.").String()
	publicRateLimit := app.Flag("public-rate-limit", "Per-IP limit of the public endpoint, N/window; overrides the scenario.").String()
	logLevel := app.Flag("log.level", "Log level: debug, info, warn, error.").Default("info").Enum("debug", "info", "warn", "error")
	if _, err := app.Parse(args); err != nil {
		return fmt.Errorf("parse flags: %w", err)
	}

	logger := log.NewLogfmtLogger(log.NewSyncWriter(logOut))
	logger = level.NewFilter(logger, level.Allow(level.ParseDefault(*logLevel, level.InfoValue())))
	logger = log.With(logger, "time", log.DefaultTimestampUTC)

	scenario := fakeexchange.DefaultScenario()
	if *scenarioPath != "" {
		var err error
		if scenario, err = fakeexchange.LoadScenario(*scenarioPath); err != nil {
			return err
		}
	}
	opts := []fakeexchange.Option{fakeexchange.WithLogger(logger)}
	if *rateLimit != "" {
		n, w, err := fakeexchange.ParseRateLimit(*rateLimit)
		if err != nil {
			return fmt.Errorf("--rate-limit: %w", err)
		}
		opts = append(opts, fakeexchange.WithRateLimit(n, w))
	}
	if *publicRateLimit != "" {
		n, w, err := fakeexchange.ParseRateLimit(*publicRateLimit)
		if err != nil {
			return fmt.Errorf("--public-rate-limit: %w", err)
		}
		opts = append(opts, fakeexchange.WithPublicRateLimit(n, w))
	}
	ex, err := fakeexchange.New(scenario, opts...)
	if err != nil {
		return err
	}

	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	srv := &http.Server{Handler: ex, ReadHeaderTimeout: 10 * time.Second}
	ex.Start(ctx)
	level.Info(logger).Log("msg", "listening", "address", ln.Addr().String())

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("shutdown: %w", err)
	}
	level.Info(logger).Log("msg", "stopped")
	return nil
}
