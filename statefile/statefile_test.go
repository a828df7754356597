package statefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/ledger"
)

var openTime = time.Date(2026, 11, 22, 7, 45, 0, 0, time.UTC)

// sampleState is a ledger state with exact decimals no float can hold.
func sampleState(t *testing.T, id int64) ledger.State {
	t.Helper()
	l := ledger.New(1_700_000_000_000, ledger.Config{Overlap: 5 * time.Minute})
	l.ObservePage([]ledger.Record{
		{ID: id, Type: "DEPOSIT", Token: "USDT", Amount: decimal.RequireFromString("0.123456789012345678901234567890"), TimestampMs: 1_700_000_100_000},
		{ID: id + 1, Type: "WITHDRAW", Token: "USDT", Amount: decimal.RequireFromString("-99999999999999999999.5"), TimestampMs: 1_700_000_150_000},
	}, 1_700_000_200_000)
	return l.Export()
}

func TestSaveThenOpenRestoresEveryAccountExactly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	s, err := Open(path, openTime, testSections...)
	if err != nil {
		t.Fatal(err)
	}
	if len(states(s)) != 0 || s.Corruption() != nil {
		t.Fatalf("missing file: %d states, corruption %v; want a fresh start", len(states(s)), s.Corruption())
	}
	want := map[string]ledger.State{"main": sampleState(t, 1), "sub": sampleState(t, 100)}
	for name, st := range want {
		if err := save(s, name, st); err != nil {
			t.Fatal(err)
		}
	}
	s2, err := Open(path, openTime, testSections...)
	if err != nil {
		t.Fatal(err)
	}
	if got := states(s2); !reflect.DeepEqual(got, want) {
		t.Errorf("restored %+v\nwant %+v", got, want)
	}
	l, err := ledger.FromState(states(s2)["main"], ledger.Config{Overlap: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if in := l.Snapshot().Totals[0].Inflow.String(); in != "0.12345678901234567890123456789" {
		t.Errorf("inflow %s: decimals lost", in)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("state file mode %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*")); len(leftovers) != 0 {
		t.Errorf("temporary files left behind: %v", leftovers)
	}
}

// Saving one account leaves the others, watched or not, as they were.
func TestSaveKeepsAccountsNoLongerWatched(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	s, _ := Open(path, openTime, testSections...)
	removed := sampleState(t, 500)
	if err := save(s, "removed", removed); err != nil {
		t.Fatal(err)
	}
	s, _ = Open(path, openTime, testSections...)
	if err := save(s, "main", sampleState(t, 1)); err != nil {
		t.Fatal(err)
	}
	s, _ = Open(path, openTime, testSections...)
	if got := states(s)["removed"]; !reflect.DeepEqual(got, removed) {
		t.Errorf("removed account's state %+v, want %+v", got, removed)
	}
}

func TestOpenSetsAsideACorruptOrIncompatibleFile(t *testing.T) {
	for _, tc := range []struct{ name, content, reason string }{
		{"not json", "{\"version\":1,\"accounts\":{\"main\":", "decode"},
		{"empty", "", "decode"},
		{"other version", `{"version":2,"accounts":{}}`, "version 2"},
		{"unknown field", `{"version":1,"accounts":{},"cursor":5}`, "unknown field"},
		{"bad decimal", `{"version":1,"accounts":{"main":{"version":1,"start_ms":1,"seen":[],"totals":[{"token":"USDT","type":"DEPOSIT","records":1,"inflow":"1.2.3","outflow":"0"}]}}}`, "inflow"},
		{"ledger version", `{"version":1,"accounts":{"main":{"version":9,"start_ms":1}}}`, "ledger state version 9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "state.json")
			if err := os.WriteFile(path, []byte(tc.content), 0o600); err != nil {
				t.Fatal(err)
			}
			s, err := Open(path, openTime, testSections...)
			if err != nil {
				t.Fatal(err)
			}
			c := s.Corruption()
			if c == nil {
				t.Fatal("not reported as corrupt")
			}
			if want := path + ".corrupt-20261122T074500Z"; c.SetAsideAs != want || c.Path != path {
				t.Errorf("set aside as %s, want %s", c.SetAsideAs, want)
			}
			if !strings.Contains(c.Err.Error(), tc.reason) {
				t.Errorf("reason %q does not mention %q", c.Err, tc.reason)
			}
			if b, err := os.ReadFile(c.SetAsideAs); err != nil || string(b) != tc.content {
				t.Errorf("set-aside content %q, %v; want the original", b, err)
			}
			if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("corrupt file still at its path: %v", err)
			}
			if len(states(s)) != 0 {
				t.Error("states from a corrupt file")
			}
			if err := testutil.CollectAndCompare(s, strings.NewReader(`
# HELP woox_exporter_state_file_corrupt 1 if the state file found at startup could not be used and was set aside (token history counters restarted from zero), else 0.
# TYPE woox_exporter_state_file_corrupt gauge
woox_exporter_state_file_corrupt 1
`), "woox_exporter_state_file_corrupt"); err != nil {
				t.Error(err)
			}
		})
	}
}

// A second corrupt file in the same second does not replace the first.
func TestSetAsideNeverOverwritesAnEarlierOne(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	for i, content := range []string{"first", "second"} {
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := Open(path, openTime, testSections...)
		if err != nil {
			t.Fatal(err)
		}
		want := path + ".corrupt-20261122T074500Z"
		if i == 1 {
			want += "-2"
		}
		if got := s.Corruption().SetAsideAs; got != want {
			t.Errorf("set aside as %s, want %s", got, want)
		}
	}
	if b, _ := os.ReadFile(path + ".corrupt-20261122T074500Z"); string(b) != "first" {
		t.Errorf("first set-aside file now holds %q", b)
	}
}

