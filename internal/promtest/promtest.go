// Package promtest runs a real Prometheus server for tests: it writes a
// configuration that scrapes the given targets under one job and evaluates
// the given rule files, starts the prometheus binary on a free loopback port
// with a data directory of its own, waits for /-/ready, answers instant
// queries and the alert list, and stops the server by its PID when the test
// ends, showing its log if the test failed.
package promtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/common/model"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// Config is what the server scrapes and evaluates.
type Config struct {
	// Job is the job name of every target.
	Job string
	// Targets are host:port addresses scraped at /metrics; each is the
	// instance label of its series.
	Targets []string
	// RuleFiles are evaluated every Interval.
	RuleFiles []string
	// Interval is both the scrape and the evaluation interval.
	Interval time.Duration
}

// Server is a running Prometheus.
type Server struct {
	// URL is the server's base URL, without a trailing slash.
	URL string

	cmd    *exec.Cmd
	output *testsupport.SyncBuffer
	done   chan struct{} // closed when the process has exited
	hc     *http.Client
}

// Start runs the prometheus binary found in PATH (Debian's package installs
// /usr/bin/prometheus) with cfg, and waits up to 30 s for it to be ready. It
// is stopped when the test ends; if the test failed, its log is shown.
func Start(t testing.TB, cfg Config) *Server {
	t.Helper()
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		t.Fatalf("prometheus not found in PATH (Debian: apt-get install prometheus): %v", err)
	}
	addr, err := exportertest.FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	conf := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(conf, []byte(cfg.yaml()), 0o600); err != nil {
		t.Fatal(err)
	}
	s := &Server{URL: "http://" + addr, output: &testsupport.SyncBuffer{}, done: make(chan struct{}),
		hc: &http.Client{Timeout: 5 * time.Second}}
	s.cmd = exec.Command(bin, "--config.file="+conf, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr)
	s.cmd.Stdout, s.cmd.Stderr = s.output, s.output
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("start prometheus: %v", err)
	}
	go func() {
		_ = s.cmd.Wait()
		close(s.done)
	}()
	t.Cleanup(func() {
		s.stop()
		if t.Failed() {
			t.Logf("prometheus (pid %d) log:\n%s", s.cmd.Process.Pid, s.Output())
		}
	})
	if err := s.ready(30 * time.Second); err != nil {
		t.Fatal(err)
	}
	return s
}

// yaml is the configuration file: every target under one job, the rule
// files, one interval for both.
func (cfg Config) yaml() string {
	var b strings.Builder
	fmt.Fprintf(&b, "global:\n  scrape_interval: %s\n  evaluation_interval: %s\n", model.Duration(cfg.Interval), model.Duration(cfg.Interval))
	b.WriteString("rule_files:\n")
	for _, f := range cfg.RuleFiles {
		fmt.Fprintf(&b, "  - %q\n", f)
	}
	fmt.Fprintf(&b, "scrape_configs:\n  - job_name: %q\n    static_configs:\n      - targets:\n", cfg.Job)
	for _, t := range cfg.Targets {
		fmt.Fprintf(&b, "          - %q\n", t)
	}
	return b.String()
}

// ready polls /-/ready until it answers 200; it gives up after timeout or
// when the process exits.
func (s *Server) ready(timeout time.Duration) error {
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if resp, err := s.hc.Get(s.URL + "/-/ready"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-s.done:
			return errors.New("prometheus exited before it was ready")
		default:
		}
	}
	return fmt.Errorf("prometheus not ready within %s", timeout)
}

// Output is everything the server logged so far.
func (s *Server) Output() string { return s.output.String() }

// stop sends SIGTERM to the server's PID and waits up to 10 s for it to
// exit, then kills it.
func (s *Server) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
}

// Alert is one alert as /api/v1/alerts lists it.
type Alert struct {
	Labels map[string]string `json:"labels"`
	// State is "pending" or "firing".
	State    string    `json:"state"`
	ActiveAt time.Time `json:"activeAt"`
	Value    string    `json:"value"`
}

// Alerts lists the alerts pending or firing now.
func (s *Server) Alerts() ([]Alert, error) {
	var data struct {
		Alerts []Alert `json:"alerts"`
	}
	err := s.get("/api/v1/alerts", &data)
	return data.Alerts, err
}

// Query evaluates expr at time at.
func (s *Server) Query(expr string, at time.Time) (model.Vector, error) {
	var data struct {
		ResultType string       `json:"resultType"`
		Result     model.Vector `json:"result"`
	}
	q := url.Values{"query": {expr}, "time": {fmt.Sprintf("%.3f", float64(at.UnixMilli())/1000)}}
	if err := s.get("/api/v1/query?"+q.Encode(), &data); err != nil {
		return nil, err
	}
	if data.ResultType != "vector" {
		return nil, fmt.Errorf("query %s: result type %q, want vector", expr, data.ResultType)
	}
	return data.Result, nil
}

// get decodes the data of the API answer at path into v.
func (s *Server) get(path string, v any) error {
	resp, err := s.hc.Get(s.URL + path)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var body struct {
		Status string          `json:"status"`
		Error  string          `json:"error"`
		Data   json.RawMessage `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return fmt.Errorf("GET %s: status %d: %w", path, resp.StatusCode, err)
	}
	if body.Status != "success" {
		return fmt.Errorf("GET %s: status %d: %s", path, resp.StatusCode, body.Error)
	}
	return json.Unmarshal(body.Data, v)
}
