package server

import (
	"bufio"
	"context"
	"errors"
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

// Every telemetry path is either refused by CheckTelemetryPath, before
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
		err := CheckTelemetryPath(tc.path)
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
		mux, err := newMux(Config{MetricsPath: tc.path, Source: perScrapeOnly(reg), Ready: func() bool { return true }, Logger: log.NewNopLogger()})
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

// startServer serves on 127.0.0.1 with limits, as the exporter does, until
// the test ends.
func startServer(t *testing.T, limits Limits) string {
	t.Helper()
	addrs, systemd, webConfig := []string{"127.0.0.1:0"}, false, ""
	flags := &web.FlagConfig{WebListenAddresses: &addrs, WebSystemdSocket: &systemd, WebConfigFile: &webConfig}
	listeners, err := Listen(flags, limits.MaxConnections)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, listeners, Config{
			Flags: flags, MetricsPath: "/metrics", Source: perScrapeOnly(prometheus.NewRegistry()), Ready: func() bool { return true },
			Limits: limits, Logger: log.NewNopLogger(), ToolkitLogger: slog.New(slog.DiscardHandler),
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
	limits := DefaultLimits
	limits.IdleTimeout = 200 * time.Millisecond
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
	if _, err := br.ReadByte(); !errors.Is(err, io.EOF) {
		t.Fatalf("idle connection: read returned %v after %v, want EOF once the server closes it", err, time.Since(idleSince).Round(time.Millisecond))
	}
	if d := time.Since(idleSince); d < limits.IdleTimeout/2 {
		t.Errorf("closed after %v idle, before the idle timeout of %v", d, limits.IdleTimeout)
	}
}

// dialN opens n connections to addr that send nothing, one after another,
// closed when the test ends.
func dialN(t *testing.T, addr string, n int) []net.Conn {
	t.Helper()
	var conns []net.Conn
	for range n {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		conns = append(conns, c)
		time.Sleep(10 * time.Millisecond) // accepted in this order
	}
	return conns
}

// At the cap, connections that have sent nothing do not keep a health check
// out: it is answered at once, and the oldest silent connection is closed.
func TestServerEvictsTheOldestSilentConnectionAtTheCap(t *testing.T) {
	limits := DefaultLimits
	limits.MaxConnections = 3
	addr := startServer(t, limits)
	silent := dialN(t, addr, limits.MaxConnections)
	c := dialN(t, addr, 1)[0]
	if err := healthCheck(c, bufio.NewReader(c), time.Second); err != nil {
		t.Fatalf("health check with %d silent connections open at the cap: %v", limits.MaxConnections, err)
	}
	if err := silent[0].SetReadDeadline(time.Now().Add(5 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := silent[0].Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Errorf("oldest silent connection: read returned %v, want EOF", err)
	}
}

// A connection whose request is in progress (here its body still
// arriving) is never closed to make room: a new one waits until a request
// completes.
func TestServerNeverEvictsARequestInProgress(t *testing.T) {
	limits := DefaultLimits
	limits.MaxConnections = 2
	addr := startServer(t, limits)
	busy := dialN(t, addr, limits.MaxConnections)
	for _, c := range busy {
		if _, err := io.WriteString(c, "POST /-/healthy HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(100 * time.Millisecond) // the headers are read: both active
	extra := dialN(t, addr, 1)[0]
	br := bufio.NewReader(extra)
	if err := healthCheck(extra, br, 500*time.Millisecond); err == nil {
		t.Fatal("a new connection was served while every place had a request in progress")
	}
	// The first request completes and its connection goes idle: the new
	// one takes its place.
	if _, err := io.WriteString(busy[0], "ok"); err != nil {
		t.Fatal(err)
	}
	if err := extra.SetDeadline(time.Now().Add(5 * time.Second)); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no answer once a request completed: %v", err)
	}
	resp.Body.Close()
	if _, err := io.WriteString(busy[1], "ok"); err != nil {
		t.Fatal(err)
	}
	if err := busy[1].SetReadDeadline(time.Now().Add(5 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if resp, err := http.ReadResponse(bufio.NewReader(busy[1]), nil); err != nil {
		t.Errorf("the request still in progress was cut: %v", err)
	} else {
		resp.Body.Close()
	}
}

// A request with both Content-Length and a chunked body is answered and
// its connection closed, so a request hidden after the chunked body (where
// a proxy reading the Content-Length sees body) is never answered.
func TestServerClosesTheConnectionAfterAChunkedRequest(t *testing.T) {
	addr := startServer(t, DefaultLimits)
	answers, err := smuggle(addr)
	if err != nil {
		t.Fatal(err)
	}
	if len(answers) != 1 || !strings.Contains(answers[0], "Healthy") {
		t.Errorf("answers %q, want the first request's only", answers)
	}
}

// smuggle sends, on one connection to addr, a request with both
// Content-Length and a chunked body followed by a hidden request for
// /-/ready, and returns every answer read until the server closes the
// connection (or 3 s pass).
func smuggle(addr string) ([]string, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	hidden := "GET /-/ready HTTP/1.1\r\nHost: x\r\n\r\n"
	body := "0\r\n\r\n" + hidden
	req := fmt.Sprintf("POST /-/healthy HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\nTransfer-Encoding: chunked\r\n\r\n%s", len(body), body)
	if err := c.SetDeadline(time.Now().Add(3 * time.Second)); err != nil {
		return nil, err
	}
	if _, err := io.WriteString(c, req); err != nil {
		return nil, err
	}
	var answers []string
	br := bufio.NewReader(c)
	for {
		resp, err := http.ReadResponse(br, nil)
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return answers, nil
		}
		if err != nil {
			return answers, fmt.Errorf("after %d answers: %w", len(answers), err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return answers, err
		}
		answers = append(answers, string(b))
	}
}

// perScrapeOnly serves g as the per-scrape families, with no data families.
func perScrapeOnly(g prometheus.Gatherer) exposition.Source {
	return exposition.Source{PerScrape: g, Data: func() []exposition.Part { return nil }}
}

// The readiness check adds the exporter's note (pollers failing and why),
// ready or not.
func TestReadinessSaysWhatFails(t *testing.T) {
	for _, ready := range []bool{true, false} {
		mux, err := newMux(Config{MetricsPath: "/metrics", Source: perScrapeOnly(prometheus.NewRegistry()), Ready: func() bool { return ready },
			ReadyNote: func() string { return "1 of 3 pollers failed their last poll: tls 1" }, Logger: log.NewNopLogger()})
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://x/-/ready", nil))
		want, code := "Ready; 1 of 3 pollers failed their last poll: tls 1\n", http.StatusOK
		if !ready {
			want, code = "Not ready: waiting for the first poll of every endpoint; 1 of 3 pollers failed their last poll: tls 1\n", http.StatusServiceUnavailable
		}
		if body := rec.Body.String(); rec.Code != code || body != want {
			t.Errorf("ready %v: %d %q, want %d %q", ready, rec.Code, body, code, want)
		}
	}
}
