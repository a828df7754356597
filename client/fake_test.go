package client_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-kit/log"
	"github.com/go-kit/log/level"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

const (
	testKey    = "it-key-0123456789=="
	testSecret = "IT-SECRET-never-in-output-7Kq2"
)

func testScenario() *fakeexchange.Scenario {
	return &fakeexchange.Scenario{
		Accounts: []fakeexchange.Account{{
			Name: "main", AccountName: "Main", UserID: 12523,
			Keys: []fakeexchange.Key{
				{APIKey: testKey, APISecret: testSecret, Permissions: []string{"READ"}},
				{APIKey: "other-key-abcdef==", APISecret: "OTHER-SECRET", Permissions: []string{"READ", "TRADE"}, AllowedIPs: []string{"10.0.0.1"}},
			},
		}},
		TokenNetworks: []fakeexchange.TokenNetworkRow{
			{Token: "USDT", Network: "ETH", Protocol: "ERC20", Name: "Ethereum", MinimumWithdrawal: "10", WithdrawalFee: "4.1", AllowDeposit: 1, AllowWithdraw: 0},
		},
	}
}

// fakeModes are the readings of the API that public sources leave open:
// the shapes of the captured answers (and the docs' examples where
// none was captured: ids, timestamps and meta as JSON numbers, decimals as
// strings), every number a JSON number, every number a JSON string with
// snake_case meta as real answers from October 2025 on do, snake_case meta
// alone, a signature verified over the query sorted by name as the legacy
// API did, token history times in seconds, whole or with a fraction, as
// sibling endpoints send them, the account health answers in the v1
// snake_case, a wallet history that ignores its time filter, and the shapes
// this project guessed before real answers were captured (wallet times in
// milliseconds or whole seconds with camelCase meta, sub-accounts paged
// with meta).
var fakeModes = []struct {
	name  string
	apply func(*fakeexchange.Scenario)
}{
	{"captured shapes", func(*fakeexchange.Scenario) {}},
	{"json numbers", func(s *fakeexchange.Scenario) { s.NumbersAsJSONNumbers = true }},
	{"numbers as strings", func(s *fakeexchange.Scenario) { s.NumbersAsStrings = true }},
	{"snake case meta", func(s *fakeexchange.Scenario) { s.SnakeCaseMeta = true }},
	{"signature over sorted query", func(s *fakeexchange.Scenario) { s.SignatureQuery = fakeexchange.SignatureQuerySorted }},
	{"row times in seconds", func(s *fakeexchange.Scenario) { s.RowTimeUnit = fakeexchange.RowTimeSeconds }},
	{"row times in seconds with a fraction", func(s *fakeexchange.Scenario) { s.RowTimeUnit = fakeexchange.RowTimeSecondsFraction }},
	{"snake case bodies", func(s *fakeexchange.Scenario) { s.SnakeCaseBodies = true }},
	{"wallet ignores the time filter", func(s *fakeexchange.Scenario) { s.WalletIgnoresTimeFilter = true }},
	{"guessed: wallet times in milliseconds, camelCase meta", func(s *fakeexchange.Scenario) {
		s.WalletTimeUnit, s.CamelCaseWalletMeta = fakeexchange.RowTimeMillis, true
	}},
	{"wallet times in whole seconds", func(s *fakeexchange.Scenario) { s.WalletTimeUnit = fakeexchange.RowTimeSeconds }},
	{"guessed: sub-accounts paged", func(s *fakeexchange.Scenario) { s.PagedSubAccounts = true }},
}

// rowTime is the time the client reads for a token history record stamped
// ms: whole seconds lose the milliseconds.
func rowTime(s *fakeexchange.Scenario, ms int64) int64 {
	if s.RowTimeUnit == fakeexchange.RowTimeSeconds {
		return ms / 1000 * 1000
	}
	return ms
}

// walletTime is rowTime for wallet and sub-account rows.
func walletTime(s *fakeexchange.Scenario, ms int64) int64 {
	if s.WalletTimeUnit == fakeexchange.RowTimeSeconds {
		return ms / 1000 * 1000
	}
	return ms
}

