package e2e

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/common/model"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// reloadRig is the binary watching accounts listed in a config file whose
// secrets are files, so that a test can change both while it runs.
type reloadRig struct {
	fake   *fakeexchange.Exchange
	dir    string
	config string
	p      *exportertest.Process
}

// writeAccounts writes the config file listing accounts (name → key) with
// their secrets from secrets (name → secret), each in a 0600 file.
func (r *reloadRig) writeAccounts(t *testing.T, keys, secrets map[string]string, names ...string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("accounts:\n")
	for _, n := range names {
		path := filepath.Join(r.dir, n+".secret")
		if err := os.WriteFile(path, []byte(secrets[n]+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "  - name: %s\n    api_key: %q\n    api_secret_file: %s\n", n, keys[n], path)
	}
	if err := os.WriteFile(r.config, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
}

// waitFor scrapes until ok holds, or fails the test naming what.
func (r *reloadRig) waitFor(t *testing.T, what string, ok func(map[string]*model.Sample) bool) map[string]*model.Sample {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		s := r.p.Scrape(t)
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 30 s\n%s", what, tail(r.p.Output(), 30))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (r *reloadRig) post(t *testing.T, method string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, r.p.URL()+"/-/reload", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// An account added by SIGHUP is polled, the counters of an account kept
// continue (same process, no state file: handed off in memory), a rotated
// secret signs the next request after POST /-/reload, and a broken file
// changes nothing but the reload metric.
func TestBinaryReloadsAccountsWithoutARestart(t *testing.T) {
	fake, err := fakeexchange.New(fakeexchange.DefaultScenario(), fakeexchange.WithRateLimit(100, time.Second))
	if err != nil {
		t.Fatal(err)
	}
	url := serveFake(t, fake)
	dir := t.TempDir()
	r := &reloadRig{fake: fake, dir: dir, config: filepath.Join(dir, "accounts.yml")}
	keys := map[string]string{"main": fakeexchange.DefaultMainReadKey, "sub": fakeexchange.DefaultSubKey}
	secrets := map[string]string{"main": fakeexchange.DefaultMainReadSecret, "sub": fakeexchange.DefaultSubSecret}
	r.writeAccounts(t, keys, secrets, "main")
	// A lookback of 2 s: what main counted before the reload is older than
	// that by then, and only the handed-over ledger still holds it.
	r.p = exportertest.Start(t, nil, append([]string{"--woox.api-url=" + url, "--config.file=" + r.config,
		"--api.rate-limit=100/1s", "--web.enable-lifecycle", "--token-history.lookback=2s", "--token-history.overlap=1s"},
		exportertest.IntervalFlags(500*time.Millisecond)...)...)
	r.p.WaitReady(t)
	pid := r.p.Pid()
	const mainDeposit = `woox_token_history_inflow_total{account="main", token="TST", transaction_type="DEPOSIT"}`
	if err := fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main",
		Records: []fakeexchange.HistoryRecord{{ID: 7001, Type: "DEPOSIT", Token: "TST", Amount: "3.5", Timestamp: time.Now().UnixMilli()}}}}); err != nil {
		t.Fatal(err)
	}
	before := r.waitFor(t, "main's record counted", func(s map[string]*model.Sample) bool { return valueIs(s, mainDeposit, 3.5) })
	startTime := value(t, before, "process_start_time_seconds")
	time.Sleep(3 * time.Second)

	// Another record, then sub added by SIGHUP.
	if err := fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main",
		Records: []fakeexchange.HistoryRecord{{ID: 7002, Type: "DEPOSIT", Token: "TST", Amount: "1.25", Timestamp: time.Now().UnixMilli()}}}}); err != nil {
		t.Fatal(err)
	}
	r.writeAccounts(t, keys, secrets, "main", "sub")
	if err := r.p.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	const subPolled = `woox_poll_success{account="sub", endpoint="token_history"}`
	s := r.waitFor(t, "sub polled after SIGHUP", func(s map[string]*model.Sample) bool {
		return valueIs(s, subPolled, 1) && valueIs(s, "woox_exporter_accounts", 2)
	})
	if r.p.Exited() || r.p.Pid() != pid || value(t, s, "process_start_time_seconds") != startTime {
		t.Fatalf("the process did not survive the SIGHUP\n%s", r.p.Output())
	}
	// The withdrawals counted before the reload are still counted after it.
	counted := 0.0
	for series, b := range before {
		if string(b.Metric[model.MetricNameLabel]) == "woox_wallet_withdrawals_total" && b.Metric["account"] == "main" {
			counted += float64(b.Value)
			if a, ok := s[series]; !ok || a.Value < b.Value {
				t.Errorf("%s: %v before the reload, %v after", series, b.Value, a)
			}
		}
	}
	if counted == 0 {
		t.Error("main counted no withdrawal before the reload: the check above proves nothing")
	}
	if v := value(t, s, "woox_exporter_config_last_reload_successful"); v != 1 {
		t.Errorf("woox_exporter_config_last_reload_successful = %v after a good reload", v)
	}
	// main's counter continued: 3.5 from before the reload, 1.25 after.
	s = r.waitFor(t, "main's second record counted", func(s map[string]*model.Sample) bool {
		return value(t, s, mainDeposit) != 3.5
	})
	if got := value(t, s, mainDeposit); got != 4.75 {
		t.Errorf("%s = %v after the reload, want 4.75 (3.5 before it, 1.25 after)", mainDeposit, got)
	}

	// main's secret rotated at the exchange: polls fail until the reload.
	if err := fake.Apply(fakeexchange.Event{Key: &fakeexchange.Change[fakeexchange.Key]{Account: "main", Row: fakeexchange.Key{APIKey: keys["main"], APISecret: "ROTATEDMAINSECRET0000000009"}}}); err != nil {
		t.Fatal(err)
	}
	const mainCreds = `woox_poll_success{account="main", endpoint="credentials"}`
	r.waitFor(t, "main failing with the old secret", func(s map[string]*model.Sample) bool { return valueIs(s, mainCreds, 0) })
	secrets["main"] = "ROTATEDMAINSECRET0000000009"
	r.writeAccounts(t, keys, secrets, "main", "sub")
	if code, body := r.post(t, http.MethodPost); code != http.StatusOK {
		t.Fatalf("POST /-/reload: %d %s", code, body)
	}
	r.waitFor(t, "main polled with the rotated secret", func(s map[string]*model.Sample) bool { return valueIs(s, mainCreds, 1) })

	// A broken file changes nothing; the reload metric says so.
	if err := os.WriteFile(r.config, []byte("accounts:\n  - name: main\n    api_key: [unclosed\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, body := r.post(t, http.MethodPost)
	if code != http.StatusInternalServerError || !strings.Contains(body, "accounts.yml") {
		t.Errorf("POST /-/reload of a broken file: %d %q, want 500 naming the file", code, body)
	}
	if err := r.p.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	s = r.waitFor(t, "reload metric at 0", func(s map[string]*model.Sample) bool {
		return valueIs(s, "woox_exporter_config_last_reload_successful", 0)
	})
	since := value(t, s, `woox_poll_last_success_timestamp_seconds{account="sub", endpoint="token_history"}`)
	r.waitFor(t, "both accounts still polled after the failed reload", func(s map[string]*model.Sample) bool {
		return valueIs(s, "woox_exporter_accounts", 2) && valueIs(s, mainCreds, 1) &&
			value(t, s, `woox_poll_last_success_timestamp_seconds{account="sub", endpoint="token_history"}`) > since
	})
	if !strings.Contains(r.p.Output(), `msg="configuration reload failed; the configuration before it stays in use"`) {
		t.Errorf("no error line for the failed reload:\n%s", tail(r.p.Output(), 20))
	}
	if code, _ := r.post(t, http.MethodGet); code != http.StatusMethodNotAllowed {
		t.Errorf("GET /-/reload: %d, want 405", code)
	}
	r.p.Stop(t)
}

// Without --web.enable-lifecycle, /-/reload is refused: whoever reaches the
// port cannot make the exporter read its files. SIGHUP still reloads, and
// names a flag that changed in an @file argument without applying it.
func TestBinaryRefusesReloadOverHTTPWithoutTheFlag(t *testing.T) {
	fake := startFake(t)
	url := serveFake(t, fake)
	dir := t.TempDir()
	r := &reloadRig{fake: fake, dir: dir, config: accountsConfig(t, dir, "main")}
	args := filepath.Join(dir, "args")
	writeArgs := func(level string) {
		t.Helper()
		if err := os.WriteFile(args, []byte("--woox.api-url="+url+"\n--config.file="+r.config+"\n--log.level="+level+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	writeArgs("info")
	r.p = exportertest.Start(t, defaultSecrets, "@"+args)
	r.p.WaitReady(t)
	if code, body := r.post(t, http.MethodPost); code != http.StatusForbidden {
		t.Errorf("POST /-/reload without --web.enable-lifecycle: %d %q, want 403", code, body)
	}
	reloads := func() int { return strings.Count(r.p.Output(), `msg="configuration reloaded"`) }
	const changed = `msg="flags changed since start are not applied by a reload; restart to change them" flags=--log.level`
	for i, level := range []string{"info", "debug"} {
		writeArgs(level)
		if err := r.p.Signal(syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
		r.waitFor(t, "a reload on SIGHUP", func(map[string]*model.Sample) bool { return reloads() == i+1 })
		if warned := strings.Contains(r.p.Output(), changed); warned != (level == "debug") {
			t.Errorf("--log.level=%s in the @file: warned %v that it changed\n%s", level, warned, tail(r.p.Output(), 10))
		}
	}
	if r.p.Exited() {
		t.Fatalf("SIGHUP ended the exporter\n%s", r.p.Output())
	}
	if strings.Contains(r.p.Output(), "level=debug") {
		t.Error("a reload applied --log.level=debug")
	}
	r.p.Stop(t)
}
