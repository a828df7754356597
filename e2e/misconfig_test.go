package e2e

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// A mistyped variable leaves the account unwatched: the binary names each
// WOOX_ variable it does not read (never its value), says at warn that no
// account is watched and how to add one, and woox_exporter_accounts reads 0.
func TestMistypedVariablesAreNamedNotTheirValues(t *testing.T) {
	url := serveFake(t, startFake(t))
	p := exportertest.Start(t, []string{"WOOX_APIKEY=" + fakeexchange.DefaultMainReadKey, "WOOX_SECRET=" + fakeexchange.DefaultMainReadSecret},
		"--woox.api-url="+url)
	p.WaitReady(t)
	if got := value(t, p.Scrape(t), "woox_exporter_accounts"); got != 0 {
		t.Errorf("woox_exporter_accounts = %v, want 0", got)
	}
	p.Stop(t)
	out := p.Output()
	for _, want := range []string{"level=warn", "variable=WOOX_APIKEY", "variable=WOOX_SECRET", `msg="no account configured`, "WOOX_API_KEY"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
	for _, secret := range []string{fakeexchange.DefaultMainReadKey, fakeexchange.DefaultMainReadSecret} {
		if strings.Contains(out, secret) {
			t.Errorf("log shows a variable's value %q:\n%s", secret, out)
		}
	}
}

// --config.check warns of a WOOX_ variable it does not read with the very
// line a start logs, beside its "configuration OK": a check that passes a
// mistyped name would let the account go unwatched.
func TestConfigCheckWarnsOfUnreadVariablesAsAStartDoes(t *testing.T) {
	env := []string{"WOOX_APIKEY=" + fakeexchange.DefaultMainReadKey, "WOOX_API_SECRETFILE=/run/secret"}
	url := serveFake(t, startFake(t))
	p := exportertest.Start(t, env, "--woox.api-url="+url)
	p.WaitReady(t)
	p.Stop(t)
	cmd := exec.Command(exportertest.Binary(t), "--config.check", "--woox.api-url="+url)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "configuration OK: 0 account(s)") {
		t.Fatalf("--config.check: %v\n%s", err, out)
	}
	warnings := func(log string) []string {
		var lines []string
		for line := range strings.Lines(log) {
			if strings.Contains(line, "not read by the exporter") {
				lines = append(lines, logTime.ReplaceAllString(line, ""))
			}
		}
		return lines
	}
	start, check := warnings(p.Output()), warnings(string(out))
	if len(start) != 2 || strings.Join(start, "") != strings.Join(check, "") {
		t.Errorf("--config.check warns\n%s\nthe start warns\n%s", check, start)
	}
	if strings.Contains(string(out), fakeexchange.DefaultMainReadKey) {
		t.Errorf("--config.check shows a variable's value:\n%s", out)
	}
}

// logTime is a log line's time and caller, which differ from run to run.
var logTime = regexp.MustCompile(`(time|ts|caller)=\S+ `)

// woox_exporter_accounts counts the accounts watched; variables the config
// file names are read, and not warned about.
func TestAccountsWatchedAreCounted(t *testing.T) {
	url := serveFake(t, startFake(t))
	p := exportertest.Start(t, defaultSecrets, "--woox.api-url="+url, "--config.file="+accountsConfig(t, t.TempDir(), "main", "sub"))
	p.WaitReady(t)
	if got := value(t, p.Scrape(t), "woox_exporter_accounts"); got != 2 {
		t.Errorf("woox_exporter_accounts = %v, want 2", got)
	}
	p.Stop(t)
	if out := p.Output(); strings.Contains(out, "not read by the exporter") || strings.Contains(out, "no account configured") {
		t.Errorf("warned with two accounts watched:\n%s", out)
	}
}