// eachFakeMode runs test against a fresh testScenario in every fake mode.
func eachFakeMode(t *testing.T, test func(t *testing.T, s *fakeexchange.Scenario)) {
	for _, m := range fakeModes {
		t.Run(m.name, func(t *testing.T) {
			s := testScenario()
			m.apply(s)
			test(t, s)
		})
	}
}

type harness struct {
	fake    *fakeexchange.Exchange
	url     string
	logbuf  *bytes.Buffer
	reg     *prometheus.Registry
	metrics *client.Metrics
}

func newHarness(t *testing.T, s *fakeexchange.Scenario, opts ...fakeexchange.Option) *harness {
	t.Helper()
	fake, err := fakeexchange.New(s, opts...)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	reg := prometheus.NewRegistry()
	return &harness{fake: fake, url: srv.URL, logbuf: &bytes.Buffer{}, reg: reg, metrics: client.NewMetrics(reg)}
}

func (h *harness) client(t *testing.T, mod func(*client.Config)) *client.Client {
	t.Helper()
	cfg := client.Config{
		BaseURL: h.url, Account: "main", APIKey: testKey, APISecret: testSecret,
		Metrics: h.metrics, Logger: log.NewLogfmtLogger(log.NewSyncWriter(h.logbuf)),
	}
	if mod != nil {
		mod(&cfg)
	}
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func records(fromID int64, n int, ts int64) []fakeexchange.HistoryRecord {
	out := make([]fakeexchange.HistoryRecord, n)
	for i := range out {
		out[i] = fakeexchange.HistoryRecord{ID: fromID + int64(i), Type: "DEPOSIT", Token: "USDT",
			Amount: fmt.Sprintf("%d.000000000000000000000000000001", i+1), Timestamp: ts + int64(i)}
	}
	return out
}

func TestSignedRequestsAreAcceptedByTheFake(t *testing.T) {
	eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
		h := newHarness(t, s)
		c := h.client(t, nil)
		creds, rejected, err := c.Credentials(context.Background())
		if err != nil || len(rejected) != 0 {
			t.Fatal(err, rejected)
		}
		if len(creds) != 2 || creds[0].APIKey != testKey || len(creds[0].AllowedIPs) != 0 || len(creds[1].AllowedIPs) != 1 {
			t.Errorf("credentials = %+v", creds)
		}
		if creds[0].UserID != "12523" {
			t.Errorf("user id = %q, want 12523", creds[0].UserID)
		}
		base := time.Now().Add(-time.Hour).UnixMilli()
		if err := h.fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main",
			Records: records(9007199254740993, 3, base)}}); err != nil {
			t.Fatal(err)
		}
		var pages []client.HistoryPage
		if err := c.TokenHistoryPages(context.Background(), client.HistoryQuery{PageSize: 2}, func(p client.HistoryPage) error {
			pages = append(pages, p)
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		// An id above 2^53 comes through exactly, whatever its spelling;
		// the list ends on the short second page: the first, full, showed
		// the exchange serves 2 a page.
		if len(pages) != 2 || pages[0].Meta != (client.PageMeta{Total: 3, RecordsPerPage: 2, CurrentPage: 1}) ||
			pages[1].Meta.CurrentPage != 2 || pages[0].Records[0].ID != 9007199254740995 || pages[0].Records[0].Timestamp != rowTime(s, base+2) ||
			len(pages[1].Records) != 1 {
			t.Errorf("history pages = %+v", pages)
		}
		for _, p := range pages {
			if d := time.Since(time.UnixMilli(p.ServerTimeMs)).Abs(); d > 5*time.Second || len(p.Malformed) != 0 {
				t.Errorf("page %+v: server time %v from now, or malformed rows", p, d)
			}
		}
		nets, rejected, err := c.TokenNetworks(context.Background())
		if err != nil || len(rejected) != 0 {
			t.Fatal(err, rejected)
		}
		if len(nets) != 1 || !nets[0].WithdrawalFee.Equal(decimal.RequireFromString("4.1")) || nets[0].AllowWithdraw {
			t.Errorf("networks = %+v", nets)
		}
		if _, ok := c.ClockOffset(); !ok {
			t.Error("no clock offset recorded from the answers")
		}
	})
}

