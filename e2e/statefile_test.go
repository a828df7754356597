package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/model"
	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
	"github.com/woox-exporter/woox_exporter/ledger"
)

// checkStateExact compares an account's saved totals with exact decimal
// sums over every record the fake holds for it.
func checkStateExact(t *testing.T, fake *fakeexchange.Exchange, st ledger.State, account string) {
	t.Helper()
	if diff := exactMatches(fake, st, account); diff != "" {
		t.Error(diff)
	}
}

// fakeSums sums every record the fake holds for account exactly, by
// (token, transaction type).
func fakeSums(fake *fakeexchange.Exchange, account string) map[testsupport.HistoryKey]testsupport.HistorySums {
	return testsupport.HistoryTotals(fake.ServedHistory(account), fakeexchange.HistoryRecord.Leg)
}

// scrapedMatches describes how an account's scraped token history counters
// differ from the exact sums over every record the fake holds, converted to
// float64 as the exporter converts them; "" when they agree.
func scrapedMatches(fake *fakeexchange.Exchange, samples map[string]*model.Sample, account string) string {
	want := fakeSums(fake, account)
	var diffs []string
	series := 0
	for _, s := range samples {
		switch string(s.Metric[model.MetricNameLabel]) {
		case "woox_token_history_records_total", "woox_token_history_inflow_total", "woox_token_history_outflow_total":
		default:
			continue
		}
		if string(s.Metric["account"]) == account {
			series++
		}
	}
	if series != 3*len(want) {
		diffs = append(diffs, fmt.Sprintf("%s: %d token history counter series scraped, want %d (3 for each of %d (token, type))", account, series, 3*len(want), len(want)))
	}
	for k, w := range want {
		labels := fmt.Sprintf(`{account=%q, token=%q, transaction_type=%q}`, account, k.Token, k.Type)
		for _, c := range []struct {
			metric string
			want   float64
		}{
			{"woox_token_history_records_total", float64(w.Records)},
			{"woox_token_history_inflow_total", w.Inflow.InexactFloat64()},
			{"woox_token_history_outflow_total", w.Outflow.InexactFloat64()},
		} {
			s, ok := samples[c.metric+labels]
			switch {
			case !ok:
				diffs = append(diffs, fmt.Sprintf("missing %s%s (the fake holds %v)", c.metric, labels, c.want))
			case float64(s.Value) != c.want:
				diffs = append(diffs, fmt.Sprintf("%s%s = %v, the fake holds %v", c.metric, labels, s.Value, c.want))
			}
		}
	}
	slices.Sort(diffs)
	return strings.Join(diffs, "\n")
}

// exactMatches describes how an account's saved totals differ from the
// exact decimal sums over every record the fake holds; "" when they agree.
func exactMatches(fake *fakeexchange.Exchange, st ledger.State, account string) string {
	saved := map[testsupport.HistoryKey]testsupport.HistorySums{}
	var diffs []string
	for _, g := range st.Totals {
		k := testsupport.HistoryKey{Token: g.Token, Type: g.Type}
		if _, twice := saved[k]; twice {
			diffs = append(diffs, fmt.Sprintf("%s: saved %s %s twice", account, g.Token, g.Type))
		}
		saved[k] = testsupport.HistorySums{Records: g.Records,
			Inflow: decimal.RequireFromString(g.Inflow), Outflow: decimal.RequireFromString(g.Outflow)}
	}
	for _, d := range testsupport.DiffTotals(saved, fakeSums(fake, account)) {
		diffs = append(diffs, account+" "+d)
	}
	return strings.Join(diffs, "\n")
}

