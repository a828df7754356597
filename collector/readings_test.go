package collector

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/statefile"
)

// The tests in this file run the token history poller with the real client
// against the fake exchange in each of its adversarial or alternative
// readings of the API, on the rig's clock, shared by the fake, the client
// and the exporter, and check the counters against exact sums over the fake.

// readingsRig is one account's history poller against the fake exchange.
type readingsRig struct {
	*rig
	cfg     Config
	account *historyAccount
	// stateFile is where the poller saves its state, as with
	// --token-history.state-file.
	stateFile string
	store     *statefile.Store
}

func newReadingsRig(t *testing.T, s *fakeexchange.Scenario) *readingsRig {
	t.Helper()
	x := &readingsRig{rig: newRig(t, s), stateFile: filepath.Join(t.TempDir(), "state.json")}
	x.cfg = x.config()
	x.cfg.Public = nil
	x.cfg.Intervals[endpoint.TokenHistory] = time.Minute
	x.cfg.HistorySkipMalformedAfter = 3
	x.start(t)
	return x
}

// start builds the exporter from the state file, as a start with
// --token-history.state-file does.
func (x *readingsRig) start(t *testing.T) {
	t.Helper()
	store, err := openState(x.stateFile, x.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	x.store = store
	cfg := x.cfg
	cfg.State = store
	x.account = newExporter(t, cfg).history.accounts[0]
}

// restart rebuilds the exporter from the state file.
func (x *readingsRig) restart(t *testing.T) {
	t.Helper()
	if len(savedStates(x.store)) == 0 {
		t.Fatal("no state saved before the restart")
	}
	x.start(t)
}

// poll runs one history poll and returns its error.
func (x *readingsRig) poll() error {
	_, err := x.account.poll(context.Background(), func() {})
	return err
}

func (x *readingsRig) mustPoll(t *testing.T) {
	t.Helper()
	if err := x.poll(); err != nil {
		t.Fatalf("poll at %s: %v", x.clock.Now().Format(time.TimeOnly), err)
	}
}

// checkExact compares the counted totals with exact sums over every record
// the fake holds from the first query window's start (now − lookback at
// historyNow) up to until, skipping the ids in except.
func (x *readingsRig) checkExact(t *testing.T, until time.Time, except ...int64) {
	t.Helper()
	from := historyNow.Add(-x.cfg.HistoryLookback)
	checkTotals(t, x.account.inUse.Load().Snapshot().Totals, x.served("main", from, until, except...))
}

func TestLateListedRecordsAreCountedOnceAcrossARestart(t *testing.T) {
	x := newReadingsRig(t, &fakeexchange.Scenario{LateListing: &fakeexchange.LateListing{Share: 0.4, Delay: 30 * time.Minute}})
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
	x := newReadingsRig(t, &fakeexchange.Scenario{UnstableTieOrder: true})
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
	if start := x.account.inUse.Load().Start(); start == historyNow.Add(-time.Hour).UnixMilli() {
		t.Error("the cursor did not advance after the window was read in slices")
	}
}

func TestCappedPagesWithAnUnderstatedTotalLoseNothing(t *testing.T) {
	x := newReadingsRig(t, &fakeexchange.Scenario{PageCap: 500, UnderstateTotal: 1200})
	base := x.clock.Now().Add(-55 * time.Minute)
	var recs []fakeexchange.HistoryRecord
	for i := int64(1); i <= 2500; i++ {
		recs = append(recs, hist(i, base.Add(time.Duration(i)*time.Second), "DEPOSIT", "USDT", "1"))
	}
	x.add(t, recs...)
	x.mustPoll(t)
	x.checkExact(t, x.clock.Now())
}

// An exchange that caps pages at 30 rows without saying so, and understates
// the total: the first poll's backlog shows the cap, and then each poll
// whose page holds 26 to 29 rows (more than the default page size, fewer
// than the cap) ends on that one page and counts exactly.
func TestCappedAt30PollsOf26To29RowsSendOneRequestEach(t *testing.T) {
	x := newReadingsRig(t, &fakeexchange.Scenario{PageCap: 30, UnderstateTotal: 20})
	// No late sweep within the test: every request is a regular poll's. An
	// overlap of a second re-reads only the previous poll's newest record.
	x.cfg.HistoryLateInterval = 24 * time.Hour
	x.cfg.HistoryOverlap = time.Second
	x.start(t)
	id := int64(0)
	batch := func(n int, from time.Time, step time.Duration) {
		var recs []fakeexchange.HistoryRecord
		for i := range n {
			id++
			recs = append(recs, hist(id, from.Add(time.Duration(i)*step), "DEPOSIT", []string{"USDT", "BTC"}[id%2], fmt.Sprintf("%d.25", id)))
		}
		x.add(t, recs...)
	}
	batch(100, x.clock.Now().Add(-55*time.Minute), 30*time.Second)
	x.mustPoll(t)
	x.checkExact(t, x.clock.Now())
	// Pages of 30, 30, 30 and 10: the 10 is shorter than the cap seen.
	if n := len(x.requests(endpoint.TokenHistory)); n != 4 {
		t.Fatalf("%d requests for the backlog of 100, want 4", n)
	}
	for poll := range 12 {
		x.clock.Add(10 * time.Minute)
		before := len(x.requests(endpoint.TokenHistory))
		// 25 to 28 new records and the previous newest: 26 to 29 rows.
		rows := 26 + poll%4
		batch(rows-1, x.clock.Now().Add(-9*time.Minute), 6*time.Second)
		x.mustPoll(t)
		x.checkExact(t, x.clock.Now())
		if n := len(x.requests(endpoint.TokenHistory)) - before; n != 1 {
			t.Errorf("poll %d of %d rows sent %d requests, want 1", poll, rows, n)
		}
	}
	if n := x.account.inconsistent.Load(); n != 0 {
		t.Errorf("inconsistent polls %d, want 0", n)
	}
}

func TestClampedPageNumbersEndPaging(t *testing.T) {
	x := newReadingsRig(t, &fakeexchange.Scenario{ClampPages: true})
	base := x.clock.Now().Add(-55 * time.Minute)
	var recs []fakeexchange.HistoryRecord
	for i := int64(1); i <= 2000; i++ {
		recs = append(recs, hist(i, base.Add(time.Duration(i)*time.Second), "DEPOSIT", "USDT", "1"))
	}
	x.add(t, recs...)
	x.mustPoll(t)
	x.checkExact(t, x.clock.Now())
	// Two full pages and the repeated last one, which brings no new record.
	if n := len(x.requests(endpoint.TokenHistory)); n > 4 {
		t.Errorf("%d history requests for 2,000 records with clamped pages", n)
	}
}

func TestARecordWhoseTimestampMovesLaterIsCountedOnce(t *testing.T) {
	x := newReadingsRig(t, &fakeexchange.Scenario{})
	x.add(t, hist(1, x.clock.Now().Add(-20*time.Minute), "WITHDRAW", "USDT", "-100"),
		hist(2, x.clock.Now().Add(-time.Minute), "DEPOSIT", "USDT", "1"))
	x.mustPoll(t)
	x.clock.Add(time.Hour)
	// A status update an hour later moves the withdrawal after the cursor.
	if err := x.fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main",
		Records: []fakeexchange.HistoryRecord{{ID: 1, Timestamp: x.clock.Now().Add(-time.Minute).UnixMilli()}}, Restamp: true}}); err != nil {
		t.Fatal(err)
	}
	x.mustPoll(t)
	x.clock.Add(time.Minute)
	x.mustPoll(t)
	got := x.account.inUse.Load().Snapshot().Totals
	for _, g := range got {
		if g.Records != 1 {
			t.Errorf("%s %s counted %d times", g.Token, g.Type, g.Records)
		}
	}
}