func TestWrongSecretIsAnAuthError(t *testing.T) {
	eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
		h := newHarness(t, s)
		_, _, err := h.client(t, func(c *client.Config) { c.APISecret = "wrong-secret" }).Credentials(context.Background())
		if !client.IsAuth(err) {
			t.Fatalf("err = %v", err)
		}
	})
}

// A local clock 6 minutes behind has its first signed request rejected;
// the client learns the exchange's time from the public system info and
// signs once more with it.
func TestLocalClockBeyondTheSigningWindowCalibratesThroughSystemInfo(t *testing.T) {
	eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
		h := newHarness(t, s)
		c := h.client(t, func(c *client.Config) {
			c.Now = func() time.Time { return time.Now().Add(-6 * time.Minute) }
		})
		if _, _, err := c.Credentials(context.Background()); err != nil {
			t.Fatalf("first signed call after calibration: %v", err)
		}
		var got []string
		for _, r := range h.fake.Requests() {
			got = append(got, fmt.Sprintf("%s %d", r.Endpoint, r.Status))
		}
		want := []string{"credentials 401", "system_info 200", "credentials 200"}
		if strings.Join(got, ", ") != strings.Join(want, ", ") {
			t.Errorf("requests %v, want %v", got, want)
		}
		off, ok := c.ClockOffset()
		if d := off - 6*time.Minute; !ok || d < -time.Second || d > time.Second {
			t.Errorf("offset = %v (known %v), want 6m ± 1s", off, ok)
		}
		if d := time.Until(c.ServerNow()); d < -time.Second || d > time.Second {
			t.Errorf("ServerNow is %v away from the exchange's clock", d)
		}
		if !strings.Contains(h.logbuf.String(), "local clock is drifting") {
			t.Errorf("no skew warning for a 6-minute offset:\n%s", h.logbuf.String())
		}
	})
}

func TestHistoryPagesThroughEveryRecordWithFilters(t *testing.T) {
	eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
		h := newHarness(t, s, fakeexchange.WithRateLimit(1000, time.Minute))
		base := time.Now().Add(-time.Hour).UnixMilli()
		if err := h.fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main",
			Records: records(1, 2345, base)}}); err != nil {
			t.Fatal(err)
		}
		c := h.client(t, func(c *client.Config) { c.RateLimit = client.RateLimit{Requests: 1000, Window: time.Minute} })
		got, bad, err := c.TokenHistory(context.Background(), client.HistoryQuery{Type: "DEPOSIT", StartTime: base + 100, EndTime: base + 2299, PageSize: 100})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2200 || len(bad) != 0 {
			t.Fatalf("got %d records and %d malformed rows, want 2200 and none", len(got), len(bad))
		}
		seen := map[int64]bool{}
		for _, r := range got {
			if seen[r.ID] || r.Timestamp < rowTime(s, base+100) || r.Timestamp > base+2299 {
				t.Fatalf("record %+v repeated or outside the window", r)
			}
			seen[r.ID] = true
		}
		if want := decimal.RequireFromString("101.000000000000000000000000000001"); !got[len(got)-1].Amount.Equal(want) {
			t.Errorf("oldest amount %s, want %s", got[len(got)-1].Amount, want)
		}
		var pages int
		for _, r := range h.fake.Requests() {
			if r.Endpoint == endpoint.TokenHistory {
				pages++
				if r.Status != 200 {
					t.Errorf("request %s answered %d", r.RawQuery, r.Status)
				}
				if want := fmt.Sprintf("endTime=%d&page=%d&size=100&startTime=%d&type=DEPOSIT", base+2299, pages, base+100); r.RawQuery != want {
					t.Errorf("query %q, want %q: sorted by name", r.RawQuery, want)
				}
			}
		}
		// 22 full pages, then the empty page that shows there is no 23rd: a
		// full page always leads to the next, whatever meta.total says.
		if pages != 23 {
			t.Errorf("%d page requests, want 23", pages)
		}
	})
}