// Counters continue across restarts, records that arrived while the
// exporter was down are counted once, and an account left out of the
// configuration keeps its saved state for when it comes back.
func TestBinaryStateFileKeepsCountersAcrossRestarts(t *testing.T) {
	fake := startFake(t)
	url := serveFake(t, fake)
	dir := t.TempDir()
	state := filepath.Join(dir, "state", "woox.json")
	if err := os.Mkdir(filepath.Dir(state), 0o700); err != nil {
		t.Fatal(err)
	}
	both, mainOnly := accountsConfig(t, dir, "main", "sub"), accountsConfig(t, dir, "main")
	start := func(cfg string, lookback string) *exportertest.Process {
		p := exportertest.Start(t, defaultSecrets, "--woox.api-url="+url, "--config.file="+cfg,
			"--token-history.state-file="+state, "--token-history.lookback="+lookback)
		p.WaitReady(t)
		return p
	}
	const (
		mainDeposit = `woox_token_history_inflow_total{account="main", token="USDT", transaction_type="DEPOSIT"}`
		mainRecords = `woox_token_history_records_total{account="main", token="USDT", transaction_type="DEPOSIT"}`
		subDeposit  = `woox_token_history_inflow_total{account="sub", token="ETH", transaction_type="DEPOSIT"}`
		subWithdraw = `woox_token_history_outflow_total{account="sub", token="ETH", transaction_type="WITHDRAW"}`
	)

	p := start(both, "1h")
	s := p.Scrape(t)
	if v := value(t, s, mainDeposit); v != 2500 {
		t.Fatalf("first run: %s = %v, want 2500", mainDeposit, v)
	}
	if v := value(t, s, `woox_exporter_state_file_corrupt`); v != 0 {
		t.Errorf("woox_exporter_state_file_corrupt = %v on a fresh start", v)
	}
	p.Stop(t)
	if saved := readState(t, state); len(saved) != 2 {
		t.Fatalf("state file holds %d accounts after the first run, want 2", len(saved))
	}

	// While the exporter is down.
	now := time.Now()
	if err := fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main",
		Records: []fakeexchange.HistoryRecord{{ID: 5001, Type: "DEPOSIT", Token: "USDT", Amount: "7.25", Timestamp: now.Add(-20 * time.Second).UnixMilli()}}}}); err != nil {
		t.Fatal(err)
	}
	if err := fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "sub",
		Records: []fakeexchange.HistoryRecord{{ID: 6001, Type: "WITHDRAW", Token: "ETH", Amount: "-0.5", Timestamp: now.Add(-10 * time.Second).UnixMilli()}}}}); err != nil {
		t.Fatal(err)
	}

	// A one-minute lookback: a fresh start would miss everything older,
	// so the old records in the totals come from the state file.
	p = start(both, "1m")
	s = p.Scrape(t)
	if v := value(t, s, mainDeposit); v != 2507.25 {
		t.Errorf("after a restart: %s = %v, want 2507.25 (2500 saved + 7.25 while down)", mainDeposit, v)
	}
	if v := value(t, s, mainRecords); v != 2 {
		t.Errorf("after a restart: %s = %v, want 2", mainRecords, v)
	}
	if v := value(t, s, subWithdraw); v != 0.5 {
		t.Errorf("after a restart: %s = %v, want 0.5", subWithdraw, v)
	}
	p.Stop(t)
	saved := readState(t, state)
	checkStateExact(t, fake, saved["main"], "main")
	checkStateExact(t, fake, saved["sub"], "sub")
	subState := saved["sub"]

	// Without "sub": its state stays in the file.
	p = start(mainOnly, "1m")
	p.Stop(t)
	saved = readState(t, state)
	if got := saved["sub"]; !reflect.DeepEqual(got, subState) {
		t.Errorf("state of the removed account changed:\n%+v\nwant %+v", got, subState)
	}

	// "sub" back: its counters resume.
	p = start(both, "1m")
	s = p.Scrape(t)
	if v := value(t, s, subDeposit); v != 1.5 {
		t.Errorf("re-added account: %s = %v, want 1.5", subDeposit, v)
	}
	if v := value(t, s, mainDeposit); v != 2507.25 {
		t.Errorf("fourth run: %s = %v, want 2507.25", mainDeposit, v)
	}
	p.Stop(t)
	saved = readState(t, state)
	checkStateExact(t, fake, saved["main"], "main")
	checkStateExact(t, fake, saved["sub"], "sub")
}