func TestIDsSharedAcrossTokensAreDistinctRecords(t *testing.T) {
	x := newReadingsRig(t, &fakeexchange.Scenario{SharedIDs: true})
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
	x := newReadingsRig(t, &fakeexchange.Scenario{MalformedIDs: []int64{5}})
	for i := int64(1); i <= 9; i++ {
		x.add(t, hist(i, x.clock.Now().Add(-time.Duration(i)*time.Minute), "DEPOSIT", "USDT", "1"))
	}
	for poll := 1; poll <= 2; poll++ {
		err := x.poll()
		if err == nil || !strings.Contains(err.Error(), `"5"`) {
			t.Fatalf("poll %d: %v; want a failure naming row id 5", poll, err)
		}
		if start := x.account.inUse.Load().Start(); start != historyNow.Add(-time.Hour).UnixMilli() {
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
			x := newReadingsRig(t, &fakeexchange.Scenario{RowTimeUnit: unit})
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
			x := newReadingsRig(t, &fakeexchange.Scenario{ErrorTimestamp: &et})
			x.add(t, hist(1, x.clock.Now().Add(-time.Minute), "DEPOSIT", "USDT", "1"))
			x.fake.InjectFault(fakeexchange.Fault{Endpoint: endpoint.TokenHistory, Kind: fakeexchange.FaultHTTPError, Status: 500, Count: 2})
			for range 3 {
				_ = x.poll()
				x.clock.Add(time.Minute)
			}
			x.mustPoll(t)
			if start := x.account.inUse.Load().Start(); start > x.clock.Now().UnixMilli() {
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
			x := newReadingsRig(t, &fakeexchange.Scenario{ServerTimeOffset: offset})
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
			// Sums over the exchange's time: the first query window started an
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