// Records arriving between two page requests shift the newest-first pages;
// the client returns every record of the poll's query window at least once and
// leaves deduplication to the caller.
func TestHistoryPagingWithRecordsArrivingBetweenPages(t *testing.T) {
	eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
		h := newHarness(t, s, fakeexchange.WithRateLimit(1000, time.Minute))
		base := time.Now().Add(-time.Hour).UnixMilli()
		if err := h.fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main",
			Records: records(1, 250, base)}}); err != nil {
			t.Fatal(err)
		}
		next := int64(10000)
		h.fake.BeforeHistoryPage(func(account string, page int) {
			if page > 1 {
				// One record inside the query window, one after its end.
				_ = h.fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: account,
					Records: []fakeexchange.HistoryRecord{{ID: next, Type: "DEPOSIT", Token: "BTC", Amount: "1", Timestamp: base + 249},
						{ID: next + 1, Type: "DEPOSIT", Token: "BTC", Amount: "1", Timestamp: time.Now().UnixMilli() + 1000}}}})
				next += 2
			}
		})
		c := h.client(t, func(c *client.Config) { c.RateLimit = client.RateLimit{Requests: 1000, Window: time.Minute} })
		got, _, err := c.TokenHistory(context.Background(), client.HistoryQuery{StartTime: base, EndTime: base + 1000, PageSize: 50})
		if err != nil {
			t.Fatal(err)
		}
		ids := map[int64]int{}
		for _, r := range got {
			ids[r.ID]++
		}
		for id := int64(1); id <= 250; id++ {
			if ids[id] == 0 {
				t.Errorf("record %d of the window was skipped", id)
			}
		}
		if len(got) <= 250 {
			t.Errorf("got %d rows; the inserted records should have shifted pages", len(got))
		}
	})
}

func TestBudgetIsNeverExceededAtTheFake(t *testing.T) {
	const window = 400 * time.Millisecond
	h := newHarness(t, testScenario(), fakeexchange.WithRateLimit(10, window))
	base := time.Now().Add(-time.Hour).UnixMilli()
	// 250 records: two full pages and a short one, clearly the last.
	if err := h.fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main",
		Records: records(1, 250, base)}}); err != nil {
		t.Fatal(err)
	}
	c := h.client(t, func(c *client.Config) { c.RateLimit = client.RateLimit{Requests: 10, Window: window} })
	var wg sync.WaitGroup
	for g := 0; g < 6; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// 3 pages each: history and credentials share nothing but the account.
			if _, _, err := c.TokenHistory(context.Background(), client.HistoryQuery{PageSize: 100}); err != nil {
				t.Error(err)
			}
			if _, _, err := c.Credentials(context.Background()); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	perEndpoint := map[string][]time.Time{}
	for _, r := range h.fake.Requests() {
		if r.Status == 429 {
			t.Errorf("the fake answered 429 to %s", r.Endpoint)
		}
		if r.Account != "" {
			perEndpoint[r.Endpoint] = append(perEndpoint[r.Endpoint], r.Time)
		}
	}
	if n := len(perEndpoint[endpoint.TokenHistory]); n != 18 {
		t.Errorf("%d history requests, want 18", n)
	}
	for ep, times := range perEndpoint {
		if worst := busiestWindow(times, window); worst > 5 {
			t.Errorf("%s: %d requests arrived within one %v window; budget is 5 (50%% of 10)", ep, worst, window)
		}
	}
}

