package ledger

import (
	"cmp"
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"time"
)

// sweepOnce drives one late sweep to its end against x, as the collector
// does: one request a slice, a slice fits when it is shorter than a page.
func sweepOnce(t *testing.T, l *Ledger, x *exchange, now int64, every time.Duration) (requests int) {
	t.Helper()
	for {
		from, to, ok := l.NextSweep(now, every)
		if !ok {
			return requests
		}
		requests++
		if requests > 1000 {
			t.Fatal("sweep does not end")
		}
		p := x.page(from, to, 1, x.size)
		l.SweepRead(from, to, p.Records, len(p.Records) < x.size && len(p.Records) >= p.Total)
	}
}

func TestLateSweepCountsRecordsListedAfterTheOverlapOnce(t *testing.T) {
	const overlap = 5 * time.Second
	x := &exchange{size: 3}
	l := New(0, Config{Overlap: overlap, LateWindow: time.Hour})
	l.NextSweep(1, time.Minute) // the first poll starts the sweep's clock
	for i := int64(1); i <= 10; i++ {
		x.add(rec(i, i*10_000, "USDT", "DEPOSIT", "1"))
	}
	poll(l, x, 120_000) // cursor 95_000
	// Listed only now, long behind the overlap.
	late := []Record{rec(20, 30_000, "BTC", "DEPOSIT", "2"), rec(21, 30_000, "BTC", "DEPOSIT", "3"),
		rec(22, 31_000, "BTC", "DEPOSIT", "4"), rec(23, 40_000, "BTC", "DEPOSIT", "5")}
	x.add(late...)
	poll(l, x, 130_000)
	if got := l.Snapshot().Totals; len(got) != 1 {
		t.Fatalf("the regular poll found the late records: %+v", totalsText(got))
	}
	if n := sweepOnce(t, l, x, 130_000, time.Minute); n == 0 {
		t.Fatal("no sweep")
	}
	s := l.Snapshot()
	if s.LateRecords != 4 {
		t.Errorf("late records = %d, want 4", s.LateRecords)
	}
	if got, w := totalsText(l.Snapshot().Totals), want(x, 0, 130_000); !reflect.DeepEqual(got, w) {
		t.Errorf("totals = %+v, want %+v", got, w)
	}
	// Not due again before the interval; when due, it counts nothing twice.
	if _, _, ok := l.NextSweep(150_000, time.Minute); ok {
		t.Error("sweep started again before its interval")
	}
	sweepOnce(t, l, x, 200_000, time.Minute)
	if got := l.Snapshot().LateRecords; got != 4 {
		t.Errorf("late records after a second sweep = %d, want 4", got)
	}
}

func TestLateSweepNarrowsSlicesThatDoNotFitAPage(t *testing.T) {
	x := &exchange{size: 10}
	l := New(0, Config{Overlap: time.Second, LateWindow: time.Hour})
	l.NextSweep(1, time.Minute)
	x.add(rec(1, 500_000, "A", "T", "1"))
	poll(l, x, 500_000) // cursor 499_000
	for i := int64(100); i < 135; i++ {
		x.add(rec(i, 1000+i*1000, "A", "T", "1"))
	}
	n := sweepOnce(t, l, x, 500_000, time.Minute)
	if got := l.Snapshot().LateRecords; got != 35 {
		t.Errorf("late records = %d, want 35", got)
	}
	if n < 5 || n > 40 {
		t.Errorf("sweep took %d requests for 35 records in pages of 10", n)
	}
}

func TestLateSweepProgressSurvivesARestart(t *testing.T) {
	x := &exchange{size: 2}
	l := New(0, Config{Overlap: time.Second, LateWindow: time.Hour})
	l.NextSweep(1, time.Minute)
	x.add(rec(1, 900_000, "A", "T", "1"))
	poll(l, x, 900_000)
	for i := int64(10); i < 20; i++ {
		x.add(rec(i, i*10_000, "A", "T", "1"))
	}
	// Two slices, then a restart through JSON.
	for range 2 {
		from, to, ok := l.NextSweep(900_000, time.Minute)
		if !ok {
			t.Fatal("no sweep")
		}
		p := x.page(from, to, 1, x.size)
		l.SweepRead(from, to, p.Records, len(p.Records) < x.size && len(p.Records) >= p.Total)
	}
	b, err := json.Marshal(l.Export())
	if err != nil {
		t.Fatal(err)
	}
	var st State
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	if st.Sweep == nil || !st.Sweep.Active {
		t.Fatalf("sweep progress not saved: %+v", st.Sweep)
	}
	r, err := FromState(st, Config{Overlap: time.Second, LateWindow: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	sweepOnce(t, r, x, 901_000, time.Minute)
	if got := r.Snapshot().LateRecords; got != 10 {
		t.Errorf("late records after restart = %d, want 10", got)
	}
	if got, w := totalsText(r.Snapshot().Totals), want(x, 0, 901_000); !reflect.DeepEqual(got, w) {
		t.Errorf("totals = %+v, want %+v", got, w)
	}
}

func TestIDsAreRememberedOverTheLateWindow(t *testing.T) {
	x := &exchange{size: 100}
	l := New(0, Config{Overlap: time.Second, LateWindow: 30 * time.Second})
	for i := int64(1); i <= 9; i++ {
		x.add(rec(i, i*10_000, "A", "T", "1"))
	}
	poll(l, x, 100_000) // cursor 89_000, horizon 70_000
	ids := []int64{}
	for _, s := range l.Export().Seen {
		ids = append(ids, s.ID)
	}
	slices.SortFunc(ids, cmp.Compare)
	if !reflect.DeepEqual(ids, []int64{7, 8, 9}) {
		t.Errorf("remembered ids %v, want [7 8 9]", ids)
	}
}
