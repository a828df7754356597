package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-kit/log"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/exporter-toolkit/web"

	"github.com/woox-exporter/woox_exporter/exposition"
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
		mux, err := newMux(serverConfig{metricsPath: tc.path, source: liveOnly(reg), ready: func() bool { return true }, logger: log.NewNopLogger()})
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

// startServer serves newMux on 127.0.0.1 with limits, as run does, until
// the test ends.
func startServer(t *testing.T, limits serverLimits) string {
	t.Helper()
	addrs, systemd, webConfig := []string{"127.0.0.1:0"}, false, ""
	flags := &web.FlagConfig{WebListenAddresses: &addrs, WebSystemdSocket: &systemd, WebConfigFile: &webConfig}
	listeners, err := listen(flags, limits.maxConnections)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, listeners, serverConfig{
			flags: flags, metricsPath: "/metrics", source: liveOnly(prometheus.NewRegistry()), ready: func() bool { return true },
			limits: limits, logger: log.NewNopLogger(), slogger: slog.New(slog.DiscardHandler),
		})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return listeners[0].Addr().String()
}

// healthCheck sends one keep-alive request on c and reads the answer,
// within timeout.
func healthCheck(c net.Conn, br *bufio.Reader, timeout time.Duration) error {
	if err := c.SetDeadline(time.Now().Add(timeout)); err != nil {
		return err
	}
	if _, err := io.WriteString(c, "GET /-/healthy HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		return err
	}
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	return nil
}

// A keep-alive connection left idle is closed by the server after the idle
// timeout, not held open for ever.
func TestServerClosesIdleConnections(t *testing.T) {
	limits := defaultServerLimits
	limits.idleTimeout = 200 * time.Millisecond
	addr := startServer(t, limits)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	if err := healthCheck(c, br, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	idleSince := time.Now()
	if err := c.SetReadDeadline(time.Now().Add(5 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("idle connection: read returned %v after %v, want EOF once the server closes it", err, time.Since(idleSince).Round(time.Millisecond))
	}
	if d := time.Since(idleSince); d < limits.idleTimeout/2 {
		t.Errorf("closed after %v idle, before the idle timeout of %v", d, limits.idleTimeout)
	}
}

// At most maxConnections connections are served at once: one more waits
// (in the kernel's backlog) until a slot frees, here when an idle one is
// closed by the idle timeout.
func TestServerBoundsConcurrentConnections(t *testing.T) {
	limits := defaultServerLimits
	limits.maxConnections = 3
	limits.idleTimeout = 2 * time.Second
	addr := startServer(t, limits)
	for range limits.maxConnections {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if err := healthCheck(c, bufio.NewReader(c), 5*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	extra, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer extra.Close()
	br := bufio.NewReader(extra)
	start := time.Now()
	if err := healthCheck(extra, br, 500*time.Millisecond); err == nil {
		t.Fatalf("connection %d of %d answered at once", limits.maxConnections+1, limits.maxConnections)
	}
	// The request is sent: once the idle ones are closed, it is answered.
	if err := extra.SetDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("connection %d: no answer after the idle ones closed: %v", limits.maxConnections+1, err)
	}
	resp.Body.Close()
	if d := time.Since(start); d < limits.idleTimeout/2 {
		t.Errorf("connection %d answered after %v, before an idle one was closed", limits.maxConnections+1, d)
	}
}

// liveOnly serves g as the live part, with no data families.
func liveOnly(g prometheus.Gatherer) exposition.Source {
	return exposition.Source{Live: g, Data: func() []exposition.Part { return nil }}
}
