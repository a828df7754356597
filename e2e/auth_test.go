package e2e

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// A key the exchange refuses on every poll (here revoked while the exporter
// runs) is its own failure: woox_poll_failures_total{reason="auth"} counts
// it, and the first refusal of each endpoint is logged at error with what to
// check, the later ones at warn.
func TestRejectedKeyIsAnAuthFailureLoggedOnceAtError(t *testing.T) {
	fake := startFake(t)
	url := serveFake(t, fake)
	p := exportertest.Start(t, []string{"WOOX_API_KEY=" + fakeexchange.DefaultMainReadKey, "WOOX_API_SECRET=" + fakeexchange.DefaultMainReadSecret},
		"--woox.api-url="+url, "--positions.interval=1s")
	p.WaitReady(t)
	if err := fake.Apply(fakeexchange.Event{Key: &fakeexchange.Change[fakeexchange.Key]{Account: "main", Row: fakeexchange.Key{APIKey: fakeexchange.DefaultMainReadKey}, Remove: true}}); err != nil {
		t.Fatal(err)
	}
	const refused = `woox_poll_failures_total{account="default", endpoint="positions", reason="auth"}`
	testsupport.WaitFor(t, "three refused positions polls", func() bool {
		time.Sleep(100 * time.Millisecond)
		s, err := exportertest.Samples(http.DefaultClient, p.URL()+"/metrics")
		return err == nil && s[refused] != nil && s[refused].Value >= 3
	})
	samples := p.Scrape(t)
	if got := value(t, samples, `woox_poll_success{account="default", endpoint="positions"}`); got != 0 {
		t.Errorf("positions poll success = %v, want 0", got)
	}
	if got := value(t, samples, `woox_poll_failures_total{account="default", endpoint="positions", reason="transient"}`); got != 0 {
		t.Errorf("refusals counted as transient: %v", got)
	}
	p.Stop(t)
	var errorLines, positionsErrors int
	for line := range strings.Lines(p.Output()) {
		if !strings.Contains(line, "level=error") {
			continue
		}
		errorLines++
		if !strings.Contains(line, "refused the API key") || !strings.Contains(line, "IP restriction") {
			t.Errorf("error line without what to check: %s", line)
		}
		if strings.Contains(line, "endpoint=positions") {
			positionsErrors++
		}
	}
	if positionsErrors != 1 {
		t.Errorf("%d error lines for positions over at least 3 refused polls, want 1:\n%s", positionsErrors, p.Output())
	}
	if errorLines == 0 {
		t.Error("no error line")
	}
}
