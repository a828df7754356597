package collector

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-kit/log"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
	"github.com/woox-exporter/woox_exporter/ledger"
)

// pagedSource serves recs, newest first, in pages of the size asked for,
// with the exchange's clock at nowMs; before each page, beforePage may
// change what it serves. A stub, not a fake exchange: it changes the
// history between the pages of one poll, which the other tests of the
// poll do through the real client against the fake one.
type pagedSource struct {
	recs       []client.HistoryRecord
	malformed  []client.MalformedRow
	nowMs      int64
	beforePage func()
	requests   int
}

func (s *pagedSource) TokenHistoryPages(ctx context.Context, q client.HistoryQuery, fn func(client.HistoryPage) error) error {
	for page := 0; ; page++ {
		if s.beforePage != nil {
			s.beforePage()
		}
		s.requests++
		var in []client.HistoryRecord
		for _, r := range s.recs {
			if r.Timestamp >= q.StartTime && r.Timestamp <= q.EndTime {
				in = append(in, r)
			}
		}
		slices.SortStableFunc(in, func(a, b client.HistoryRecord) int { return int(b.Timestamp - a.Timestamp) })
		p := client.HistoryPage{Meta: client.PageMeta{Total: len(in) + len(s.malformed)}, ServerTimeMs: s.nowMs}
		if page == 0 {
			p.Malformed = s.malformed
		}
		from := min(page*q.PageSize, len(in))
		p.Records = in[from:min(from+q.PageSize, len(in))]
		if err := fn(p); err != nil {
			return err
		}
		if from+q.PageSize >= len(in) {
			return nil
		}
	}
}

func (s *pagedSource) ServerNow() time.Time               { return time.UnixMilli(s.nowMs) }
func (s *pagedSource) ClockOffset() (time.Duration, bool) { return 0, true }

func records(s *ledger.Snapshot) uint64 {
	var n uint64
	for _, t := range s.Totals {
		n += t.Records
	}
	return n
}

const pollNow = int64(1_700_000_000_000)

func usdtDeposit(id, ts int64) client.HistoryRecord {
	return client.HistoryRecord{ID: id, Timestamp: ts, Token: "USDT", Type: "DEPOSIT", Amount: dec("1")}
}

func deposits(n int) []client.HistoryRecord {
	var out []client.HistoryRecord
	for i := range n {
		out = append(out, usdtDeposit(int64(i+1), pollNow-int64(n-i)*1000))
	}
	return out
}

// newPolledAccount polls src in pages of size rows, its query window the hour
// before pollNow, saving through save (nil: no state file) and logging to
// logs.
func newPolledAccount(src *pagedSource, size int, save func(ledger.State) error, logs *testsupport.SyncBuffer) *historyAccount {
	l := ledger.New(pollNow-time.Hour.Milliseconds(), ledger.Config{Overlap: time.Minute})
	opts := historyOptions{skipMalformedAfter: 2}
	if save != nil {
		opts.save = func(_ string, st ledger.State) error { return save(st) }
	}
	a := newHistoryAccount("main", src, l, nil, opts, log.NewLogfmtLogger(logs))
	a.pageSize = size
	return a
}

func pollOnce(a *historyAccount) (int, error) {
	n, err := a.poll(context.Background(), func() {})
	return n.skipped, err
}

// logLines are the lines of logs, at level lvl when it is not "".
func logLines(logs *testsupport.SyncBuffer, lvl string) []string {
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		if line != "" && (lvl == "" || strings.Contains(line, "level="+lvl)) {
			out = append(out, line)
		}
	}
	return out
}