func TestOpenRefusesADirectoryItCannotWrite(t *testing.T) {
	dir := t.TempDir()
	notADir := filepath.Join(dir, "file")
	if err := os.WriteFile(notADir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{filepath.Join(dir, "missing", "state.json"), filepath.Join(notADir, "state.json")} {
		if _, err := Open(path, openTime, testSections...); err == nil || !strings.Contains(err.Error(), "state file directory") {
			t.Errorf("Open(%s) = %v, want a state file directory error", path, err)
		}
	}
}

// Check refuses what Open would refuse, and changes nothing: a corrupt file
// is Open's to set aside, not Check's.
func TestCheckRefusesWhatOpenCannotUseAndChangesNothing(t *testing.T) {
	dir := t.TempDir()
	notADir := filepath.Join(dir, "file")
	if err := os.WriteFile(notADir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	stateDir := filepath.Join(dir, "state.json.d")
	if err := os.Mkdir(stateDir, 0o700); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"":                                      "no state file path",
		filepath.Join(dir, "missing", "s.json"): "state file directory " + filepath.Join(dir, "missing") + " does not exist (" + filepath.Join(dir, "missing") + " is missing)",
		filepath.Join(dir, "a", "b", "s.json"):  "state file directory " + filepath.Join(dir, "a", "b") + " does not exist (" + filepath.Join(dir, "a") + " is missing): create it",
		filepath.Join(notADir, "s.json"):        "state file directory",
		stateDir:                                "not a regular file",
	} {
		if err := Check(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Check(%q) = %v, want an error containing %q", path, err, want)
		}
		if _, err := Open(path, openTime, testSections...); err == nil {
			t.Errorf("Open(%q) succeeded where Check fails", path)
		}
	}
	if err := Check(filepath.Join(dir, "fresh.json")); err != nil {
		t.Errorf("missing file in a writable directory: %v", err)
	}
	corrupt := filepath.Join(dir, "corrupt.json")
	if err := os.WriteFile(corrupt, []byte("not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadDir(dir)
	if err := Check(corrupt); err != nil {
		t.Errorf("corrupt but readable file: %v", err)
	}
	if after, _ := os.ReadDir(dir); len(after) != len(before) {
		t.Errorf("Check changed the directory: %d entries before, %d after", len(before), len(after))
	}
	if b, _ := os.ReadFile(corrupt); string(b) != "not json" {
		t.Errorf("Check changed the file: %q", b)
	}
}

func TestWriteFailureIsCountedAndReturned(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "d")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	s, err := Open(filepath.Join(dir, "state.json"), openTime, testSections...)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := save(s, "main", sampleState(t, 1)); err == nil {
		t.Fatal("save into a removed directory succeeded")
	}
	if err := testutil.CollectAndCompare(s, strings.NewReader(`
# HELP woox_exporter_state_file_write_failures_total Failed writes of the token history state file since the exporter started.
# TYPE woox_exporter_state_file_write_failures_total counter
woox_exporter_state_file_write_failures_total 1
`), "woox_exporter_state_file_write_failures_total"); err != nil {
		t.Error(err)
	}
	if problems, err := testutil.CollectAndLint(s); err != nil || len(problems) > 0 {
		t.Errorf("lint: %v %v", problems, err)
	}
}

// A cursor ahead of the local clock is no reason to set the whole file
// aside: only the exchange's clock can tell, and only for its account.
// SetAside then moves that account alone into a file of its own.
func TestOpenKeepsAFutureCursorAndSetAsideTakesOneAccount(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	// openTime is 2026-11-22T07:45Z; main's cursor is 48 h later.
	const content = `{"version":1,"accounts":{"main":{"version":2,"start_ms":1795592700000,"seen":[],"totals":[]},` +
		`"sub":{"version":2,"start_ms":1700000000000,"seen":[],"totals":[]}}}`
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, openTime, testSections...)
	if err != nil || s.Corruption() != nil || len(states(s)) != 2 {
		t.Fatalf("Open: %v, corruption %+v, %d states; want both accounts kept", err, s.Corruption(), len(states(s)))
	}
	aside, err := s.SetAside("accounts", "main", openTime)
	if err != nil || aside != path+".corrupt-20261122T074500Z" {
		t.Fatalf("SetAside: %q, %v", aside, err)
	}
	b, err := os.ReadFile(aside)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decode(b)
	if err != nil || len(got) != 1 || got["main"].StartMs != 1795592700000 {
		t.Errorf("set-aside file holds %v (%v), want main's state alone", got, err)
	}
	if st := states(s); len(st) != 1 || st["sub"].StartMs != 1700000000000 {
		t.Errorf("store after SetAside holds %v, want sub alone", st)
	}
}

// saveTheOthersAndReopen saves a token history and a transfer state of
// "main" into s, opens its file again and checks that both came back: a
// section saved before them must survive their saves and the reopen.
func saveTheOthersAndReopen(t *testing.T, s *Store) *Store {
	t.Helper()
	if err := save(s, "main", sampleState(t, 1)); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveSection("transfers", "main", sampleTransfers(t)); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(s.Path(), openTime, testSections...)
	if err != nil {
		t.Fatal(err)
	}
	if c := s2.Corruption(); c != nil {
		t.Fatal(c.Err)
	}
	if len(states(s2)) != 1 || held(s2, "transfers") != 1 {
		t.Errorf("token history states %d, transfer states %d; want 1 each", len(states(s2)), held(s2, "transfers"))
	}
	return s2
}
