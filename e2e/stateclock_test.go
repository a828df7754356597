package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
	"github.com/woox-exporter/woox_exporter/ledger"
)

const mainUSDTDeposit = `woox_token_history_inflow_total{account="main", token="USDT", transaction_type="DEPOSIT"}`

// writeState writes a state file holding accounts, or fails the test.
func writeState(t *testing.T, path string, accounts map[string]ledger.State) {
	t.Helper()
	b, err := encodeState(accounts)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// A host that boots with its clock 2 h behind the exchange finds its saved
// cursor (written at the exchange's time) 2 h in its future: the state is
// kept, and its counters continue.
func TestBinaryKeepsAStateFileAheadOfALocalClockBehind(t *testing.T) {
	sc := fakeexchange.DefaultScenario()
	sc.ServerTimeOffset = 2 * time.Hour
	fake, err := fakeexchange.New(sc, fakeexchange.WithRateLimit(100, time.Second))
	if err != nil {
		t.Fatal(err)
	}
	url := serveFake(t, fake)
	dir := t.TempDir()
	state := filepath.Join(dir, "woox.json")
	cursor := time.Now().Add(2*time.Hour - time.Minute).UnixMilli()
	writeState(t, state, map[string]ledger.State{"main": {Version: ledger.StateVersion, StartMs: cursor, HorizonMs: &cursor,
		Seen: []ledger.SeenRecord{}, Totals: []ledger.StateTotal{{Token: "USDT", Type: "DEPOSIT", Records: 3, Inflow: "1000.5", Outflow: "0"}}}})

	p := exportertest.Start(t, defaultSecrets, "--woox.api-url="+url, "--config.file="+accountsConfig(t, dir, "main"),
		"--token-history.state-file="+state, "--api.rate-limit=100/1s", "--token-history.interval=200ms")
	p.WaitReady(t)
	s := p.Scrape(t)
	if v := value(t, s, "woox_exporter_state_file_corrupt"); v != 0 {
		t.Errorf("woox_exporter_state_file_corrupt = %v, want 0", v)
	}
	if v := value(t, s, mainUSDTDeposit); v != 1000.5 {
		t.Fatalf("%s = %v, want the saved 1000.5\n%s", mainUSDTDeposit, v, p.Output())
	}
	// A deposit at the exchange's time is counted on top.
	if err := fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main",
		Records: []fakeexchange.HistoryRecord{{ID: 9001, Type: "DEPOSIT", Token: "USDT", Amount: "2",
			Timestamp: time.Now().Add(2 * time.Hour).UnixMilli()}}}}); err != nil {
		t.Fatal(err)
	}
	testsupport.WaitFor(t, "the new deposit counted on top of the saved total", func() bool {
		got, ok := p.Scrape(t)[mainUSDTDeposit]
		return ok && got.Value == 1002.5
	})
	p.Stop(t)
	if strings.Contains(p.Output(), "impossible") || strings.Contains(p.Output(), "unusable") {
		t.Errorf("the saved state was judged bad:\n%s", p.Output())
	}
	if aside, _ := filepath.Glob(state + ".corrupt-*"); len(aside) != 0 {
		t.Errorf("set-aside files %v, want none", aside)
	}
}

// A cursor the exchange's clock makes impossible sets aside that account's
// state alone, with a warning naming it; the other accounts keep their
// counters.
func TestBinarySetsAsideOnlyTheAccountWithAnImpossibleCursor(t *testing.T) {
	fake, state, start := stateRig(t)
	p := start("1h")
	p.Stop(t)
	saved := readState(t, state)
	checkStateExact(t, fake, saved["sub"], "sub")
	bad := saved["main"]
	bad.StartMs = time.Now().Add(48 * time.Hour).UnixMilli()
	saved["main"] = bad
	writeState(t, state, saved)

	// A one-minute lookback: a fresh start would miss every older record,
	// so sub's totals can only come from the state file.
	p = start("1m")
	s := p.Scrape(t)
	if diff := scrapedMatches(fake, s, "sub"); diff != "" {
		t.Errorf("sub lost its counters:\n%s\n%s", diff, p.Output())
	}
	if v := value(t, s, "woox_exporter_state_file_corrupt"); v != 0 {
		t.Errorf("woox_exporter_state_file_corrupt = %v, want 0: one account's state is no reason to set the file aside", v)
	}
	if got, ok := s[mainUSDTDeposit]; ok && got.Value == 2500 {
		t.Errorf("%s = 2500: main's impossible state was used", mainUSDTDeposit)
	}
	p.Stop(t)

	var warn []string
	for _, line := range strings.Split(p.Output(), "\n") {
		if strings.Contains(line, "level=warn") && strings.Contains(line, "impossible") {
			warn = append(warn, line)
		}
	}
	if len(warn) != 1 || !strings.Contains(warn[0], "account=main") || !strings.Contains(warn[0], "in the future") {
		t.Errorf("want one warning naming main and why, got %q\n%s", warn, p.Output())
	}
	aside, _ := filepath.Glob(state + ".corrupt-*")
	if len(aside) != 1 {
		t.Fatalf("set-aside files %v, want one", aside)
	}
	if got := readState(t, aside[0]); len(got) != 1 || got["main"].StartMs != bad.StartMs {
		t.Errorf("set-aside file holds %v, want main's state alone", got)
	}
	after := readState(t, state)
	checkStateExact(t, fake, after["sub"], "sub")
	if after["main"].StartMs >= bad.StartMs {
		t.Errorf("main's impossible cursor is still in the state file")
	}
}