func TestHistoryPollPublishesOnlyWhatTheStateFileHolds(t *testing.T) {
	var saved uint64
	fail := false
	save := func(st ledger.State) error {
		if fail {
			return errors.New("no space left on device")
		}
		saved = 0
		for _, t := range st.Totals {
			saved += t.Records
		}
		return nil
	}
	src := &pagedSource{recs: deposits(5), nowMs: pollNow}
	logs := &testsupport.SyncBuffer{}
	a := newPolledAccount(src, 2, save, logs)
	src.beforePage = func() {
		if n := records(a.snap.Load()); n > saved {
			t.Errorf("%d records published with %d saved", n, saved)
		}
	}
	base := a.published.Load()
	if _, err := pollOnce(a); err != nil {
		t.Fatal(err)
	}
	if n, got := a.published.Load()-base, records(a.snap.Load()); n != 1 || got != 5 {
		t.Fatalf("published %d times, showing %d records; want the 5 records once, after the save", n, got)
	}
	// A failed save publishes nothing and says so; the next one publishes.
	fail = true
	src.recs = append(src.recs, usdtDeposit(6, pollNow+500))
	src.nowMs += 1000
	if _, err := pollOnce(a); err != nil {
		t.Fatal(err)
	}
	if n := a.published.Load() - base; n != 1 {
		t.Errorf("published after a failed save: %d publications", n)
	}
	if all, errs := logLines(logs, ""), logLines(logs, "error"); len(all) != 1 || len(errs) != 1 {
		t.Errorf("log %q, want one error", all)
	}
	fail = false
	if _, err := pollOnce(a); err != nil {
		t.Fatal(err)
	}
	if n, got := a.published.Load()-base, records(a.snap.Load()); n != 2 || got != 6 {
		t.Errorf("published %d times, showing %d records; want the 6 records once saved", n, got)
	}
}

func TestHistoryPollWithoutAStateFilePublishesEachPageThatCounted(t *testing.T) {
	src := &pagedSource{recs: deposits(5), nowMs: pollNow}
	a := newPolledAccount(src, 2, nil, &testsupport.SyncBuffer{})
	var shown []uint64
	src.beforePage = func() { shown = append(shown, records(a.snap.Load())) }
	base := a.published.Load()
	if _, err := pollOnce(a); err != nil {
		t.Fatal(err)
	}
	shown = append(shown, records(a.snap.Load()))
	if n := a.published.Load() - base; !slices.Equal(shown, []uint64{0, 2, 4, 5}) || n != 3 {
		t.Errorf("records shown before each page and after %v in %d publications, want 0, 2, 4, 5 in 3: one publication a page", shown, n)
	}
}

// A total that changes between pages is records arriving: the query window is
// read again in slices, the cursor moves, and the poll is not counted as
// inconsistent.
func TestHistoryPollReadsAWindowWhoseTotalChangedInSlices(t *testing.T) {
	src := &pagedSource{recs: deposits(6), nowMs: pollNow}
	a := newPolledAccount(src, 3, nil, &testsupport.SyncBuffer{})
	id := int64(100)
	src.beforePage = func() {
		if id < 102 {
			id++
			src.recs = append(src.recs, client.HistoryRecord{ID: id, Timestamp: pollNow - 30_000 - id, Token: "USDT", Type: "DEPOSIT", Amount: dec("2")})
		}
	}
	start := a.l.Start()
	if _, err := pollOnce(a); err != nil {
		t.Fatal(err)
	}
	if a.l.Start() == start {
		t.Error("the cursor did not move")
	}
	if n := a.inconsistent.Load(); n != 0 {
		t.Errorf("inconsistent polls %d, want 0", n)
	}
	snap := a.l.Snapshot()
	if n := records(&snap); n != 8 {
		t.Errorf("%d records counted, want all 8", n)
	}
}

func TestHistoryPollFailsAMalformedRowThenSkipsIt(t *testing.T) {
	src := &pagedSource{recs: deposits(3), malformed: []client.MalformedRow{{Key: "id:9", ID: "9", Err: "amount: not a number"}}, nowMs: pollNow}
	logs := &testsupport.SyncBuffer{}
	a := newPolledAccount(src, 10, nil, logs)
	if _, err := pollOnce(a); err == nil {
		t.Fatal("the first poll with a malformed row succeeded")
	}
	n, err := pollOnce(a)
	if err != nil {
		t.Fatalf("the second poll failed: %v", err)
	}
	if m := a.malformed.Load(); n != 1 || m != 1 {
		t.Errorf("left out %d, malformed %d; want the row skipped once", n, m)
	}
	if all, warns := logLines(logs, ""), logLines(logs, "warn"); len(all) != 1 || len(warns) != 1 {
		t.Errorf("log %q, want one warning", all)
	}
}
