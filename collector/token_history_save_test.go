package collector

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/ledger"
)

// shownNotSaved lists the totals the account shows beyond what its state
// file holds: what a crash at this instant would move back.
func (x *readingsRig) shownNotSaved() []string {
	saved := map[[2]string]uint64{}
	for _, t := range savedStates(x.store)["main"].Totals {
		saved[[2]string{t.Token, t.Type}] = t.Records
	}
	var out []string
	for _, t := range x.account.snap.Load().Totals {
		if s := saved[[2]string{t.Token, t.Type}]; t.Records > s {
			out = append(out, fmt.Sprintf("%s %s: %d shown, %d saved", t.Token, t.Type, t.Records, s))
		}
	}
	return out
}

// With a state file, a total is shown only once the file holds it: shown
// before, a crash would move the counter back, which Prometheus reads as a
// reset and turns into a spike of the whole history.
func TestTotalsAreShownOnlyOnceSaved(t *testing.T) {
	x := newReadingsRig(t, &fakeexchange.Scenario{})
	base := x.clock.Now().Add(-50 * time.Minute)
	var recs []fakeexchange.HistoryRecord
	for i := int64(1); i <= 2500; i++ {
		recs = append(recs, hist(i, base.Add(time.Duration(i)*time.Second), "DEPOSIT", []string{"USDT", "BTC"}[i%2], "1.5"))
	}
	x.add(t, recs...)
	var mu sync.Mutex
	var pages int
	var ahead []string
	x.fake.BeforeHistoryPage(func(_ string, page int) {
		mu.Lock()
		defer mu.Unlock()
		pages++
		ahead = append(ahead, x.shownNotSaved()...)
	})
	x.mustPoll(t)
	x.fake.BeforeHistoryPage(nil)
	if pages < 3 {
		t.Fatalf("the poll read %d pages; the test needs several", pages)
	}
	if len(ahead) > 0 {
		t.Errorf("totals shown before they were saved, between pages: %q", ahead)
	}
	if d := x.shownNotSaved(); len(d) > 0 {
		t.Errorf("after the poll: %q", d)
	}
	x.checkExact(t, x.clock.Now())
	checkTotals(t, x.account.snap.Load().Totals, x.served("main", historyNow.Add(-time.Hour), x.clock.Now()))

	// A write that fails holds the shown totals at the saved ones; the
	// next write that succeeds shows everything.
	shown := x.account.snap.Load()
	save := x.account.save
	x.account.save = func(string, ledger.State) error { return errors.New("no space left on device") }
	x.clock.Add(time.Minute)
	x.add(t, hist(9001, x.clock.Now().Add(-10*time.Second), "WITHDRAW", "USDT", "-7"))
	x.mustPoll(t)
	if got := x.account.snap.Load(); got != shown {
		t.Errorf("after a failed write the shown totals changed: %v, want the saved %v", got.Totals, shown.Totals)
	}
	x.account.save = save
	x.clock.Add(time.Minute)
	x.mustPoll(t)
	checkTotals(t, x.account.snap.Load().Totals, x.served("main", historyNow.Add(-time.Hour), x.clock.Now()))
	if d := x.shownNotSaved(); len(d) > 0 {
		t.Errorf("after a successful write: %q", d)
	}
}

// Records the exchange lists back-dated into the query window while a long poll
// pages change meta.total between pages. Re-reading the whole query window next
// poll only takes longer and sees more of them: the cursor stayed stuck.
// One page is one answer, so the query window is read again in slices that fit a
// page, and the cursor moves. Nothing of this is the exchange overstating
// its total, which the inconsistent counter and its alert are about.
func TestRecordsArrivingBackDatedWhilePagingAreReadInSlices(t *testing.T) {
	x := newReadingsRig(t, &fakeexchange.Scenario{})
	base := x.clock.Now().Add(-50 * time.Minute)
	var recs []fakeexchange.HistoryRecord
	for i := int64(1); i <= 4500; i++ {
		recs = append(recs, hist(i, base.Add(time.Duration(i)*500*time.Millisecond), "TRANSACTION_FEE", "USDT", "-0.01"))
	}
	x.add(t, recs...)
	var mu sync.Mutex
	id := int64(100_000)
	arrived := 0
	// Before every request, a record stamped up to 20 s in the past.
	x.fake.BeforeHistoryPage(func(string, int) {
		mu.Lock()
		defer mu.Unlock()
		id++
		arrived++
		if err := x.fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main",
			Records: []fakeexchange.HistoryRecord{hist(id, x.clock.Now().Add(-time.Duration(id%20)*time.Second), "DEPOSIT", "USDT", "2")}}}); err != nil {
			t.Error(err)
		}
	})
	start := x.account.inUse.Load().Start()
	x.mustPoll(t)
	x.fake.BeforeHistoryPage(nil)
	if arrived < 5 {
		t.Fatalf("%d records arrived while paging; the test needs several", arrived)
	}
	if got := x.account.inUse.Load().Start(); got == start {
		t.Error("the cursor did not move after a poll during which records kept arriving")
	}
	if n := x.account.inconsistent.Load(); n != 0 {
		t.Errorf("woox_token_history_inconsistent_polls_total = %d: records arriving is not an overstated total", n)
	}
	// Every record stamped up to the poll's end is counted, once.
	x.checkExact(t, x.clock.Now())
	x.clock.Add(time.Minute)
	x.mustPoll(t)
	x.checkExact(t, x.clock.Now())
}
