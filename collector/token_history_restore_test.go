package collector

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/ledger"
	"github.com/woox-exporter/woox_exporter/statefile"
)

// restoreRig starts the token history of "main" alone from a state file
// holding a cursor at historyNow+ahead, against an exchange whose clock is
// offset from the rig's, and polls it once: no other poller has told the
// exchange's time before it.
func restoreRig(t *testing.T, ahead, offset time.Duration) (*rig, *Exporter, *statefile.Store) {
	t.Helper()
	r := newRig(t, &fakeexchange.Scenario{ServerTimeOffset: offset})
	cursor := historyNow.Add(ahead).UnixMilli()
	store := stateFileOf(t, ledger.State{Version: ledger.StateVersion, StartMs: cursor, HorizonMs: &cursor,
		Seen: []ledger.SeenRecord{}, Totals: []ledger.StateTotal{{Token: "USDT", Type: "DEPOSIT", Records: 1, Inflow: "7", Outflow: "0"}}})
	cfg := r.config()
	cfg.Public, cfg.State, cfg.Collectors = nil, store, map[string]bool{}
	for _, ep := range endpoint.All {
		cfg.Collectors[ep.Name] = ep.Name == endpoint.TokenHistory
	}
	e := newExporter(t, cfg)
	e.pollers[0].pollOnce(context.Background())
	return r, e, store
}

// stateFileOf is a state file holding st as the token history of "main",
// opened at historyNow.
func stateFileOf(t *testing.T, st ledger.State) *statefile.Store {
	t.Helper()
	path := filepath.Join(t.TempDir(), "state.json")
	b, err := encodeState(map[string]ledger.State{"main": st})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	store, err := openState(path, historyNow)
	if err != nil {
		t.Fatal(err)
	}
	return store
}

func TestRestoredCursorAheadOfALocalClockBehindIsKept(t *testing.T) {
	r, e, store := restoreRig(t, 2*time.Hour-time.Minute, 2*time.Hour)
	if got := e.ledgers["main"].Load().Snapshot().Totals; len(got) != 1 || !got[0].Inflow.Equal(dec("7")) {
		t.Errorf("totals %v, want the saved 7 USDT", got)
	}
	// The exchange's time came from one small read before the query window.
	if q := r.requests(endpoint.TokenHistory); len(q) < 2 || query(t, q[0], "size") != "1" {
		t.Errorf("token history requests %v, want a one-row read first", q)
	}
	if _, ok := savedStates(store)["main"]; !ok || strings.Contains(r.logs.String(), "impossible") {
		t.Errorf("saved state judged impossible:\n%s", r.logs.String())
	}
}

func TestRestoredCursorAheadOfTheExchangeIsSetAside(t *testing.T) {
	r, e, store := restoreRig(t, 2*time.Hour, 0)
	if got := e.ledgers["main"].Load().Snapshot().Totals; len(got) != 0 {
		t.Errorf("totals %v from an impossible state", got)
	}
	if st, ok := savedStates(store)["main"]; ok && st.StartMs > historyNow.UnixMilli() {
		t.Errorf("the impossible state is still in the store: cursor %d", st.StartMs)
	}
	if !strings.Contains(r.logs.String(), "account=main") || !strings.Contains(r.logs.String(), "impossible") {
		t.Errorf("no warning naming main:\n%s", r.logs.String())
	}
}

// A replaced ledger starts its reconcile generation again from 0; the
// account's generation must still never repeat one, or the balances part
// of a scrape would keep the encoding of the ledger it replaced.
func TestLedgerInUseGenerationGrowsAcrossReplacement(t *testing.T) {
	cfg := ledger.Config{Overlap: time.Minute, LateWindow: DefaultHistoryLateWindow}
	startMs := historyNow.Add(-time.Hour).UnixMilli()
	old := ledger.New(startMs, cfg)
	old.ReconcileBalances()
	old.ObserveBalances(ledger.Holdings{TimeMs: startMs + 1, Tokens: map[string]decimal.Decimal{"USDT": decimal.NewFromInt(1)}})
	ll := newLedgerInUse(old)
	before := ll.ReconcileGeneration()
	if before == 0 {
		t.Fatal("a baseline did not change the ledger's reconcile generation")
	}
	fresh := ledger.New(startMs, cfg)
	ll.replace(fresh)
	if got := ll.ReconcileGeneration(); got <= before {
		t.Errorf("generation after the replacement = %d, want more than %d", got, before)
	}
	mid := ll.ReconcileGeneration()
	fresh.ObserveBalances(ledger.Holdings{TimeMs: startMs + 2, Tokens: map[string]decimal.Decimal{"USDT": decimal.NewFromInt(2)}})
	if got := ll.ReconcileGeneration(); got <= mid {
		t.Errorf("generation after the new ledger's baseline = %d, want more than %d", got, mid)
	}
}

