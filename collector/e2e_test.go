package collector

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

const (
	e2eKey    = "e2e-main-read-key-0123=="
	e2eSecret = "E2E-SECRET-never-in-output-0001"
)

// e2eScenario is account "main" with the exporter's key and a trading key,
// and one token network.
func e2eScenario() *fakeexchange.Scenario {
	return &fakeexchange.Scenario{
		Accounts: []fakeexchange.Account{{
			Name: "main", AccountName: "Main", UserID: 12523,
			Keys: []fakeexchange.Key{
				{APIKey: e2eKey, APISecret: e2eSecret, Permissions: []string{"READ"}},
				{APIKey: "e2e-other-key-4567==", APISecret: "OTHER", Permissions: []string{"READ", "TRADE", "WITHDRAWAL"}, AllowedIPs: []string{"10.1.2.3"}},
			},
		}},
		TokenNetworks: []fakeexchange.TokenNetworkRow{
			{Token: "USDT", Network: "ETH", Protocol: "ERC20", Name: "Ethereum", MinimumWithdrawal: "10", WithdrawalFee: "1.5", AllowDeposit: 1, AllowWithdraw: 1},
		},
	}
}

// mustPollHistory runs one token history poll of e and fails the test if it
// failed.
func mustPollHistory(t *testing.T, e *Exporter) {
	t.Helper()
	for _, p := range e.pollers {
		if p.endpoint == endpoint.TokenHistory {
			p.pollOnce(context.Background())
			if st := p.lastStatus(); !st.success {
				t.Fatal("token history poll failed")
			}
		}
	}
}

// checkExported compares the exported totals of "main" with exact sums over
// every record the fake holds from from up to until, and checks that the
// records counter agrees and lints clean.
func checkExported(t *testing.T, r *rig, e *Exporter, from, until time.Time) {
	t.Helper()
	recs := r.served("main", from, until)
	checkTotals(t, e.history.accounts[0].snap.Load().Totals, recs)
	hist := e.byName[endpoint.TokenHistory]
	if n := sumOf(t, hist, "woox_token_history_records_total"); n != float64(len(recs)) {
		t.Errorf("woox_token_history_records_total sums to %v, want %d", n, len(recs))
	}
	if problems, err := testutil.CollectAndLint(hist); err != nil || len(problems) > 0 {
		t.Errorf("lint: %v %v", problems, err)
	}
}

func TestEndToEndTokenHistoryCountsEveryRecordExactlyOnce(t *testing.T) {
	r := newRig(t, e2eScenario())
	now := r.clock.Now()
	// Before the lookback: never counted.
	r.add(t, hist(1, now.Add(-2*time.Hour), "DEPOSIT", "USDT", "1000000"))
	// Twelve records sharing one timestamp, spread over pages of 5.
	shared := now.Add(-30 * time.Minute)
	for i := int64(0); i < 12; i++ {
		r.add(t, hist(100+i, shared, "TRANSACTION_FEE", "USDT", "-0.000000000000000000000000000001"))
	}
	r.add(t,
		hist(200, now.Add(-50*time.Minute), "DEPOSIT", "BTC", "0.123456789012345678901234567890"),
		hist(201, now.Add(-10*time.Minute), "REALIZED_PNL", "USDT", "-12.5"),
		hist(202, now.Add(-10*time.Minute), "REALIZED_PNL", "USDT", "0"),
		hist(203, now.Add(-2*time.Minute), "WITHDRAW", "USDT", "-300"),
	)
	e := newExporter(t, r.config())
	setPageSize(e, 5)
	start := now.Add(-time.Hour) // the first window's start
	l := e.ledgers["main"].Load()

	// While the first poll pages: a record newer than the poll's end, a
	// late record inside the query window (shifting rows so they repeat across
	// pages) and one more with the shared timestamp.
	var mu sync.Mutex
	hooked := 0
	r.fake.BeforeHistoryPage(func(account string, page int) {
		mu.Lock()
		defer mu.Unlock()
		if page != 2 || hooked > 0 {
			return
		}
		hooked++
		if err := r.fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main",
			Records: []fakeexchange.HistoryRecord{hist(300, r.clock.Now().Add(time.Second), "DEPOSIT", "USDT", "5"),
				hist(301, now.Add(-3*time.Minute), "INTEREST", "USDT", "0.0042"),
				hist(302, shared, "TRANSACTION_FEE", "USDT", "-0.000000000000000000000000000001")}}}); err != nil {
			t.Error(err)
		}
	})
	mustPollHistory(t, e)
	if l.Start() != start.UnixMilli() {
		t.Error("cursor advanced after a poll whose result set changed while paging")
	}
	r.fake.BeforeHistoryPage(nil)

	// The re-read is consistent and moves the cursor to 5m before the
	// newest record.
	r.clock.Add(1100 * time.Millisecond) // record 300 is no longer in the future
	mustPollHistory(t, e)
	cursor := l.Start()
	newest := l.Snapshot().LastRecordMs
	if cursor != newest-(5*time.Minute).Milliseconds() {
		t.Errorf("cursor %d, want newest record %d − 5m", cursor, newest)
	}

	// Records straddling the new cursor: one just before it was counted in
	// the first poll (id 203's neighbourhood is re-read); late records at
	// and after it are found by the next poll.
	r.add(t,
		hist(400, time.UnixMilli(cursor), "REBATE", "WOO", "4.2"),
		hist(401, time.UnixMilli(cursor+1), "REBATE", "WOO", "0.8"),
		hist(402, r.clock.Now(), "WITHDRAW", "BTC", "-0.01"),
	)
	mustPollHistory(t, e)
	mustPollHistory(t, e) // nothing new: nothing changes
	checkExported(t, r, e, start, r.clock.Now())
	if s := len(l.Export().Seen); s > 22 {
		t.Errorf("ledger remembers %d ids; want at most the 22 records of the late window", s)
	}
}

func TestEndToEndCollectorsAgainstFakeExchange(t *testing.T) {
	r := newRig(t, e2eScenario())
	r.add(t, hist(1, r.clock.Now().Add(-time.Minute), "DEPOSIT", "USDT", "2.5"))
	e := newExporter(t, r.config())
	for _, p := range e.pollers {
		p.pollOnce(context.Background())
		if st := p.lastStatus(); !st.success {
			t.Fatalf("%s poll failed", p.endpoint)
		}
	}
	if !e.Ready() {
		t.Error("not ready after every first poll")
	}
	expectMetrics(t, e.byName[endpoint.TokenNetwork], "e2e_token_network.metrics")
	expectMetrics(t, e.byName[endpoint.Credentials], "e2e_credentials.metrics")
	checkExported(t, r, e, r.clock.Now().Add(-time.Hour), r.clock.Now())
}
