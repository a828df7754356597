package client

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

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
// one page: a full budget, then three 429s each blocking a jittered limit window,
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
