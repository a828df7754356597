package e2e

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
)

// An http:// exchange URL to a host that is not loopback is refused, by
// --config.check and at start, naming the flag and its fix; with
// --woox.allow-plain-http it is accepted, and loopback needs no flag. No
// test connects anywhere but loopback: the refused starts exit before any
// request, and the allowed one reaches its remote name through a proxy
// on loopback.
func TestPlainHTTPToARemoteExchangeIsRefusedUnlessAllowed(t *testing.T) {
	bin := exportertest.Binary(t)
	for _, url := range []string{"http://api.woox.invalid", "http://192.0.2.1", "http://[2001:db8::1]:8080"} {
		out, err := exec.Command(bin, "--config.check", "--woox.api-url="+url).CombinedOutput()
		if err == nil || !strings.Contains(string(out), "--woox.api-url "+url) || !strings.Contains(string(out), "--woox.allow-plain-http") {
			t.Errorf("--config.check with %s: %v, want a refusal naming --woox.api-url and --woox.allow-plain-http\n%s", url, err, out)
		}
		if out, err := exec.Command(bin, "--config.check", "--woox.api-url="+url, "--woox.allow-plain-http").CombinedOutput(); err != nil {
			t.Errorf("--config.check with %s and --woox.allow-plain-http: %v\n%s", url, err, out)
		}
	}
	for _, url := range []string{"http://127.0.0.1:1", "http://127.8.9.10:1", "http://[::1]:1", "http://localhost:1"} {
		if out, err := exec.Command(bin, "--config.check", "--woox.api-url="+url).CombinedOutput(); err != nil {
			t.Errorf("--config.check with loopback %s: %v\n%s", url, err, out)
		}
	}

	// At start, with an account whose key would be sent; a proxy that
	// listens nowhere keeps even a wrongly accepted start on loopback.
	dir := t.TempDir()
	cfg := accountsConfig(t, dir, "main")
	p := exportertest.Start(t, append([]string{"HTTP_PROXY=http://127.0.0.1:1"}, defaultSecrets...), "--woox.api-url=http://192.0.2.1", "--config.file="+cfg)
	if err := p.Wait(10 * time.Second); err == nil || errors.Is(err, exportertest.ErrStillRunning) {
		t.Fatalf("start with http://192.0.2.1: %v, want an exit with an error\n%s", err, p.Output())
	}
	if !strings.Contains(p.Output(), "--woox.allow-plain-http") {
		t.Errorf("the refusal does not name --woox.allow-plain-http:\n%s", p.Output())
	}

	// Allowed, the remote name is reached through a proxy on loopback.
	proxy := serveFake(t, startFake(t))
	p = exportertest.Start(t, append([]string{"HTTP_PROXY=" + proxy}, defaultSecrets...),
		"--woox.api-url=http://api.woox.invalid", "--woox.allow-plain-http", "--config.file="+cfg)
	p.WaitReady(t)
	if v := value(t, p.Scrape(t), `woox_poll_success{account="main", endpoint="credentials"}`); v != 1 {
		t.Errorf("credentials poll through the allowed plain http: success %v, want 1\n%s", v, p.Output())
	}
	p.Stop(t)

	// Loopback over http needs no flag.
	p = exportertest.Start(t, defaultSecrets, "--woox.api-url="+serveFake(t, startFake(t)), "--config.file="+cfg)
	p.WaitReady(t)
	p.Stop(t)
}
