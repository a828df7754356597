package ratelimit

import (
	"context"
	"sync"
	"testing"
	"time"
)

func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-time.After(d):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func TestParse(t *testing.T) {
	got, err := Parse("10/60s")
	if err != nil || got != (Limit{10, time.Minute}) {
		t.Fatalf("got %v, %v", got, err)
	}
	for _, bad := range []string{"", "10", "0/60s", "-1/60s", "10/0s", "10/xyz", "a/60s"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%q parsed without error", bad)
		}
	}
}

func TestMinInterval(t *testing.T) {
	for _, tc := range []struct {
		limit    Limit
		fraction float64
		want     time.Duration
	}{
		{Limit{10, time.Minute}, 0.5, 12 * time.Second},
		{Limit{10, time.Minute}, 0.3, 20 * time.Second},
		{Limit{10, time.Minute}, 1, 6 * time.Second},
	} {
		got, err := tc.limit.MinInterval(tc.fraction)
		if err != nil || got != tc.want {
			t.Errorf("%v at %v: got %v, %v; want %v", tc.limit, tc.fraction, got, err, tc.want)
		}
	}
	if _, err := (Limit{10, time.Minute}).MinInterval(0.05); err == nil {
		t.Error("a budget that allows no request was accepted")
	}
}

// span is one request's hold on the budget: from send to answer.
type span struct{ start, end time.Time }

// maxInWindow is the largest number of requests that a server, counting each
// at some instant of its span, could have seen within one window: a set of
// spans fits in a window when its latest start is less than a window after
// its earliest end.
func maxInWindow(spans []span, window time.Duration) int {
	worst := 0
	for _, first := range spans {
		n := 0
		for _, s := range spans {
			if !s.end.Before(first.end) && s.start.Sub(first.end) < window {
				n++
			}
		}
		worst = max(worst, n)
	}
	return worst
}

func TestBudgetHoldsUnderConcurrentCallers(t *testing.T) {
	const allowed, window = 3, 150 * time.Millisecond
	b := NewBudget(allowed, window, time.Now, sleep)
	var mu sync.Mutex
	var spans []span
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 2; i++ {
				release, err := b.Acquire(context.Background())
				if err != nil {
					t.Error(err)
					return
				}
				s := span{start: time.Now()}
				time.Sleep(time.Duration(g%3) * 10 * time.Millisecond) // uneven latency
				s.end = time.Now()
				release(true)
				mu.Lock()
				spans = append(spans, s)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(spans) != 16 {
		t.Fatalf("%d requests completed, want 16", len(spans))
	}
	if n := maxInWindow(spans, window); n > allowed {
		t.Errorf("%d requests within one %v window, budget is %d", n, window, allowed)
	}
}

func TestBudgetAcquireHonoursContext(t *testing.T) {
	b := NewBudget(1, time.Hour, time.Now, sleep)
	release, err := b.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	release(true)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := b.Acquire(ctx); err == nil {
		t.Fatal("second acquire within the window succeeded")
	}
}

// A rate limit prints as the flag takes it, so the text parses back.
func TestLimitStringParsesBack(t *testing.T) {
	for _, text := range []string{"10/60s", "10/2s", "3/0.5s", "100/3600s"} {
		l, err := Parse(text)
		if err != nil {
			t.Fatalf("Parse(%q): %v", text, err)
		}
		if l.String() != text {
			t.Errorf("Parse(%q).String() = %q", text, l.String())
		}
	}
}
