package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/common/model"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// A key's access changed while the exporter was down (killed with SIGKILL)
// is counted once, by the first poll after the restart; a restart counts
// nothing again, and counters never go back. The addresses reach neither
// /metrics, nor the log, nor the state file.
func TestBinaryCountsAKeysAccessChangedWhileDownOnce(t *testing.T) {
	fake := startFake(t)
	url := serveFake(t, fake)
	dir := t.TempDir()
	state := filepath.Join(dir, "woox.json")
	cfg := accountsConfig(t, dir, "main")
	start := func() *exportertest.Process {
		p := exportertest.Start(t, defaultSecrets, "--woox.api-url="+url, "--config.file="+cfg, "--token-history.state-file="+state)
		p.WaitReady(t) // every poller polled once: the credentials too
		return p
	}
	setAccess := func(key string, permissions, ips []string) {
		t.Helper()
		// nil leaves a field as it was
		ev := fakeexchange.Change[fakeexchange.Key]{Account: "main", Row: fakeexchange.Key{APIKey: key, Permissions: permissions, AllowedIPs: ips}}
		if err := fake.Apply(fakeexchange.Event{Key: &ev}); err != nil {
			t.Fatal(err)
		}
	}
	setAccess(fakeexchange.DefaultMainTradeKey, nil, []string{"10.0.0.1"})

	p := start()
	s := p.Scrape(t)
	// The trade key is main's only key without READ; the keys mask alike,
	// so its label carries a suffix.
	var label string
	for _, smp := range s {
		if smp.Metric[model.MetricNameLabel] == "woox_api_key_permission" && smp.Metric["permission"] == "READ" && smp.Value == 0 {
			label = string(smp.Metric["api_key"])
		}
	}
	if label == "" {
		t.Fatalf("no key of main without READ:\n%s", p.Output())
	}
	series := func(metric string) string { return metric + `{account="main", api_key="` + label + `"}` }
	ips, perms := series("woox_api_key_allowed_ips_changes_total"), series("woox_api_key_permission_changes_total")
	want := func(s map[string]*model.Sample, run string, wantIPs, wantPerms float64) {
		t.Helper()
		if gotIPs, gotPerms := value(t, s, ips), value(t, s, perms); gotIPs != wantIPs || gotPerms != wantPerms {
			t.Errorf("%s: allowed IPs changes %v, permission changes %v; want %v and %v", run, gotIPs, gotPerms, wantIPs, wantPerms)
		}
	}
	want(s, "first run, first sight", 0, 0)
	p.Kill(t)

	// While down: the one address swapped, a permission added; the read
	// key's (the exporter's own) addresses in another order.
	setAccess(fakeexchange.DefaultMainTradeKey, []string{"TRADE", "WITHDRAWAL"}, []string{"6.6.6.6"})
	setAccess(fakeexchange.DefaultMainReadKey, nil, []string{"::1", "127.0.0.1"})
	p = start()
	s = p.Scrape(t)
	want(s, "first poll after the change made while down", 1, 1)
	if v := value(t, s, series("woox_api_key_allowed_ips")); v != 1 {
		t.Errorf("woox_api_key_allowed_ips = %v, want 1: the swap moves no gauge", v)
	}
	for k, smp := range s {
		if strings.Contains(k, "woox_api_key_allowed_ips_changes_total") && k != ips && smp.Value != 0 {
			t.Errorf("%s = %v: a reorder counted", k, smp.Value)
		}
	}
	p.Kill(t)

	logs := p.Output()
	if !strings.Contains(logs, `msg="an API key's allowed IPs or permissions changed"`) {
		t.Errorf("the change is not logged:\n%s", logs)
	}
	p = start()
	want(p.Scrape(t), "restarted, nothing changed", 1, 1)
	_, metrics, err := p.Get("/metrics")
	if err != nil {
		t.Fatal(err)
	}
	p.Stop(t)

	b, err := os.ReadFile(state)
	if err != nil {
		t.Fatal(err)
	}
	for _, where := range []struct{ name, text string }{
		{"the state file", string(b)}, {"the log", logs + p.Output()}, {"/metrics", metrics},
	} {
		for _, secret := range []string{"10.0.0.1", "6.6.6.6", fakeexchange.DefaultMainTradeKey} {
			if strings.Contains(where.text, secret) {
				t.Errorf("%s holds %s", where.name, secret)
			}
		}
	}
}
