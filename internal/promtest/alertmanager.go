package promtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"testing"
)

// Alertmanager is a running Alertmanager.
type Alertmanager struct {
	*daemon
}

// StartAlertmanager runs the prometheus-alertmanager binary found in PATH
// (Debian's package) with config as its configuration file, clustering off,
// and waits up to 30 s for it to be ready. It is stopped when the test ends;
// if the test failed, its log is shown.
func StartAlertmanager(t testing.TB, config string) *Alertmanager {
	t.Helper()
	bin := lookPath(t, "prometheus-alertmanager", "prometheus-alertmanager")
	addr := freeAddr(t)
	dir := t.TempDir()
	conf := filepath.Join(dir, "alertmanager.yml")
	if err := os.WriteFile(conf, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	return &Alertmanager{startDaemon(t, "alertmanager", addr, bin, "--config.file="+conf,
		"--storage.path="+filepath.Join(dir, "data"), "--web.listen-address="+addr, "--cluster.listen-address=")}
}

// Addr is where Alertmanager listens, host:port, as Prometheus's
// configuration names it.
func (a *Alertmanager) Addr() string { return a.URL[len("http://"):] }

// AlertmanagerAlert is one alert as /api/v2/alerts lists it.
type AlertmanagerAlert struct {
	Labels map[string]string `json:"labels"`
	Status struct {
		// State is "active", "suppressed" or "unprocessed".
		State       string   `json:"state"`
		InhibitedBy []string `json:"inhibitedBy"`
		SilencedBy  []string `json:"silencedBy"`
	} `json:"status"`
}

// Alerts lists the alerts that filter selects: the query parameters of
// /api/v2/alerts (active, silenced, inhibited, unprocessed: "true" or
// "false"; all of them when empty).
func (a *Alertmanager) Alerts(filter url.Values) ([]AlertmanagerAlert, error) {
	resp, err := a.hc.Get(a.URL + "/api/v2/alerts?" + filter.Encode())
	if err != nil {
		return nil, err
	}
	var alerts []AlertmanagerAlert
	return alerts, decode(resp, "GET /api/v2/alerts", &alerts)
}

// Post sends alerts, each given by its labels, as Prometheus would: they
// stay active until Alertmanager's resolve timeout unless posted again.
func (a *Alertmanager) Post(alerts []map[string]string) error {
	body := make([]struct {
		Labels map[string]string `json:"labels"`
	}, len(alerts))
	for i, l := range alerts {
		body[i].Labels = l
	}
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	resp, err := a.hc.Post(a.URL+"/api/v2/alerts", "application/json", bytes.NewReader(b))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("POST /api/v2/alerts: status %d", resp.StatusCode)
	}
	return nil
}
