package collector

import (
	"context"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/go-kit/log"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/ledger"
)

const (
	e2eKey    = "e2e-main-read-key-0123=="
	e2eSecret = "E2E-SECRET-never-in-output-0001"
)

// e2e runs the exporter with the real client against the fake exchange.
type e2e struct {
	fake     *fakeexchange.Exchange
	exporter *Exporter
	start    time.Time // the exporter's first history window starts here
}

func newE2E(t *testing.T, history []fakeexchange.HistoryRecord, pageSize int) *e2e {
	t.Helper()
	fake, err := fakeexchange.New(&fakeexchange.Scenario{
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
	}, fakeexchange.WithRateLimit(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if err := fake.AppendHistory("main", history...); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	limit := client.RateLimit{Requests: 1000, Window: time.Second}
	public, err := client.New(client.Config{BaseURL: srv.URL, RateLimit: limit, Budget: 1})
	if err != nil {
		t.Fatal(err)
	}
	account, err := client.New(client.Config{BaseURL: srv.URL, Account: "main", APIKey: e2eKey, APISecret: e2eSecret, RateLimit: limit, Budget: 1})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	e, err := New(Config{
		Public:         public,
		Accounts:       []Account{{Name: "main", APIKey: e2eKey, API: account}},
		Intervals:      map[string]time.Duration{client.EndpointTokenNetwork: time.Minute, client.EndpointCredentials: time.Minute, client.EndpointTokenHistory: time.Minute},
		HistoryOverlap: 5 * time.Minute, HistoryLookback: time.Hour,
		Logger: log.NewNopLogger(),
		Now:    func() time.Time { return start },
	})
	if err != nil {
		t.Fatal(err)
	}
	e.history.accounts[0].pageSize = pageSize
	return &e2e{fake: fake, exporter: e, start: start.Add(-time.Hour)}
}

// pollHistory runs one token history poll and fails the test if it failed.
func (x *e2e) pollHistory(t *testing.T) {
	t.Helper()
	for _, p := range x.exporter.pollers {
		if p.endpoint == client.EndpointTokenHistory {
			p.pollOnce(context.Background())
			if st := p.lastStatus(); !st.success {
				t.Fatal("token history poll failed")
			}
		}
	}
}

func (x *e2e) ledger() *ledger.Ledger { return x.exporter.ledgers["main"] }

// checkExact compares the exported totals with exact sums over every record
// the fake holds from the first window's start up to until.
func (x *e2e) checkExact(t *testing.T, until time.Time) {
	t.Helper()
	type sums struct {
		records         uint64
		inflow, outflow decimal.Decimal
	}
	want := map[[2]string]*sums{}
	for _, r := range x.fake.ServedHistory("main") {
		if r.Timestamp < x.start.UnixMilli() || r.Timestamp > until.UnixMilli() {
			continue
		}
		k := [2]string{r.Token, r.Type}
		if want[k] == nil {
			want[k] = &sums{}
		}
		s := want[k]
		a := decimal.RequireFromString(r.Amount)
		s.records++
		if a.Sign() > 0 {
			s.inflow = s.inflow.Add(a)
		} else {
			s.outflow = s.outflow.Sub(a)
		}
	}
	got := x.exporter.history.accounts[0].snap.Load().Totals
	if len(got) != len(want) {
		t.Errorf("exported %d (token, type) pairs, want %d: %+v", len(got), len(want), got)
	}
	for _, g := range got {
		w := want[[2]string{g.Token, g.Type}]
		if w == nil {
			t.Errorf("exported %s %s, which the fake does not hold", g.Token, g.Type)
			continue
		}
		if g.Records != w.records || !g.Inflow.Equal(w.inflow) || !g.Outflow.Equal(w.outflow) {
			t.Errorf("%s %s: records %d inflow %s outflow %s; want %d, %s, %s",
				g.Token, g.Type, g.Records, g.Inflow, g.Outflow, w.records, w.inflow, w.outflow)
		}
	}
	var records float64
	for _, w := range want {
		records += float64(w.records)
	}
	hist := x.exporter.byName[client.EndpointTokenHistory]
	if n := sumOf(t, hist, "woox_token_history_records_total"); n != records {
		t.Errorf("woox_token_history_records_total sums to %v, want %v", n, records)
	}
	if problems, err := testutil.CollectAndLint(hist); err != nil || len(problems) > 0 {
		t.Errorf("lint: %v %v", problems, err)
	}
}

func hist(id int64, ts time.Time, typ, token, amount string) fakeexchange.HistoryRecord {
	return fakeexchange.HistoryRecord{ID: id, Type: typ, Token: token, Amount: amount, Timestamp: ts.UnixMilli()}
}

func TestEndToEndTokenHistoryCountsEveryRecordExactlyOnce(t *testing.T) {
	now := time.Now()
	var recs []fakeexchange.HistoryRecord
	// Before the lookback: never counted.
	recs = append(recs, hist(1, now.Add(-2*time.Hour), "DEPOSIT", "USDT", "1000000"))
	// Twelve records sharing one timestamp, spread over pages of 5.
	shared := now.Add(-30 * time.Minute)
	for i := int64(0); i < 12; i++ {
		recs = append(recs, hist(100+i, shared, "TRANSACTION_FEE", "USDT", "-0.000000000000000000000000000001"))
	}
	recs = append(recs,
		hist(200, now.Add(-50*time.Minute), "DEPOSIT", "BTC", "0.123456789012345678901234567890"),
		hist(201, now.Add(-10*time.Minute), "REALIZED_PNL", "USDT", "-12.5"),
		hist(202, now.Add(-10*time.Minute), "REALIZED_PNL", "USDT", "0"),
		hist(203, now.Add(-2*time.Minute), "WITHDRAW", "USDT", "-300"),
	)
	x := newE2E(t, recs, 5)

	// While the first poll pages: a record newer than the poll's end, a
	// late record inside the window (shifting rows so they repeat across
	// pages) and one more with the shared timestamp.
	var mu sync.Mutex
	hooked := 0
	x.fake.BeforeHistoryPage(func(account string, page int) {
		mu.Lock()
		defer mu.Unlock()
		if page != 2 || hooked > 0 {
			return
		}
		hooked++
		if err := x.fake.AppendHistory("main",
			hist(300, time.Now().Add(time.Second), "DEPOSIT", "USDT", "5"),
			hist(301, now.Add(-3*time.Minute), "INTEREST", "USDT", "0.0042"),
			hist(302, shared, "TRANSACTION_FEE", "USDT", "-0.000000000000000000000000000001"),
		); err != nil {
			t.Error(err)
		}
	})
	x.pollHistory(t)
	if x.ledger().Start() != x.start.UnixMilli() {
		t.Error("cursor advanced after a poll whose result set changed while paging")
	}
	x.fake.BeforeHistoryPage(nil)

	// The re-read is consistent and moves the cursor to 5m before the
	// newest record.
	time.Sleep(1100 * time.Millisecond) // record 300 is no longer in the future
	x.pollHistory(t)
	cursor := x.ledger().Start()
	newest := x.ledger().Snapshot().LastRecordMs
	if cursor != newest-(5*time.Minute).Milliseconds() {
		t.Errorf("cursor %d, want newest record %d − 5m", cursor, newest)
	}

	// Records straddling the new cursor: one just before it was counted in
	// the first poll (id 203's neighbourhood is re-read); late records at
	// and after it are found by the next poll.
	if err := x.fake.AppendHistory("main",
		hist(400, time.UnixMilli(cursor), "REBATE", "WOO", "4.2"),
		hist(401, time.UnixMilli(cursor+1), "REBATE", "WOO", "0.8"),
		hist(402, time.Now(), "WITHDRAW", "BTC", "-0.01"),
	); err != nil {
		t.Fatal(err)
	}
	x.pollHistory(t)
	x.pollHistory(t) // nothing new: nothing changes
	x.checkExact(t, time.Now())
	if s := len(x.ledger().Export().Seen); s > 22 {
		t.Errorf("ledger remembers %d ids; want at most the 22 records of the late window", s)
	}
}

func TestEndToEndCollectorsAgainstFakeExchange(t *testing.T) {
	x := newE2E(t, []fakeexchange.HistoryRecord{hist(1, time.Now().Add(-time.Minute), "DEPOSIT", "USDT", "2.5")}, 1000)
	for _, p := range x.exporter.pollers {
		p.pollOnce(context.Background())
		if st := p.lastStatus(); !st.success {
			t.Fatalf("%s poll failed", p.endpoint)
		}
	}
	if !x.exporter.Ready() {
		t.Error("not ready after every first poll")
	}
	expectMetrics(t, x.exporter.byName[client.EndpointTokenNetwork], "e2e_token_network.metrics")
	expectMetrics(t, x.exporter.byName[client.EndpointCredentials], "e2e_credentials.metrics")
	x.checkExact(t, time.Now())
}
