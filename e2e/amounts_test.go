package e2e

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
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

// absurd are the ids of records whose amounts no counter can carry.
var absurd = map[int64]bool{7001: true, 7002: true}

// quietFake is the default scenario without the generated records, at a
// rate limit that lets polls run every few hundred milliseconds.
func quietFake(t *testing.T) *fakeexchange.Exchange {
	t.Helper()
	s := fakeexchange.DefaultScenario()
	s.Accounts[0].HistoryGenerator = nil
	s.RateLimit, s.PublicRateLimit = "0/0s", "0/0s"
	fake, err := fakeexchange.New(s)
	if err != nil {
		t.Fatal(err)
	}
	return fake
}

// ordinarySums are the exact sums of every record the fake holds for
// account but the absurd ones.
func ordinarySums(fake *fakeexchange.Exchange, account string) map[testsupport.HistoryKey]testsupport.HistorySums {
	var recs []fakeexchange.HistoryRecord
	for _, r := range fake.ServedHistory(account) {
		if !absurd[r.ID] {
			recs = append(recs, r)
		}
	}
	return testsupport.HistoryTotals(recs, fakeexchange.HistoryRecord.Leg)
}

// checkOrdinary fails unless every token history counter of main is finite
// and equal to the exact sums of the ordinary records, in the scrape and in
// the state file saved.
func checkOrdinary(t *testing.T, fake *fakeexchange.Exchange, s map[string]*model.Sample, saved ledger.State) {
	t.Helper()
	want := ordinarySums(fake, "main")
	for series, v := range s {
		if strings.HasPrefix(series, "woox_token_history_") && (math.IsInf(float64(v.Value), 0) || math.IsNaN(float64(v.Value))) {
			t.Errorf("%s = %v", series, v.Value)
		}
	}
	for k, w := range want {
		labels := fmt.Sprintf(`{account="main", token=%q, transaction_type=%q}`, k.Token, k.Type)
		if v := value(t, s, "woox_token_history_inflow_total"+labels); v != w.Inflow.InexactFloat64() {
			t.Errorf("inflow%s = %v, want %v", labels, v, w.Inflow)
		}
		if v := value(t, s, "woox_token_history_records_total"+labels); v != float64(w.Records) {
			t.Errorf("records%s = %v, want %v", labels, v, w.Records)
		}
	}
	got := map[testsupport.HistoryKey]testsupport.HistorySums{}
	for _, g := range saved.Totals {
		got[testsupport.HistoryKey{Token: g.Token, Type: g.Type}] = testsupport.HistorySums{Records: g.Records,
			Inflow: decimal.RequireFromString(g.Inflow), Outflow: decimal.RequireFromString(g.Outflow)}
	}
	for _, d := range testsupport.DiffTotals(got, want) {
		t.Error("state file: " + d)
	}
}

// Records of 1e400 and 1e300 are unreadable rows: skipped after
// --token-history.skip-malformed-after, counted as malformed and rejected,
// logged once each, never counted or saved; every counter stays finite and
// every ordinary record exact, before and after a restart.
func TestBinaryAbsurdAmountsLeaveCountersFiniteAndExact(t *testing.T) {
	fake := quietFake(t)
	url := serveFake(t, fake)
	dir := t.TempDir()
	state := filepath.Join(dir, "woox.json")
	now := time.Now()
	deposit := func(id int64, amount string, ago time.Duration) {
		t.Helper()
		if err := fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main",
			Records: []fakeexchange.HistoryRecord{{ID: id, Type: "DEPOSIT", Token: "USDT", Amount: amount,
				Timestamp: now.Add(-ago).UnixMilli()}}}}); err != nil {
			t.Fatal(err)
		}
	}
	deposit(7001, "1e400", 40*time.Second)
	deposit(7002, "1e300", 30*time.Second)
	deposit(7003, "0.1", 20*time.Second)
	start := func() *exportertest.Process {
		p := exportertest.Start(t, defaultSecrets, append([]string{"--woox.api-url=" + url, "--config.file=" + accountsConfig(t, dir, "main"),
			"--token-history.state-file=" + state, "--token-history.skip-malformed-after=2", "--api.rate-limit=1000/1s"},
			exportertest.IntervalFlags(200*time.Millisecond)...)...)
		p.WaitReady(t)
		return p
	}
	waitSkipped := func(p *exportertest.Process) map[string]*model.Sample {
		var s map[string]*model.Sample
		testsupport.WaitFor(t, "both absurd rows skipped", func() bool {
			s = p.Scrape(t)
			return valueIs(s, `woox_token_history_malformed_rows_total{account="main"}`, 2) &&
				valueIs(s, `woox_poll_rows_rejected{account="main", endpoint="token_history"}`, 2)
		})
		return s
	}

	p := start()
	s := waitSkipped(p)
	deposit(7004, "0.1", 0)
	testsupport.WaitFor(t, "the deposit after the absurd ones counted", func() bool {
		s = p.Scrape(t)
		return valueIs(s, `woox_token_history_records_total{account="main", token="USDT", transaction_type="DEPOSIT"}`, 3)
	})
	p.Stop(t)
	checkOrdinary(t, fake, s, readState(t, state)["main"])
	for _, id := range []string{"7001", "7002"} {
		if n := strings.Count(p.Output(), `id=`+id); n != 1 {
			t.Errorf("id %s named on %d log lines, want 1 (the skip):\n%s", id, n, tail(p.Output(), 30))
		}
	}

	deposit(7005, "0.1", 0)
	p = start()
	s = waitSkipped(p)
	testsupport.WaitFor(t, "the deposit while down counted", func() bool {
		s = p.Scrape(t)
		return valueIs(s, `woox_token_history_records_total{account="main", token="USDT", transaction_type="DEPOSIT"}`, 4)
	})
	p.Stop(t)
	checkOrdinary(t, fake, s, readState(t, state)["main"])
}

