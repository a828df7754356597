// Package promtest runs a real Prometheus server, and a real Alertmanager,
// for tests: each is started from Debian's binary on a free loopback port
// with a configuration and a data directory of its own, waited for until
// /-/ready answers, queried over its HTTP API, and stopped by its PID when
// the test ends, showing the tail of its log if the test failed.
package promtest

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/model"
)

// Config is what the server scrapes and evaluates.
type Config struct {
	// Jobs are scraped at /metrics, each target under its job's name.
	Jobs []Job
	// RuleFiles are evaluated every Interval.
	RuleFiles []string
	// Interval is both the scrape and the evaluation interval.
	Interval time.Duration
	// Alertmanagers, host:port each, receive the alerts that fire.
	Alertmanagers []string
	// DataDir is the TSDB directory; a new temporary one when empty. A
	// test that needs a past writes it there first (Backfill).
	DataDir string
}

// Job is one scrape job.
type Job struct {
	Name string
	// Targets are host:port addresses; each is the instance label of its
	// series.
	Targets []string
}

// Server is a running Prometheus.
type Server struct {
	*daemon
}

// Start runs the prometheus binary found in PATH (Debian's package installs
// /usr/bin/prometheus) with cfg, and waits up to 30 s for it to be ready. It
// is stopped when the test ends; if the test failed, its log is shown.
func Start(t testing.TB, cfg Config) *Server {
	t.Helper()
	bin := lookPath(t, "prometheus", "prometheus")
	addr := freeAddr(t)
	dir := t.TempDir()
	conf := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(conf, []byte(cfg.yaml()), 0o600); err != nil {
		t.Fatal(err)
	}
	data := cfg.DataDir
	if data == "" {
		data = filepath.Join(dir, "data")
	}
	return &Server{startDaemon(t, "prometheus", addr, bin, "--config.file="+conf,
		"--storage.tsdb.path="+data, "--web.listen-address="+addr)}
}

// Restart stops Prometheus with SIGTERM, as a rollout does, starts it again
// away later on the same address, configuration and data, and waits up to
// 30 s for it to be ready. Other goroutines may keep calling Alerts and
// Query meanwhile: they fail while it is down.
func (s *Server) Restart(away time.Duration) error { return s.restart(away) }

// Backfill writes the samples of openMetrics (the OpenMetrics text format,
// each sample with its timestamp, ending in "# EOF") into the TSDB
// directory dataDir as blocks, with promtool (Debian's prometheus
// package), for a Prometheus started on it afterwards.
func Backfill(t testing.TB, dataDir string, openMetrics []byte) {
	t.Helper()
	promtool := lookPath(t, "promtool", "prometheus")
	in := filepath.Join(t.TempDir(), "backfill.om")
	if err := os.WriteFile(in, openMetrics, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(promtool, "tsdb", "create-blocks-from", "openmetrics", in, dataDir).CombinedOutput(); err != nil {
		t.Fatalf("promtool tsdb create-blocks-from openmetrics: %v\n%s", err, out)
	}
}

// yaml is the configuration file: the jobs, the rule files, the
// Alertmanagers, one interval for both scrapes and rules.
func (cfg Config) yaml() string {
	var b strings.Builder
	fmt.Fprintf(&b, "global:\n  scrape_interval: %s\n  evaluation_interval: %s\n", model.Duration(cfg.Interval), model.Duration(cfg.Interval))
	b.WriteString("rule_files:\n")
	for _, f := range cfg.RuleFiles {
		fmt.Fprintf(&b, "  - %q\n", f)
	}
	if len(cfg.Alertmanagers) > 0 {
		b.WriteString("alerting:\n  alertmanagers:\n    - static_configs:\n        - targets:\n")
		for _, a := range cfg.Alertmanagers {
			fmt.Fprintf(&b, "            - %q\n", a)
		}
	}
	b.WriteString("scrape_configs:\n")
	for _, j := range cfg.Jobs {
		fmt.Fprintf(&b, "  - job_name: %q\n    static_configs:\n      - targets:\n", j.Name)
		for _, t := range j.Targets {
			fmt.Fprintf(&b, "          - %q\n", t)
		}
	}
	return b.String()
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