func TestBinarySetsACorruptStateFileAside(t *testing.T) {
	url := serveFake(t, startFake(t))
	dir := t.TempDir()
	state := filepath.Join(dir, "woox.json")
	const garbage = `{"version":1,"accounts":{"main":{"version":1,"start_ms":`
	if err := os.WriteFile(state, []byte(garbage), 0o600); err != nil {
		t.Fatal(err)
	}
	p := exportertest.Start(t, defaultSecrets, "--woox.api-url="+url, "--config.file="+accountsConfig(t, dir, "main"),
		"--token-history.state-file="+state)
	p.WaitReady(t)
	if v := value(t, p.Scrape(t), "woox_exporter_state_file_corrupt"); v != 1 {
		t.Errorf("woox_exporter_state_file_corrupt = %v, want 1", v)
	}
	p.Stop(t)
	aside, _ := filepath.Glob(state + ".corrupt-*")
	if len(aside) != 1 {
		t.Fatalf("set-aside files %v, want one", aside)
	}
	if b, _ := os.ReadFile(aside[0]); string(b) != garbage {
		t.Errorf("set-aside file holds %q, want the corrupt content", b)
	}
	var warn string
	for _, line := range strings.Split(p.Output(), "\n") {
		if strings.Contains(line, "level=warn") && strings.Contains(line, "state file") {
			warn = line
		}
	}
	if !strings.Contains(warn, state) || !strings.Contains(warn, aside[0]) || !strings.Contains(warn, "err=") {
		t.Errorf("no warn line naming both paths and the reason:\n%s", p.Output())
	}
	if saved := readState(t, state); len(saved["main"].Totals) == 0 {
		t.Error("no fresh state written after setting the corrupt file aside")
	}
}

