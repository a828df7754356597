package collector

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-kit/log"

	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/ledger"
)

// totalRig is the token history of "main" read by the real client in pages
// of 2 from a fake exchange whose meta.total over- or understates the rows
// it holds, polled by hand.
type totalRig struct {
	*rig
	hist   *historyAccount
	nextID int64
}

func newTotalRig(t *testing.T, s *fakeexchange.Scenario) *totalRig {
	t.Helper()
	r := newRig(t, s)
	l := ledger.New(r.clock.Now().Add(-time.Hour).UnixMilli(), ledger.Config{Overlap: time.Minute, LateWindow: DefaultHistoryLateWindow})
	a := newHistoryAccount("main", r.api(), l, nil, historyOptions{lateInterval: DefaultHistoryLateInterval}, log.NewLogfmtLogger(r.logs))
	a.pageSize = 2
	return &totalRig{rig: r, hist: a, nextID: 1}
}

// addDeposits appends n records, stamped a few seconds ago, with exact
// amounts, and moves the clock a second on, as time passes between arrivals.
func (r *totalRig) addDeposits(t *testing.T, n int) {
	t.Helper()
	for range n {
		r.add(t, fakeexchange.HistoryRecord{ID: r.nextID, Type: "DEPOSIT", Token: "USDT",
			Amount: "0.100000000000000000000000000001", Timestamp: r.clock.Now().Add(-5 * time.Second).UnixMilli()})
		r.nextID++
	}
	r.clock.Add(time.Second)
}

func (r *totalRig) poll(t *testing.T) {
	t.Helper()
	if _, err := r.hist.poll(context.Background(), func() {}); err != nil {
		t.Fatalf("poll: %v", err)
	}
}

// checkOnce fails unless every record the fake holds is counted exactly once.
func (r *totalRig) checkOnce(t *testing.T) {
	t.Helper()
	checkTotals(t, r.hist.inUse.Load().Snapshot().Totals, r.fake.ServedHistory("main"))
}

func (r *totalRig) inconsistent(t *testing.T) float64 {
	t.Helper()
	return sumOf(t, &TokenHistoryCollector{accounts: []*historyAccount{r.hist}}, "woox_token_history_inconsistent_polls_total")
}

// An exchange whose meta.total promises rows it never serves: the first
// poll holds the cursor, the re-read that finds nothing new moves it, every
// record is counted once, and the counter and one warning show it.
func TestTokenHistoryOverstatedTotalAdvancesAfterReRead(t *testing.T) {
	r := newTotalRig(t, &fakeexchange.Scenario{OverstateTotal: 3})
	r.addDeposits(t, 5)
	start := r.hist.inUse.Load().Start()

	r.poll(t)
	if r.hist.inUse.Load().Start() != start {
		t.Fatal("cursor moved after a single short read")
	}
	if got := r.inconsistent(t); got != 1 {
		t.Errorf("inconsistent polls = %v after the first poll, want 1", got)
	}
	r.checkOnce(t)

	// The re-read counts nothing, but the counter moved: the exporter
	// must regather the family.
	gen := (&TokenHistoryCollector{accounts: []*historyAccount{r.hist}}).generation()
	r.poll(t)
	if (&TokenHistoryCollector{accounts: []*historyAccount{r.hist}}).generation() == gen {
		t.Error("generation unchanged after an inconsistent poll: the data part's generation would go stale")
	}
	if r.hist.inUse.Load().Start() <= start {
		t.Fatal("cursor did not move after a re-read found nothing new")
	}
	if got := r.inconsistent(t); got != 2 {
		t.Errorf("inconsistent polls = %v after the re-read, want 2", got)
	}
	r.checkOnce(t)

	// The exchange keeps overstating while records arrive (stamped before
	// the last poll's end, like late records): the poll that finds them
	// re-reads, the next moves the cursor, and nothing is counted twice.
	for range 3 {
		r.addDeposits(t, 3)
		before := r.hist.inUse.Load().Start()
		r.poll(t)
		r.poll(t)
		if r.hist.inUse.Load().Start() <= before {
			t.Fatalf("cursor stuck at %d while records arrive", before)
		}
	}
	r.checkOnce(t)
	if n := strings.Count(r.logs.String(), "level=warn"); n != 1 {
		t.Errorf("%d warnings, want one for the whole streak:\n%s", n, r.logs.String())
	}
}

// An exchange whose meta.total is lower than the rows it holds: a client
// that pages until a short page reads them all, and the poll is consistent.
func TestTokenHistoryUnderstatedTotalCountsEveryRecordOnce(t *testing.T) {
	r := newTotalRig(t, &fakeexchange.Scenario{UnderstateTotal: 3})
	var pages atomic.Int64
	r.fake.BeforeHistoryPage(func(string, int) { pages.Add(1) })
	r.addDeposits(t, 7)
	start := r.hist.inUse.Load().Start()
	r.poll(t)
	if n := pages.Load(); n < 4 {
		// 7 rows in pages of 2 need 4 pages; meta.total says 4 rows, 2 pages.
		t.Fatalf("%d history pages fetched, want 4: the client stopped paging at meta.total", n)
	}
	r.checkOnce(t)
	before := r.hist.inUse.Load().Start()
	if before == start {
		t.Error("cursor did not move after the first poll: more rows than meta.total must be consistent")
	}
	r.addDeposits(t, 2)
	r.poll(t)
	r.checkOnce(t)
	if r.hist.inUse.Load().Start() <= before {
		t.Error("cursor did not move after consistent polls")
	}
	if got := r.inconsistent(t); got != 0 {
		t.Errorf("inconsistent polls = %v, want 0: more rows than meta.total is consistent", got)
	}
}
