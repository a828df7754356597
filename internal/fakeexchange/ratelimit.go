package fakeexchange

import (
	"sync"
	"time"
)

// The default public limit, 10 per second per client IP, as the public pages
// publish; a private endpoint's is its published limit (endpoint.All).
const (
	DefaultPublicRateLimitRequests = 10
	DefaultPublicRateLimitWindow   = time.Second
)

// slidingWindow admits at most limit events per window for each key, looking
// back exactly window (no buckets whose edge lets bursts through).
type slidingWindow struct {
	mu     sync.Mutex
	limit  int
	window time.Duration
	events map[string][]time.Time
}

func newSlidingWindow(limit int, window time.Duration) *slidingWindow {
	return &slidingWindow{limit: limit, window: window, events: map[string][]time.Time{}}
}

// allow records an event for key at now if within the limit; a zero limit or
// window admits all.
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
