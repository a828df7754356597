package collector

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-kit/log"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// Once every poller has finished its first poll, one info line says so and
// how long it took; later polls add none.
func TestFirstPollsDoneIsLoggedOnce(t *testing.T) {
	r := newTestRig(t)
	e := newExporter(t, testConfig(r))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { e.Run(ctx); close(done) }()
	testsupport.WaitFor(t, "the first polls' line", func() bool { return strings.Contains(r.logs.String(), "first polls done") })
	cancel()
	<-done
	for _, p := range e.pollers {
		p.pollOnce(context.Background())
	}
	logs := r.logs.String()
	if n := strings.Count(logs, `msg="first polls done"`); n != 1 {
		t.Fatalf("%d lines say the first polls are done, want 1:\n%s", n, logs)
	}
	for _, want := range []string{" took=", fmt.Sprintf(" pollers=%d failed=0", len(e.pollers))} {
		if !strings.Contains(logs, want) {
			t.Errorf("the first polls' line lacks %q:\n%s", want, logs)
		}
	}
}

// A poll that succeeds after failed ones logs one info line with how long
// and how many polls it failed; a success after a success logs nothing.
func TestRecoveryIsLoggedOnceWithHowLongItFailed(t *testing.T) {
	clock := testsupport.NewClock(historyNow)
	fail := false
	p := testPoller(endpoint.Balances, "main", func(context.Context, func()) (leftOut, error) {
		if fail {
			return leftOut{}, errors.New("connection refused")
		}
		return leftOut{}, nil
	}, historyNow)
	p.now = clock.Now
	var logs testsupport.SyncBuffer
	p.logger = log.NewLogfmtLogger(&logs)
	p.pollOnce(context.Background())
	if strings.Contains(logs.String(), "recovered") {
		t.Fatalf("a first poll that succeeded logs a recovery:\n%s", logs.String())
	}
	for range 2 {
		fail = true
		for range 3 {
			p.pollOnce(context.Background())
			clock.Add(time.Minute)
		}
		fail = false
		p.pollOnce(context.Background())
		p.pollOnce(context.Background())
	}
	want := `msg="poll recovered" endpoint=balances account=main failed_for=3m0s failed_polls=3`
	if n := strings.Count(logs.String(), want); n != 2 {
		t.Errorf("%d lines %s after two runs of 3 failures, want 2:\n%s", n, want, logs.String())
	}
	if n := strings.Count(logs.String(), "recovered"); n != 2 {
		t.Errorf("%d recoveries logged, want 2:\n%s", n, logs.String())
	}
}

// An https connection that fails (here an https URL pointed at a plain-http
// server) is counted as reason tls, logged at error once with what to
// check, and named by the readiness check and the first polls' line.
func TestTLSFailureIsNamedOnceWithWhatToCheck(t *testing.T) {
	plain := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(plain.Close)
	api, err := client.New(client.Config{BaseURL: strings.Replace(plain.URL, "http://", "https://", 1), Account: "main",
		APIKey: ownKey, APISecret: ownSecret, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	p := testPoller(endpoint.Balances, "main", func(ctx context.Context, _ func()) (leftOut, error) {
		_, _, err := api.Balances(ctx)
		return leftOut{}, err
	}, historyNow)
	var logs testsupport.SyncBuffer
	p.logger = log.NewLogfmtLogger(&logs)
	e := &Exporter{pollers: []*poller{p}, logger: p.logger}
	first := e.firstPolls(historyNow)
	p.firstPolled = first
	for range 3 {
		p.pollOnce(context.Background())
	}

	if got := p.lastStatus().failures[slices.Index(failureReasons[:], "tls")]; got != 3 {
		t.Errorf("tls failures = %d after 3 polls, want 3 (%v)", got, p.lastStatus().failures)
	}
	const errorLine = `level=error msg="no trusted https connection to the exchange: the URL is https but the server answers plain http: check the scheme of --woox.api-url"`
	if n := strings.Count(logs.String(), errorLine); n != 1 {
		t.Errorf("%d error lines naming the TLS failure and its fix after 3 polls, want 1:\n%s", n, logs.String())
	}
	if n := strings.Count(logs.String(), `level=warn msg="poll failed"`); n != 2 {
		t.Errorf("%d warnings after the first, want 2:\n%s", n, logs.String())
	}
	if !strings.Contains(logs.String(), `msg="first polls done"`) || !strings.Contains(logs.String(), `failed=1 why="tls 1; the URL is https`) {
		t.Errorf("the first polls' line does not name the TLS failure:\n%s", logs.String())
	}
	if note := e.ReadyNote(); note != "1 of 1 pollers failed their last poll: tls 1; the URL is https but the server answers plain http: check the scheme of --woox.api-url" {
		t.Errorf("ReadyNote() = %q", note)
	}
}
