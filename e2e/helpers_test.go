// Package e2e tests the woox_exporter binary as users run it: built from
// the module's main package, started as a process against the fake exchange,
// read over HTTP and through the files it writes (internal/exportertest).
package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/common/model"

	"github.com/woox-exporter/woox_exporter/collector"
	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/ledger"
	"github.com/woox-exporter/woox_exporter/statefile"
)

// startFake is a fake exchange holding the default scenario.
func startFake(t *testing.T) *fakeexchange.Exchange {
	t.Helper()
	fake, err := fakeexchange.New(fakeexchange.DefaultScenario())
	if err != nil {
		t.Fatal(err)
	}
	return fake
}

// eachCapturedEncoding runs test against the fake holding the default scenario,
// served in the encoding captured and with every number a string (the
// encoding real answers drifted to in October 2025).
func eachCapturedEncoding(t *testing.T, test func(t *testing.T, url string)) {
	for _, mode := range []struct {
		name  string
		apply func(*fakeexchange.Scenario)
	}{
		{"captured shapes", func(*fakeexchange.Scenario) {}},
		{"every number a string", func(s *fakeexchange.Scenario) { s.NumbersAsStrings = true }},
	} {
		t.Run(mode.name, func(t *testing.T) {
			s := fakeexchange.DefaultScenario()
			mode.apply(s)
			fake, err := fakeexchange.New(s)
			if err != nil {
				t.Fatal(err)
			}
			test(t, serveFake(t, fake))
		})
	}
}

// serveFake serves h on a loopback port until the test ends and returns
// its URL.
func serveFake(t *testing.T, h http.Handler) string {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// writeSecret writes secret to a file of mode 0600 and returns its path.
func writeSecret(t *testing.T, secret string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(path, []byte(secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// freeAddr returns a loopback address whose port was free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	addr, err := exportertest.FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	return addr
}

// accountsConfig writes a config file watching the default scenario's
// accounts named in names ("main", "sub").
func accountsConfig(t *testing.T, dir string, names ...string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("accounts:\n")
	for _, n := range names {
		switch n {
		case "main":
			fmt.Fprintf(&b, "  - name: main\n    api_key: %q\n    api_secret_env: MAIN_SECRET\n", fakeexchange.DefaultMainReadKey)
		case "sub":
			fmt.Fprintf(&b, "  - name: sub\n    api_key: %q\n    api_secret_env: SUB_SECRET\n", fakeexchange.DefaultSubKey)
		}
	}
	path := filepath.Join(dir, strings.Join(names, "+")+".yml")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// defaultSecrets are the environment variables accountsConfig names, set to
// the default scenario's secrets.
var defaultSecrets = []string{"MAIN_SECRET=" + fakeexchange.DefaultMainReadSecret, "SUB_SECRET=" + fakeexchange.DefaultSubSecret}

// value is the value of series in samples, or -1 and an error when it is
// missing.
func value(t *testing.T, samples map[string]*model.Sample, series string) float64 {
	t.Helper()
	s, ok := samples[series]
	if !ok {
		t.Errorf("missing %s", series)
		return -1
	}
	return float64(s.Value)
}

// valueIs reports whether series is in samples with value want: false while
// it is missing, as a series that exists from a first successful poll is
// before it.
func valueIs(samples map[string]*model.Sample, series string, want float64) bool {
	s, ok := samples[series]
	return ok && float64(s.Value) == want
}

// readState reads and decodes the state file at path, or fails the test.
func readState(t *testing.T, path string) map[string]ledger.State {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	st, err := decodeState(b)
	if err != nil {
		t.Fatalf("state file: %v\n%s", err, b)
	}
	return st
}

// readStateQuiet reads and decodes the state file at path, for polls that
// wait for it to be written.
func readStateQuiet(path string) (map[string]ledger.State, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return decodeState(b)
}

// tokenHistorySection is the state file's section of token history states.
const tokenHistorySection = "accounts"

// decodeState is the token history states of a state file the binary
// wrote, every section checked as the binary checks it.
func decodeState(b []byte) (map[string]ledger.State, error) {
	doc, err := statefile.DecodeDocument(b, statefile.SectionsOf(collector.StateSections())...)
	if err != nil {
		return nil, err
	}
	out := map[string]ledger.State{}
	for account, st := range doc.Sections[tokenHistorySection] {
		out[account] = st.(ledger.State)
	}
	return out, nil
}

// encodeState is a state file holding accounts' token history states.
func encodeState(accounts map[string]ledger.State) ([]byte, error) {
	doc := statefile.Document{Sections: map[string]map[string]any{tokenHistorySection: {}}}
	for account, st := range accounts {
		doc.Sections[tokenHistorySection][account] = st
	}
	return statefile.EncodeDocument(doc, statefile.SectionsOf(collector.StateSections())...)
}

// tail is the last lines of s.
func tail(s string, lines int) string {
	l := strings.Split(s, "\n")
	return strings.Join(l[max(0, len(l)-lines):], "\n")
}