// The first poll after a restart reads only what came after the newest
// record the state holds, and leaves the cursor: the next poll reads the
// whole query window again and counts a record listed late behind the newest one,
// and nothing is counted twice.
func TestFirstPollAfterARestartReadsOnlyWhatCameAfterTheNewestRecord(t *testing.T) {
	r := newRig(t, &fakeexchange.Scenario{})
	r.add(t, hrec(1, 10*time.Minute, "USDT", "DEPOSIT", "1"), hrec(2, 4*time.Minute, "USDT", "DEPOSIT", "2"))
	cursor, newest := historyNow.Add(-9*time.Minute).UnixMilli(), historyNow.Add(-4*time.Minute).UnixMilli()
	horizon := historyNow.Add(-time.Hour).UnixMilli()
	st := ledger.State{Version: ledger.StateVersion, StartMs: cursor, HorizonMs: &horizon, LastRecordMs: &newest,
		Seen: []ledger.SeenRecord{{ID: 1, TimestampMs: historyNow.Add(-10 * time.Minute).UnixMilli(), Token: "USDT", Type: "DEPOSIT"},
			{ID: 2, TimestampMs: newest, Token: "USDT", Type: "DEPOSIT"}},
		Totals: []ledger.StateTotal{{Token: "USDT", Type: "DEPOSIT", Records: 2, Inflow: "3", Outflow: "0"}}}
	store := stateFileOf(t, st)
	// While the exporter was down: a new record, and one listed late
	// behind the newest record counted.
	r.add(t, hrec(3, time.Minute, "USDT", "DEPOSIT", "4"), hrec(4, 6*time.Minute, "USDT", "DEPOSIT", "8"))
	cfg := r.config()
	cfg.Public, cfg.State, cfg.Collectors, cfg.HistoryOverlap = nil, store, map[string]bool{}, 5*time.Minute
	for _, ep := range endpoint.All {
		cfg.Collectors[ep.Name] = ep.Name == endpoint.TokenHistory
	}
	e := newExporter(t, cfg)
	inflow := func() decimal.Decimal {
		totals := e.ledgers["main"].Load().Snapshot().Totals
		if len(totals) != 1 {
			t.Fatalf("totals %v, want one", totals)
		}
		return totals[0].Inflow
	}

	e.history.accounts[0].slowFirst = 0 // every first poll is slow: its line says why
	e.pollers[0].pollOnce(context.Background())
	q := r.requests(endpoint.TokenHistory)
	if len(q) != 1 || query(t, q[0], "startTime") != strconv.FormatInt(newest, 10) {
		t.Errorf("the first poll's requests %v, want one from the newest record counted, %d", q, newest)
	}
	if got := inflow(); !got.Equal(dec("7")) {
		t.Errorf("inflow after the first poll %s, want 7 (3 saved, 4 new)", got)
	}
	e.pollers[0].pollOnce(context.Background())
	if q := r.requests(endpoint.TokenHistory); len(q) < 2 || query(t, q[1], "startTime") != strconv.FormatInt(cursor, 10) {
		t.Errorf("the second poll's requests %v, want one from the saved cursor %d", q, cursor)
	}
	if got := inflow(); !got.Equal(dec("15")) {
		t.Errorf("inflow after the second poll %s, want 15 (3 saved, 4 new, 8 listed late)", got)
	}
	const slow = `msg="the first token history poll took long" account=main took=`
	if n := strings.Count(r.logs.String(), slow); n != 1 || !strings.Contains(r.logs.String(), `because="it read what arrived while no exporter read, from the newest record counted before"`) {
		t.Errorf("%d lines of a slow first poll after two polls, want 1 saying it read what arrived while down:\n%s", n, r.logs.String())
	}
}