// Retries spend budget like first attempts: with 503s and 429 storms
// injected at the fake and several callers retrying at once, no limit window of
// the limit's length ever holds more than budget × limit requests of one
// endpoint, counted at the fake, whatever their answer.
func TestBudgetHoldsWithRetriesUnderFaults(t *testing.T) {
	const window = 400 * time.Millisecond
	h := newHarness(t, testScenario(), fakeexchange.WithRateLimit(10, window))
	base := time.Now().Add(-time.Hour).UnixMilli()
	if err := h.fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main",
		Records: records(1, 250, base)}}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []fakeexchange.Fault{
		{Kind: fakeexchange.FaultHTTPError, Status: 503, Endpoint: endpoint.TokenHistory, Count: 4},
		{Kind: fakeexchange.FaultRateLimitStorm, Endpoint: endpoint.TokenHistory, Count: 2},
		{Kind: fakeexchange.FaultHTTPError, Status: 503, Endpoint: endpoint.Credentials, Count: 3},
		{Kind: fakeexchange.FaultRateLimitStorm, Endpoint: endpoint.Credentials, Count: 2},
	} {
		h.fake.InjectFault(f)
	}
	c := h.client(t, func(c *client.Config) {
		c.RateLimit = client.RateLimit{Requests: 10, Window: window}
		c.MaxRetries = 5
		// Back-off of seconds, cut short; the budget's own waits are
		// re-checked on waking, so this cannot let a request through early.
		c.Sleep = func(ctx context.Context, d time.Duration) error {
			select {
			case <-time.After(min(d, 50*time.Millisecond)):
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	})
	var wg sync.WaitGroup
	var failed atomic.Int32
	for g := 0; g < 5; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := c.TokenHistory(context.Background(), client.HistoryQuery{PageSize: 100}); err != nil {
				failed.Add(1)
			}
			if _, _, err := c.Credentials(context.Background()); err != nil {
				failed.Add(1)
			}
		}()
	}
	wg.Wait()
	perEndpoint := map[string][]time.Time{}
	var faulted int
	for _, r := range h.fake.Requests() {
		if r.Status == 429 && r.Fault == "" {
			t.Errorf("the fake's own limit answered 429 to %s", r.Endpoint)
		}
		if r.Fault != "" {
			faulted++
		}
		if r.Account != "" {
			perEndpoint[r.Endpoint] = append(perEndpoint[r.Endpoint], r.Time)
		}
	}
	if faulted != 11 {
		t.Errorf("%d requests met a fault, want all 11 injected", faulted)
	}
	if n := failed.Load(); n != 0 {
		t.Errorf("%d calls failed; 5 retries should outlast the faults", n)
	}
	// 5 callers × 3 pages, plus a retry for each of the 6 faulted attempts.
	if n := len(perEndpoint[endpoint.TokenHistory]); n != 21 {
		t.Errorf("%d history requests, want 21", n)
	}
	for ep, times := range perEndpoint {
		if worst := busiestWindow(times, window); worst > 5 {
			t.Errorf("%s: %d requests arrived within one %v window; budget is 5 (50%% of 10)", ep, worst, window)
		}
	}
}

// The public endpoint's per-IP limit is undocumented: it gets the same
// sliding-window budget as a private endpoint.
func TestPublicEndpointKeepsThePrivateBudget(t *testing.T) {
	const window = 300 * time.Millisecond
	h := newHarness(t, testScenario())
	c := h.client(t, func(c *client.Config) {
		c.Account, c.APIKey, c.APISecret = "", "", ""
		c.RateLimit = client.RateLimit{Requests: 10, Window: window}
	})
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := c.TokenNetworks(context.Background()); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	var times []time.Time
	for _, r := range h.fake.Requests() {
		times = append(times, r.Time)
	}
	if len(times) != 8 {
		t.Fatalf("%d requests, want 8", len(times))
	}
	if worst := busiestWindow(times, window); worst > 5 {
		t.Errorf("%d requests within one %v window, want the budget's 5 (50%% of 10)", worst, window)
	}
}

// busiestWindow is the most arrivals within any span shorter than window.
func busiestWindow(times []time.Time, window time.Duration) int {
	worst := 0
	for _, a := range times {
		n := 0
		for _, b := range times {
			if !b.Before(a) && b.Sub(a) < window {
				n++
			}
		}
		worst = max(worst, n)
	}
	return worst
}

func TestRateLimitStormBacksOffAndRecovers(t *testing.T) {
	eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
		const window = 200 * time.Millisecond
		h := newHarness(t, s, fakeexchange.WithRateLimit(10, window))
		h.fake.InjectFault(fakeexchange.Fault{Kind: fakeexchange.FaultRateLimitStorm, Count: 2})
		c := h.client(t, func(c *client.Config) { c.RateLimit = client.RateLimit{Requests: 10, Window: window} })
		start := time.Now()
		if _, _, err := c.Credentials(context.Background()); err != nil {
			t.Fatalf("did not recover after the storm: %v", err)
		}
		if took := time.Since(start); took < 2*window {
			t.Errorf("two 429s were retried after %v, want at least two windows (%v)", took, 2*window)
		}
		if got := testutil.ToFloat64(counter(t, h.reg, "429")); got != 2 {
			t.Errorf("woox_api_requests_total{code=429} = %v, want 2", got)
		}
	})
}

