package collector

import (
	"context"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-kit/log"
	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/statefile"
)

// The tests in this file run the token history poller with the real client
// against the fake exchange in each of its adversarial or alternative
// readings of the API, on a manual clock shared by the fake, the client and
// the exporter, and check the counters against exact sums over the fake.

// manualClock is a clock tests move by hand.
type manualClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// readingsRig is one account's history poller against the fake exchange.
type readingsRig struct {
	clock   *manualClock
	fake    *fakeexchange.Exchange
	url     string
	cfg     Config
	account *historyAccount
	poller  *poller
	// stateFile is where the poller saves its state, as with
	// --token-history.state-file.
	stateFile string
	store     *statefile.Store
	logs      *syncBuffer
}

var readingsEpoch = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func newReadingsRig(t *testing.T, s *fakeexchange.Scenario, configure func(*Config)) *readingsRig {
	t.Helper()
	clock := &manualClock{now: readingsEpoch}
	s.Accounts = []fakeexchange.Account{{Name: "main", AccountName: "Main", UserID: 1,
		Keys: []fakeexchange.Key{{APIKey: e2eKey, APISecret: e2eSecret, Permissions: []string{"READ"}}}}}
	fake, err := fakeexchange.New(s, fakeexchange.WithRateLimit(0, 0), fakeexchange.WithPublicRateLimit(0, 0), fakeexchange.WithClock(clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	x := &readingsRig{clock: clock, fake: fake, url: srv.URL, logs: &syncBuffer{},
		stateFile: filepath.Join(t.TempDir(), "state.json")}
	x.cfg = Config{
		Intervals: map[string]time.Duration{client.EndpointTokenHistory: time.Minute}, HistoryOverlap: 5 * time.Minute, HistoryLookback: time.Hour,
		HistorySkipMalformedAfter: 3,
		Logger:                    log.NewLogfmtLogger(x.logs),
		Now:                       clock.Now,
	}
	if configure != nil {
		configure(&x.cfg)
	}
	x.start(t)
	return x
}

// start builds the exporter from the state file, as a start with
// --token-history.state-file does.
func (x *readingsRig) start(t *testing.T) {
	t.Helper()
	store, err := statefile.Open(x.stateFile, x.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	x.store = store
	api, err := client.New(client.Config{BaseURL: x.url, Account: "main", APIKey: e2eKey, APISecret: e2eSecret,
		RateLimit: client.RateLimit{Requests: 1000, Window: time.Second}, Budget: 1, Now: x.clock.Now,
		Sleep: func(context.Context, time.Duration) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	cfg := x.cfg
	cfg.Accounts = []Account{{Name: "main", APIKey: e2eKey, API: api}}
	cfg.State = store
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	x.account = e.history.accounts[0]
	for _, p := range e.pollers {
		if p.endpoint == client.EndpointTokenHistory {
			x.poller = p
		}
	}
}

// restart rebuilds the exporter from the state file.
func (x *readingsRig) restart(t *testing.T) {
	t.Helper()
	if len(x.store.States()) == 0 {
		t.Fatal("no state saved before the restart")
	}
	x.start(t)
}

// poll runs one history poll and returns its error.
func (x *readingsRig) poll() error {
	return x.account.poll(context.Background(), func() {})
}

func (x *readingsRig) mustPoll(t *testing.T) {
	t.Helper()
	if err := x.poll(); err != nil {
		t.Fatalf("poll at %s: %v", x.clock.Now().Format(time.TimeOnly), err)
	}
}

func (x *readingsRig) add(t *testing.T, recs ...fakeexchange.HistoryRecord) {
	t.Helper()
	if err := x.fake.AppendHistory("main", recs...); err != nil {
		t.Fatal(err)
	}
}

// historyRequests counts the token history requests the fake received.
func (x *readingsRig) historyRequests() int {
	n := 0
	for _, r := range x.fake.Requests() {
		if r.Endpoint == fakeexchange.EndpointTokenHistory {
			n++
		}
	}
	return n
}

// checkExact compares the counted totals with exact sums over every record
// the fake holds from the first window's start (now − lookback at the
// epoch) up to until, skipping the ids in except.
func (x *readingsRig) checkExact(t *testing.T, until time.Time, except ...int64) {
	t.Helper()
	type sums struct {
		records         uint64
		inflow, outflow decimal.Decimal
	}
	want := map[[2]string]*sums{}
	from := readingsEpoch.Add(-x.cfg.HistoryLookback).UnixMilli()
next:
	for _, r := range x.fake.ServedHistory("main") {
		for _, id := range except {
			if r.ID == id {
				continue next
			}
		}
		if r.Timestamp < from || r.Timestamp > until.UnixMilli() {
			continue
		}
		k := [2]string{r.Token, r.Type}
		if want[k] == nil {
			want[k] = &sums{}
		}
		a := decimal.RequireFromString(r.Amount)
		want[k].records++
		if a.Sign() > 0 {
			want[k].inflow = want[k].inflow.Add(a)
		} else {
			want[k].outflow = want[k].outflow.Sub(a)
		}
	}
	got := x.account.ledger.Snapshot().Totals
	if len(got) != len(want) {
		t.Errorf("counted %d (token, type) pairs, want %d", len(got), len(want))
	}
	for _, g := range got {
		w := want[[2]string{g.Token, g.Type}]
		if w == nil {
			t.Errorf("counted %s %s, which the fake does not hold", g.Token, g.Type)
			continue
		}
		if g.Records != w.records || !g.Inflow.Equal(w.inflow) || !g.Outflow.Equal(w.outflow) {
			t.Errorf("%s %s: records %d inflow %s outflow %s; want %d, %s, %s",
				g.Token, g.Type, g.Records, g.Inflow, g.Outflow, w.records, w.inflow, w.outflow)
		}
	}
}

func TestLateListedRecordsAreCountedOnceAcrossARestart(t *testing.T) {
	x := newReadingsRig(t, &fakeexchange.Scenario{LateListing: &fakeexchange.LateListing{Share: 0.4, Delay: 30 * time.Minute}}, nil)
	id := int64(0)
	restarted := false
	// Three hours of a record every two minutes, polled every minute: 40 %
	// of them listed only 30 minutes after their time, long behind the 5
	// minute overlap.
	for minute := 0; minute < 180; minute++ {
		if minute%2 == 0 {
			id++
			x.add(t, hist(id, x.clock.Now().Add(-10*time.Second), "DEPOSIT", []string{"USDT", "BTC"}[id%2], fmt.Sprintf("%d.5", id)))
		}
		x.mustPoll(t)
		if minute == 100 {
			x.restart(t)
			restarted = true
		}
		x.clock.Add(time.Minute)
	}
	// Every record is listed by now; one more late interval lets the sweep
	// pass over the last of them.
	for range 70 {
		x.mustPoll(t)
		x.clock.Add(time.Minute)
	}
	if !restarted {
		t.Fatal("no restart")
	}
	x.checkExact(t, x.clock.Now())
	snap := x.account.snap.Load()
	if snap.LateRecords < 15 {
		t.Errorf("woox_token_history_late_records_total = %d; want most of the ~36 late-listed records", snap.LateRecords)
	}
	if got := sumOf(t, &TokenHistoryCollector{accounts: []*historyAccount{x.account}}, "woox_token_history_late_records_total"); got != float64(snap.LateRecords) {
		t.Errorf("exported late records %v, want %d", got, snap.LateRecords)
	}
}

func TestUnstableTieOrderIsReadInSlices(t *testing.T) {
	x := newReadingsRig(t, &fakeexchange.Scenario{UnstableTieOrder: true}, nil)
	// 1,001 records; the three oldest share a timestamp, at the boundary
	// of the first page (the exchange lists newest first).
	base := x.clock.Now().Add(-50 * time.Minute)
	var recs []fakeexchange.HistoryRecord
	for i := int64(1); i <= 1001; i++ {
		ts := base.Add(time.Duration(max(i, 3)) * time.Second)
		recs = append(recs, hist(i, ts, "TRANSACTION_FEE", "USDT", "-0.01"))
	}
	x.add(t, recs...)
	// One poll: paging misses one of the tied rows, the slices find it.
	x.mustPoll(t)
	x.checkExact(t, x.clock.Now())
	if n := x.account.inconsistent.Load(); n != 0 {
		t.Errorf("inconsistent polls %d: a window read in slices is complete", n)
	}
	if start := x.account.ledger.Start(); start == readingsEpoch.Add(-time.Hour).UnixMilli() {
		t.Error("the cursor did not advance after the window was read in slices")
	}
}

func TestCappedPagesWithAnUnderstatedTotalLoseNothing(t *testing.T) {
	x := newReadingsRig(t, &fakeexchange.Scenario{PageCap: 500, UnderstateTotal: 1200}, nil)
	base := x.clock.Now().Add(-55 * time.Minute)
	var recs []fakeexchange.HistoryRecord
	for i := int64(1); i <= 2500; i++ {
		recs = append(recs, hist(i, base.Add(time.Duration(i)*time.Second), "DEPOSIT", "USDT", "1"))
	}
	x.add(t, recs...)
	x.mustPoll(t)
	x.checkExact(t, x.clock.Now())
}

func TestClampedPageNumbersEndPaging(t *testing.T) {
	x := newReadingsRig(t, &fakeexchange.Scenario{ClampPages: true}, nil)
	base := x.clock.Now().Add(-55 * time.Minute)
	var recs []fakeexchange.HistoryRecord
	for i := int64(1); i <= 2000; i++ {
		recs = append(recs, hist(i, base.Add(time.Duration(i)*time.Second), "DEPOSIT", "USDT", "1"))
	}
	x.add(t, recs...)
	x.mustPoll(t)
	x.checkExact(t, x.clock.Now())
	// Two full pages and the repeated last one, which brings no new record.
	if n := x.historyRequests(); n > 4 {
		t.Errorf("%d history requests for 2,000 records with clamped pages", n)
	}
}

func TestARecordWhoseTimestampMovesLaterIsCountedOnce(t *testing.T) {
	x := newReadingsRig(t, &fakeexchange.Scenario{}, nil)
	x.add(t, hist(1, x.clock.Now().Add(-20*time.Minute), "WITHDRAW", "USDT", "-100"),
		hist(2, x.clock.Now().Add(-time.Minute), "DEPOSIT", "USDT", "1"))
	x.mustPoll(t)
	x.clock.Add(time.Hour)
	// A status update an hour later moves the withdrawal after the cursor.
	if err := x.fake.MoveRecord("main", 1, x.clock.Now().Add(-time.Minute).UnixMilli()); err != nil {
		t.Fatal(err)
	}
	x.mustPoll(t)
	x.clock.Add(time.Minute)
	x.mustPoll(t)
	got := x.account.ledger.Snapshot().Totals
	for _, g := range got {
		if g.Records != 1 {
			t.Errorf("%s %s counted %d times", g.Token, g.Type, g.Records)
		}
	}
}

func TestIDsSharedAcrossTokensAreDistinctRecords(t *testing.T) {
	x := newReadingsRig(t, &fakeexchange.Scenario{SharedIDs: true}, nil)
	ts := x.clock.Now().Add(-10 * time.Minute)
	x.add(t, hist(7, ts, "TRANSACTION_FEE", "BTC", "-0.0001"), hist(7, ts, "TRANSACTION_FEE", "USDT", "-2"),
		hist(8, ts, "DEPOSIT", "USDT", "5"))
	for range 3 {
		x.mustPoll(t)
		x.clock.Add(time.Minute)
	}
	x.checkExact(t, x.clock.Now())
	snap := x.account.snap.Load()
	if snap.SharedIDRecords != 1 {
		t.Errorf("shared-id records %d, want 1", snap.SharedIDRecords)
	}
	if n := x.account.inconsistent.Load(); n != 0 {
		t.Errorf("inconsistent polls %d, want 0", n)
	}
}

func TestAMalformedRowFailsPollsThenIsSkipped(t *testing.T) {
	x := newReadingsRig(t, &fakeexchange.Scenario{MalformedIDs: []int64{5}}, nil)
	for i := int64(1); i <= 9; i++ {
		x.add(t, hist(i, x.clock.Now().Add(-time.Duration(i)*time.Minute), "DEPOSIT", "USDT", "1"))
	}
	for poll := 1; poll <= 2; poll++ {
		err := x.poll()
		if err == nil || !strings.Contains(err.Error(), `"5"`) {
			t.Fatalf("poll %d: %v; want a failure naming row id 5", poll, err)
		}
		if start := x.account.ledger.Start(); start != readingsEpoch.Add(-time.Hour).UnixMilli() {
			t.Fatalf("cursor moved past a malformed row")
		}
		x.clock.Add(time.Minute)
	}
	x.mustPoll(t) // the third failure skips it
	x.clock.Add(time.Minute)
	x.mustPoll(t)
	x.checkExact(t, x.clock.Now(), 5)
	if n := x.account.malformed.Load(); n != 1 {
		t.Errorf("malformed rows %d, want 1", n)
	}
	if !strings.Contains(x.logs.String(), `id=5`) {
		t.Errorf("no log line names the skipped row:\n%s", x.logs)
	}
}

func TestRowTimesInSecondsAreCounted(t *testing.T) {
	for _, unit := range []string{"s", "s_fraction"} {
		t.Run(unit, func(t *testing.T) {
			x := newReadingsRig(t, &fakeexchange.Scenario{RowTimeUnit: unit}, nil)
			now := x.clock.Now()
			x.add(t, hist(1, now.Add(-59*time.Minute-999*time.Millisecond), "DEPOSIT", "USDT", "1"),
				hist(2, now.Add(-30*time.Minute+123*time.Millisecond), "WITHDRAW", "USDT", "-2"),
				hist(3, now.Add(-time.Second+999*time.Millisecond), "DEPOSIT", "BTC", "3"))
			for range 3 {
				x.mustPoll(t)
				x.clock.Add(time.Minute)
			}
			x.checkExact(t, x.clock.Now())
			if snap := x.account.snap.Load(); snap.LastRecordMs < now.Add(-2*time.Second).UnixMilli() {
				t.Errorf("newest record at %s: times read in the wrong unit", time.UnixMilli(snap.LastRecordMs).UTC())
			}
		})
	}
}

func TestABogusServerTimeOnErrorAnswersNeverMovesTheCursorAhead(t *testing.T) {
	for _, et := range []fakeexchange.ErrorTimestamp{{Offset: 72 * time.Hour}, {Offset: 0, Unit: "us"}} {
		t.Run(fmt.Sprintf("%s %s", et.Offset, et.Unit), func(t *testing.T) {
			et := et
			x := newReadingsRig(t, &fakeexchange.Scenario{ErrorTimestamp: &et}, nil)
			x.add(t, hist(1, x.clock.Now().Add(-time.Minute), "DEPOSIT", "USDT", "1"))
			x.fake.InjectFault(fakeexchange.Fault{Endpoint: fakeexchange.EndpointTokenHistory, Kind: fakeexchange.FaultHTTPError, Status: 500, Count: 2})
			for range 3 {
				_ = x.poll()
				x.clock.Add(time.Minute)
			}
			x.mustPoll(t)
			if start := x.account.ledger.Start(); start > x.clock.Now().UnixMilli() {
				t.Errorf("cursor %s is after now %s", time.UnixMilli(start).UTC(), x.clock.Now().UTC())
			}
			x.add(t, hist(2, x.clock.Now().Add(-time.Second), "DEPOSIT", "USDT", "2"))
			x.clock.Add(time.Minute)
			x.mustPoll(t)
			x.checkExact(t, x.clock.Now())
		})
	}
}

func TestAHostClockTenMinutesOffStillCountsExactly(t *testing.T) {
	for _, offset := range []time.Duration{10 * time.Minute, -10 * time.Minute} {
		t.Run(offset.String(), func(t *testing.T) {
			// The fake's clock is the exchange's: offset from the host's.
			x := newReadingsRig(t, &fakeexchange.Scenario{ServerTimeOffset: offset}, nil)
			server := func() time.Time { return x.clock.Now().Add(offset) }
			x.add(t, hist(1, server().Add(-30*time.Minute), "DEPOSIT", "USDT", "1"))
			// The first signed request is rejected (its timestamp is 10
			// minutes off); the client learns the exchange's time from
			// the public system info and signs again.
			x.mustPoll(t)
			for i := int64(2); i <= 5; i++ {
				x.clock.Add(time.Minute)
				x.add(t, hist(i, server().Add(-time.Second), "WITHDRAW", "USDT", "-0.5"))
				x.mustPoll(t)
			}
			x.clock.Add(time.Minute)
			x.mustPoll(t)
			// Sums over the exchange's time: the first window started an
			// hour before the exchange's time at the first poll.
			x.checkExact(t, server())
			rejected := 0
			for _, r := range x.fake.Requests() {
				if r.Code == -1001 {
					rejected++
				}
			}
			if rejected > 1 {
				t.Errorf("%d signed requests rejected; want at most the first", rejected)
			}
		})
	}
}