// A state file that cannot be written is logged and counted; the exporter
// keeps serving.
func TestBinarySurvivesStateFileWriteFailures(t *testing.T) {
	fake, err := fakeexchange.New(fakeexchange.DefaultScenario(), fakeexchange.WithRateLimit(100, time.Second))
	if err != nil {
		t.Fatal(err)
	}
	url := serveFake(t, fake)
	dir := t.TempDir()
	stateDir := filepath.Join(dir, "state")
	if err := os.Mkdir(stateDir, 0o700); err != nil {
		t.Fatal(err)
	}
	p := exportertest.Start(t, defaultSecrets, "--woox.api-url="+url, "--config.file="+accountsConfig(t, dir, "main"),
		"--token-history.state-file="+filepath.Join(stateDir, "woox.json"),
		"--api.rate-limit=100/1s", "--token-history.interval=200ms")
	p.WaitReady(t)
	// Renamed, not removed: the exporter may be writing into it.
	if err := os.Rename(stateDir, stateDir+".gone"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if s := p.Scrape(t); value(t, s, "woox_exporter_state_file_write_failures_total") > 0 {
			// Polls go on: the history poll succeeds again after the
			// failed write.
			const last = `woox_poll_last_success_timestamp_seconds{account="main", endpoint="token_history"}`
			since := value(t, s, last)
			for polled := false; !polled; time.Sleep(50 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("no token history poll succeeded after the write failure\n%s", p.Output())
				}
				s := p.Scrape(t)
				polled = value(t, s, last) > since &&
					value(t, s, `woox_poll_success{account="main", endpoint="token_history"}`) == 1
			}
			p.Stop(t)
			if !strings.Contains(p.Output(), `msg="cannot save token history state"`) {
				t.Errorf("write failure not logged:\n%s", p.Output())
			}
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("woox_exporter_state_file_write_failures_total stayed 0\n%s", p.Output())
}

// Killed without a chance to save at shutdown, the exporter restarts from
// what its last poll wrote: counters continue, and records that arrived
// while it was down are counted, every record exactly once.
func TestBinaryStateFileSurvivesSIGKILL(t *testing.T) {
	fake, state, start := stateRig(t)
	const mainDeposit = `woox_token_history_inflow_total{account="main", token="USDT", transaction_type="DEPOSIT"}`

	p := start("1h")
	// Wait for polls that counted every record, and for their write.
	deadline := time.Now().Add(20 * time.Second)
	for {
		s := p.Scrape(t)
		_, written := s["woox_exporter_state_file_last_write_timestamp_seconds"]
		saved, err := readStateQuiet(state)
		diff := scrapedMatches(fake, s, "main") + scrapedMatches(fake, s, "sub")
		if err == nil {
			diff += exactMatches(fake, saved["main"], "main") + exactMatches(fake, saved["sub"], "sub")
		}
		if written && err == nil && diff == "" {
			if v := value(t, s, mainDeposit); v != 2500 {
				t.Fatalf("first run: %s = %v, want 2500", mainDeposit, v)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no state file write holding every record within 20s (written %v, %v): %s\n%s", written, err, diff, p.Output())
		}
		time.Sleep(100 * time.Millisecond)
	}
	p.Kill(t)
	if strings.Contains(p.Output(), `msg=stopped`) {
		t.Fatalf("the exporter shut down cleanly: SIGKILL was not what ended it\n%s", p.Output())
	}

	// While the exporter is down.
	now := time.Now()
	for _, r := range []struct {
		account string
		rec     fakeexchange.HistoryRecord
	}{
		{"main", fakeexchange.HistoryRecord{ID: 5001, Type: "DEPOSIT", Token: "USDT", Amount: "7.25", Timestamp: now.Add(-20 * time.Second).UnixMilli()}},
		{"main", fakeexchange.HistoryRecord{ID: 5002, Type: "TRANSACTION_FEE", Token: "USDT", Amount: "-0.1", Timestamp: now.Add(-15 * time.Second).UnixMilli()}},
		{"sub", fakeexchange.HistoryRecord{ID: 6001, Type: "WITHDRAW", Token: "ETH", Amount: "-0.5", Timestamp: now.Add(-10 * time.Second).UnixMilli()}},
	} {
		if err := fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: r.account,
			Records: []fakeexchange.HistoryRecord{r.rec}}}); err != nil {
			t.Fatal(err)
		}
	}

	// A one-minute lookback: the records counted before the kill come back
	// only from the state file.
	p = start("1m")
	s := p.Scrape(t)
	if v := value(t, s, mainDeposit); v != 2507.25 {
		t.Errorf("after SIGKILL and a restart: %s = %v, want 2507.25 (2500 saved + 7.25 while down)", mainDeposit, v)
	}
	if v := value(t, s, "woox_exporter_state_file_corrupt"); v != 0 {
		t.Errorf("woox_exporter_state_file_corrupt = %v after SIGKILL", v)
	}
	for _, account := range []string{"main", "sub"} {
		if diff := scrapedMatches(fake, s, account); diff != "" {
			t.Errorf("after SIGKILL and a restart:\n%s", diff)
		}
	}
	p.Stop(t)
	saved := readState(t, state)
	checkStateExact(t, fake, saved["main"], "main")
	checkStateExact(t, fake, saved["sub"], "sub")
}

// stateRig is the default scenario's fake, a state file path in a fresh
// directory, and start, which runs the binary watching main and sub with
// that state file and --token-history.lookback, ready.
func stateRig(t *testing.T) (fake *fakeexchange.Exchange, state string, start func(lookback string) *exportertest.Process) {
	fake = startFake(t)
	url := serveFake(t, fake)
	dir := t.TempDir()
	state = filepath.Join(dir, "woox.json")
	cfg := accountsConfig(t, dir, "main", "sub")
	start = func(lookback string) *exportertest.Process {
		p := exportertest.Start(t, defaultSecrets, "--woox.api-url="+url, "--config.file="+cfg,
			"--token-history.state-file="+state, "--token-history.lookback="+lookback)
		p.WaitReady(t)
		return p
	}
	return fake, state, start
}
