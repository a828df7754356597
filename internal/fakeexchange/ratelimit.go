package fakeexchange

import (
	"sync"
	"time"
)

// The default public limit: the one the other public pages publish (10 per
// second per client IP), shared by the public endpoints. Each private
// endpoint's default is its published limit (the endpoint table's, endpoint.All).
const (
	DefaultPublicRateLimitRequests = 10
	DefaultPublicRateLimitWindow   = time.Second
)

// slidingWindow admits at most limit events per window for each key, looking
// back exactly window from now (no fixed buckets, so bursts at a bucket
// edge are not let through).
type slidingWindow struct {
	mu     sync.Mutex
	limit  int
	window time.Duration
	events map[string][]time.Time
}

func newSlidingWindow(limit int, window time.Duration) *slidingWindow {
	return &slidingWindow{limit: limit, window: window, events: map[string][]time.Time{}}
}

// allow records an event for key at now and reports true if it is within the
// limit; a refused event is not recorded. A zero limit or window disables
// limiting.
func (s *slidingWindow) allow(key string, now time.Time) bool {
	if s.limit <= 0 || s.window <= 0 {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ev := s.events[key]
	cut := 0
	for cut < len(ev) && !ev[cut].After(now.Add(-s.window)) {
		cut++
	}
	ev = ev[cut:]
	if len(ev) >= s.limit {
		s.events[key] = ev
		return false
	}
	s.events[key] = append(ev, now)
	return true
}