func counter(t *testing.T, reg *prometheus.Registry, code string) prometheus.Collector {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != "woox_api_requests_total" {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, lp := range m.GetLabel() {
				if lp.GetName() == "code" && lp.GetValue() == code {
					return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "x"}, func() float64 { return m.GetCounter().GetValue() })
				}
			}
		}
	}
	t.Fatalf("no woox_api_requests_total{code=%q}", code)
	return nil
}

// Every fault the fake can inject ends in an error (or a recovery) whose text,
// like every log line, holds neither the secret nor the signature.
func TestNoSecretInErrorsOrLogs(t *testing.T) {
	h := newHarness(t, testScenario(), fakeexchange.WithRateLimit(1000, time.Minute))
	c := h.client(t, func(c *client.Config) {
		// A short limit window keeps the wait after the 429 short.
		c.RateLimit = client.RateLimit{Requests: 1000, Window: 10 * time.Millisecond}
		c.MaxRetries = -1
		c.MaxBodyBytes = 1 << 20
	})
	var out strings.Builder
	for _, kind := range []fakeexchange.FaultKind{
		fakeexchange.FaultHTTPError, fakeexchange.FaultMalformedJSON, fakeexchange.FaultTruncatedJSON,
		fakeexchange.FaultSuccessFalse, fakeexchange.FaultMaintenance, fakeexchange.FaultRateLimitStorm,
		fakeexchange.FaultConnectionReset, fakeexchange.FaultOversizedBody, fakeexchange.FaultWrongContent,
	} {
		h.fake.InjectFault(fakeexchange.Fault{Kind: kind, Count: 1})
		_, _, err := c.Credentials(context.Background())
		if err == nil {
			t.Errorf("%s: no error", kind)
			continue
		}
		fmt.Fprintf(&out, "%s: %v\n%+v\n%#v\n", kind, err, err, err)
	}
	_, _, err := h.client(t, func(c *client.Config) { c.APISecret = testSecret + "x" }).Credentials(context.Background())
	fmt.Fprintf(&out, "%v\n", err)

	// Again with retries and debug logging, which log every failed attempt,
	// through faults that end in a recovery and faults that end in an error.
	retrying := h.client(t, func(c *client.Config) {
		c.RateLimit = client.RateLimit{Requests: 1000, Window: 10 * time.Millisecond}
		c.MaxRetries = 3
		c.Logger = level.NewFilter(c.Logger, level.AllowDebug())
		// Back-off of seconds, cut short: the test is about what is printed.
		c.Sleep = func(ctx context.Context, d time.Duration) error {
			select {
			case <-time.After(min(d, 5*time.Millisecond)):
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	})
	wrongSecret := testSecret[:len(testSecret)-4] + "Zz9y"
	wrong := h.client(t, func(c *client.Config) {
		c.APISecret = wrongSecret
		c.Logger = level.NewFilter(c.Logger, level.AllowDebug())
	})
	for _, tc := range []struct {
		name    string
		fault   fakeexchange.Fault
		c       *client.Client
		wantErr bool
	}{
		{"5xx then success", fakeexchange.Fault{Kind: fakeexchange.FaultHTTPError, Status: 503, Count: 2}, retrying, false},
		{"500 envelope then success", fakeexchange.Fault{Kind: fakeexchange.FaultHTTPError, Status: 500, Count: 1}, retrying, false},
		{"429 then success", fakeexchange.Fault{Kind: fakeexchange.FaultRateLimitStorm, Count: 1}, retrying, false},
		{"connection reset then success", fakeexchange.Fault{Kind: fakeexchange.FaultConnectionReset, Count: 2}, retrying, false},
		{"5xx past every retry", fakeexchange.Fault{Kind: fakeexchange.FaultHTTPError, Status: 502, Count: 4}, retrying, true},
		{"429 past every retry", fakeexchange.Fault{Kind: fakeexchange.FaultRateLimitStorm, Count: 4}, retrying, true},
		{"401 wrong secret", fakeexchange.Fault{}, wrong, true},
	} {
		if tc.fault.Kind != "" {
			h.fake.InjectFault(tc.fault)
		}
		_, _, err := tc.c.TokenHistory(context.Background(), client.HistoryQuery{})
		if (err != nil) != tc.wantErr {
			t.Errorf("%s: err = %v, want error %v", tc.name, err, tc.wantErr)
		}
		if err != nil {
			fmt.Fprintf(&out, "%s: %v\n%+v\n%#v\n", tc.name, err, err, err)
		}
		h.fake.ClearFaults()
	}
	out.WriteString(h.logbuf.String())
	if !strings.Contains(h.logbuf.String(), "retrying exchange request") {
		t.Fatalf("no debug line about retries: the retry path was not logged at all\n%s", h.logbuf.String())
	}

	if strings.Contains(out.String(), testSecret) {
		t.Fatalf("secret leaked:\n%s", out.String())
	}
	if strings.Contains(strings.ToLower(out.String()), "x-api-signature") {
		t.Fatalf("signature header leaked:\n%s", out.String())
	}
	// Every value of the signed headers the fake received: none may appear.
	needles := map[string]string{testSecret: "secret", wrongSecret: "wrong secret", testKey: "x-api-key"}
	var signatures int
	for _, r := range h.fake.Requests() {
		if r.Signature != "" {
			signatures++
			needles[r.Signature] = "x-api-signature"
		}
		if r.APITimestamp != "" {
			needles[r.APITimestamp] = "x-api-timestamp"
		}
	}
	if signatures < 20 {
		t.Fatalf("the fake saw only %d signatures; the faults did not drive the signed paths", signatures)
	}
	for needle, what := range needles {
		if strings.Contains(out.String(), needle) {
			t.Errorf("%s %q appears in errors or logs:\n%s", what, needle, out.String())
		}
	}
}

// The host clock is stepped 10 minutes ahead after the offset was learned
// (a suspended VM, a manual date): the first signed request is refused, the
// client notices its offset is old, learns the exchange's time again and
// signs once more. While the offset is fresh, a refused signature (a wrong
// secret) does not ask the exchange's time on every request.
func TestAHostClockStepAfterCalibrationRecalibrates(t *testing.T) {
	eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
		h := newHarness(t, s)
		var step atomic.Int64
		c := h.client(t, func(c *client.Config) {
			c.Now = func() time.Time { return time.Now().Add(time.Duration(step.Load())) }
		})
		if _, _, err := c.Credentials(context.Background()); err != nil {
			t.Fatal(err)
		}
		step.Store(int64(10 * time.Minute))
		if _, _, err := c.Credentials(context.Background()); err != nil {
			t.Fatalf("signed call after the host clock stepped: %v", err)
		}
		var got []string
		for _, r := range h.fake.Requests() {
			got = append(got, fmt.Sprintf("%s %d", r.Endpoint, r.Status))
		}
		want := []string{"credentials 200", "credentials 401", "system_info 200", "credentials 200"}
		if strings.Join(got, ", ") != strings.Join(want, ", ") {
			t.Errorf("requests %v, want %v", got, want)
		}
		if off, _ := c.ClockOffset(); off > -9*time.Minute || off < -11*time.Minute {
			t.Errorf("offset %v after the step, want about -10m", off)
		}

		wrong := h.client(t, func(cfg *client.Config) {
			cfg.APISecret = "WRONGSECRET00000000000000000"
			cfg.Clock = c.Clock()
		})
		before := len(h.fake.Requests())
		for range 3 {
			if _, _, err := wrong.Credentials(context.Background()); !client.IsAuth(err) {
				t.Fatalf("wrong secret: %v, want an auth error", err)
			}
		}
		for _, r := range h.fake.Requests()[before:] {
			if r.Endpoint == "system_info" {
				t.Errorf("a wrong secret asked the exchange's time although the offset is fresh")
			}
		}
	})
}
