package client

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

func TestParseRateLimit(t *testing.T) {
	got, err := ParseRateLimit("10/60s")
	if err != nil || got != (RateLimit{10, time.Minute}) {
		t.Fatalf("got %v, %v", got, err)
	}
	for _, bad := range []string{"", "10", "0/60s", "-1/60s", "10/0s", "10/xyz", "a/60s"} {
		if _, err := ParseRateLimit(bad); err == nil {
			t.Errorf("%q parsed without error", bad)
		}
	}
}

func TestMinInterval(t *testing.T) {
	for _, tc := range []struct {
		limit    RateLimit
		fraction float64
		want     time.Duration
	}{
		{RateLimit{10, time.Minute}, 0.5, 12 * time.Second},
		{RateLimit{10, time.Minute}, 0.3, 20 * time.Second},
		{RateLimit{10, time.Minute}, 1, 6 * time.Second},
	} {
		got, err := tc.limit.MinInterval(tc.fraction)
		if err != nil || got != tc.want {
			t.Errorf("%v at %v: got %v, %v; want %v", tc.limit, tc.fraction, got, err, tc.want)
		}
	}
	if _, err := (RateLimit{10, time.Minute}).MinInterval(0.05); err == nil {
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
	b := newBudget(allowed, window)
	var mu sync.Mutex
	var spans []span
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 2; i++ {
				release, err := b.acquire(context.Background())
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
	b := newBudget(1, time.Hour)
	release, err := b.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	release(true)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := b.acquire(ctx); err == nil {
		t.Fatal("second acquire within the window succeeded")
	}
}

func TestRateLimitedAnswerWaitsOutTheWindow(t *testing.T) {
	const window = 200 * time.Millisecond
	var mu sync.Mutex
	var arrivals []time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		arrivals = append(arrivals, time.Now())
		first := len(arrivals) == 1
		mu.Unlock()
		if first {
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"success":false,"code":-1003,"message":"too many requests"}`))
			return
		}
		_, _ = w.Write([]byte(`{"success":true,"data":{"rows":[]},"timestamp":1}`))
	}))
	defer srv.Close()
	c := newTestClient(t, srv.URL, func(c *Config) {
		c.MaxRetries = 2
		c.RateLimit = RateLimit{Requests: 10, Window: window}
		c.Sleep = sleepCtx
	})
	if _, _, err := c.TokenNetworks(context.Background()); err != nil {
		t.Fatalf("retry after 429 failed: %v", err)
	}
	if len(arrivals) != 2 {
		t.Fatalf("%d requests, want 2", len(arrivals))
	}
	if gap := arrivals[1].Sub(arrivals[0]); gap < window {
		t.Errorf("retried %v after a 429, want at least the %v window", gap, window)
	}
}

// A caller that waits LongestRequest outlasts the worst legitimate wait of
// one page: a full budget, then three 429s each blocking a jittered window,
// with every attempt running into the timeout; and a system info request to
// learn the exchange's time, the signed attempt after it and a system info
// request after a -1011, each waiting a full budget and the timeout.
func TestLongestRequestCoversEveryRetryWait(t *testing.T) {
	limit := RateLimit{Requests: 10, Window: time.Minute}
	timeout := 30 * time.Second
	worst := limit.Window
	for range DefaultMaxRetries {
		worst += jitterMax(limit.Window)
	}
	worst += (DefaultMaxRetries + 1) * timeout
	for range 3 {
		worst += limit.Window + timeout
	}
	if got := LongestRequest(limit, timeout); got < worst {
		t.Errorf("LongestRequest = %s, want at least %s", got, worst)
	}
	for range 1000 {
		if j := jitter(limit.Window); j > jitterMax(limit.Window) {
			t.Fatalf("jitter(%s) = %s, above jitterMax %s", limit.Window, j, jitterMax(limit.Window))
		}
	}
}

// A rate limit prints as the flag takes it, so the text parses back.
func TestRateLimitStringParsesBack(t *testing.T) {
	for _, text := range []string{"10/60s", "10/2s", "3/0.5s", "100/3600s"} {
		l, err := ParseRateLimit(text)
		if err != nil {
			t.Fatalf("ParseRateLimit(%q): %v", text, err)
		}
		if l.String() != text {
			t.Errorf("ParseRateLimit(%q).String() = %q", text, l.String())
		}
	}
}