// A state file holding totals no counter can carry (a 401-digit sum, and
// 1e300 over a few records) is repaired for those token and type pairs
// alone: each left out with a warning naming it, starting again from zero,
// while every other pair and account keeps its saved totals.
func TestBinaryRepairsSavedTotalsBeyondTheBoundPairByPair(t *testing.T) {
	fake := quietFake(t)
	url := serveFake(t, fake)
	dir := t.TempDir()
	state := filepath.Join(dir, "woox.json")
	start := func(lookback string) *exportertest.Process {
		p := exportertest.Start(t, defaultSecrets, "--woox.api-url="+url, "--config.file="+accountsConfig(t, dir, "main", "sub"),
			"--token-history.state-file="+state, "--token-history.lookback="+lookback)
		p.WaitReady(t)
		return p
	}
	p := start("1h")
	p.Scrape(t)
	p.Stop(t)
	saved := readState(t, state)
	main := saved["main"]
	if len(main.Totals) < 3 {
		t.Fatalf("main saved %d totals, want at least 3 to tell one repaired from all", len(main.Totals))
	}
	poisoned := map[string]string{}
	for i, g := range main.Totals {
		switch {
		case g.Token == "USDT" && g.Type == "DEPOSIT":
			main.Totals[i].Inflow = "1" + strings.Repeat("0", 400)
		case len(poisoned) == 0:
			main.Totals[i].Outflow = "1" + strings.Repeat("0", 300)
		default:
			continue
		}
		poisoned[g.Token+" "+g.Type] = g.Token
	}
	saved["main"] = main
	b, err := encodeState(saved)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(state, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main",
		Records: []fakeexchange.HistoryRecord{{ID: 5001, Type: "DEPOSIT", Token: "USDT", Amount: "7.25",
			Timestamp: time.Now().Add(-10 * time.Second).UnixMilli()}}}}); err != nil {
		t.Fatal(err)
	}

	p = start("1m")
	s := p.Scrape(t)
	p.Stop(t)
	if v := value(t, s, "woox_exporter_state_file_corrupt"); v != 0 {
		t.Errorf("woox_exporter_state_file_corrupt = %v: the whole file was set aside", v)
	}
	const deposit = `{account="main", token="USDT", transaction_type="DEPOSIT"}`
	if v := value(t, s, "woox_token_history_inflow_total"+deposit); v != 7.25 {
		t.Errorf("inflow%s = %v, want 7.25 (left out, then the deposit while down)", deposit, v)
	}
	after := readState(t, state)
	for _, g := range main.Totals {
		labels := fmt.Sprintf(`{account="main", token=%q, transaction_type=%q}`, g.Token, g.Type)
		_, bad := poisoned[g.Token+" "+g.Type]
		for _, series := range []string{"woox_token_history_inflow_total" + labels, "woox_token_history_outflow_total" + labels} {
			if v, ok := s[series]; ok && (math.IsInf(float64(v.Value), 0) || float64(v.Value) > 1e15) {
				t.Errorf("%s = %v after the repair", series, v.Value)
			}
		}
		if bad {
			continue
		}
		if v := value(t, s, "woox_token_history_inflow_total"+labels); v != decimal.RequireFromString(g.Inflow).InexactFloat64() {
			t.Errorf("inflow%s = %v, want the saved %s", labels, v, g.Inflow)
		}
	}
	for _, g := range after["main"].Totals {
		if len(g.Inflow) > 20 || len(g.Outflow) > 20 {
			t.Errorf("state file still holds %s %s: inflow %.20s..., outflow %.20s...", g.Token, g.Type, g.Inflow, g.Outflow)
		}
	}
	if len(after["sub"].Totals) != len(saved["sub"].Totals) {
		t.Errorf("sub's totals changed: %d, were %d", len(after["sub"].Totals), len(saved["sub"].Totals))
	}
	for pair := range poisoned {
		token, typ, _ := strings.Cut(pair, " ")
		warned := false
		for _, line := range strings.Split(p.Output(), "\n") {
			warned = warned || (strings.Contains(line, "level=warn") && strings.Contains(line, "left out") &&
				strings.Contains(line, "token="+token) && strings.Contains(line, "transaction_type="+typ))
		}
		if !warned {
			t.Errorf("no warn line naming %s:\n%s", pair, tail(p.Output(), 20))
		}
	}
}
