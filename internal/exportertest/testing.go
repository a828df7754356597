package exportertest

import (
	"context"
	"errors"
	"net/http"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/common/model"
)

// Start builds the exporter and runs it on a free loopback address, with
// args and, as its environment, PATH and env. The process is killed when
// the test ends.
func Start(t testing.TB, env []string, args ...string) *Process {
	t.Helper()
	addr, err := FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	return StartAt(t, addr, env, args...)
}

// StartAt is Start on addr, host:port: for an exporter restarted where
// Prometheus scrapes it.
func StartAt(t testing.TB, addr string, env []string, args ...string) *Process {
	t.Helper()
	p, err := StartBinaryAt(context.Background(), Binary(t), addr, append([]string{"PATH=" + os.Getenv("PATH")}, env...), args...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// WaitReady waits up to 20 s for /-/ready to answer 200, or fails the test.
func (p *Process) WaitReady(t testing.TB) {
	t.Helper()
	if _, err := p.Ready(20 * time.Second); err != nil {
		t.Fatal(err)
	}
}

// Scrape fetches /metrics and returns its samples by series, or fails the
// test.
func (p *Process) Scrape(t testing.TB) map[string]*model.Sample {
	t.Helper()
	samples, err := Samples(http.DefaultClient, p.URL()+"/metrics")
	if err != nil {
		t.Fatalf("scrape: %v", err)
	}
	return samples
}

// Stop sends SIGTERM and fails the test unless the exporter exits with
// status 0 within 10 s.
func (p *Process) Stop(t testing.TB) {
	t.Helper()
	if err := p.Shutdown(10 * time.Second); errors.Is(err, ErrStillRunning) {
		t.Fatalf("no exit within 10s of SIGTERM\n%s", p.Output())
	} else if err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, p.Output())
	}
}

// Kill ends the exporter with SIGKILL: no shutdown save, no clean exit. It
// fails the test unless the process is gone within 10 s.
func (p *Process) Kill(t testing.TB) {
	t.Helper()
	if err := p.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(10 * time.Second); errors.Is(err, ErrStillRunning) {
		t.Fatalf("no exit within 10s of SIGKILL\n%s", p.Output())
	}
}
