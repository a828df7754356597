package testsupport

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestClockMovesOnlyWhenTold(t *testing.T) {
	start := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	c := NewClock(start)
	if !c.Now().Equal(start) {
		t.Fatalf("Now %v, want %v", c.Now(), start)
	}
	time.Sleep(time.Millisecond)
	if !c.Now().Equal(start) {
		t.Fatalf("the clock moved on its own to %v", c.Now())
	}
	c.Add(time.Minute)
	c.Add(-time.Second)
	if want := start.Add(59 * time.Second); !c.Now().Equal(want) {
		t.Errorf("after +1m -1s: %v, want %v", c.Now(), want)
	}
	c.Set(start)
	if !c.Now().Equal(start) {
		t.Errorf("after Set: %v, want %v", c.Now(), start)
	}
}

func TestClockAndBufferAreSafeForConcurrentUse(t *testing.T) {
	c := NewClock(time.Unix(0, 0))
	var b SyncBuffer
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				c.Add(time.Second)
				_ = c.Now()
				fmt.Fprintf(&b, "%d\n", i)
			}
		}()
	}
	wg.Wait()
	if got := c.Now(); !got.Equal(time.Unix(800, 0)) {
		t.Errorf("clock at %v after 800 steps of 1s, want %v", got, time.Unix(800, 0))
	}
	if n := strings.Count(b.String(), "\n"); n != 800 {
		t.Errorf("%d lines written, want 800", n)
	}
}

type rec struct{ token, typ, amount string }

func (r rec) leg() (string, string, string) { return r.token, r.typ, r.amount }

func TestHistoryTotalsAreExactSumsByTokenAndType(t *testing.T) {
	got := HistoryTotals([]rec{
		{"USDT", "DEPOSIT", "0.1"}, {"USDT", "DEPOSIT", "0.2"},
		{"USDT", "WITHDRAW", "-1.000000000000000000000000000001"}, {"USDT", "WITHDRAW", "0"},
		{"BTC", "DEPOSIT", "1"},
	}, rec.leg)
	want := map[HistoryKey]string{
		{"USDT", "DEPOSIT"}:  "2 records, inflow 0.3, outflow 0",
		{"USDT", "WITHDRAW"}: "2 records, inflow 0, outflow 1.000000000000000000000000000001",
		{"BTC", "DEPOSIT"}:   "1 records, inflow 1, outflow 0",
	}
	if len(got) != len(want) {
		t.Fatalf("%d totals, want %d: %v", len(got), len(want), got)
	}
	for k, w := range want {
		if g := got[k].String(); g != w {
			t.Errorf("%v: %s, want %s", k, g, w)
		}
	}
}

func TestDiffTotalsNamesEveryDifference(t *testing.T) {
	want := HistoryTotals([]rec{{"USDT", "DEPOSIT", "1"}, {"BTC", "DEPOSIT", "2"}}, rec.leg)
	if d := DiffTotals(want, want); len(d) != 0 {
		t.Errorf("equal totals differ: %v", d)
	}
	got := HistoryTotals([]rec{{"USDT", "DEPOSIT", "1.000000000000000000000000000001"}, {"ETH", "DEPOSIT", "1"}}, rec.leg)
	d := DiffTotals(got, want)
	wantLines := []string{
		"BTC DEPOSIT: not counted, want 1 records, inflow 2, outflow 0",
		"ETH DEPOSIT: counted 1 records, inflow 1, outflow 0, but no such record is held",
		"USDT DEPOSIT: counted 1 records, inflow 1.000000000000000000000000000001, outflow 0, want 1 records, inflow 1, outflow 0",
	}
	if strings.Join(d, "\n") != strings.Join(wantLines, "\n") {
		t.Errorf("diff:\n%s\nwant:\n%s", strings.Join(d, "\n"), strings.Join(wantLines, "\n"))
	}
}

func TestBusiestWindowCountsTheFullestSpan(t *testing.T) {
	at := func(s ...int) []time.Time {
		var out []time.Time
		for _, v := range s {
			out = append(out, time.Unix(int64(v), 0))
		}
		return out
	}
	for _, tc := range []struct {
		times []time.Time
		want  int
	}{
		{nil, 0},
		{at(0, 60, 120), 1},        // exactly a window apart: never together
		{at(30, 0, 59, 61, 90), 3}, // 0, 30, 59; unsorted input
		{at(5, 5, 5), 3},
	} {
		if got := BusiestWindow(tc.times, time.Minute); got != tc.want {
			t.Errorf("BusiestWindow(%v) = %d, want %d", tc.times, got, tc.want)
		}
	}
}

func TestToolFindsAToolAndSkipsOrFailsForAMissingOne(t *testing.T) {
	t.Setenv(RequireToolsEnv, "")
	if p := Tool(t, "sh", "dash"); p == "" {
		t.Fatal("Tool(sh) found no path")
	}
	var skipped bool
	t.Run("missing", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		Tool(t, "woox-no-such-tool", "nothing")
		t.Error("Tool returned for a missing tool")
	})
	if !skipped {
		t.Error("a missing tool did not skip the test")
	}
}
