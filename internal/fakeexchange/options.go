package fakeexchange

import (
	"sync"
	"time"

	"github.com/go-kit/log"
)

// Option configures an Exchange.
type Option func(*options)

type options struct {
	clock                        func() time.Time
	logger                       log.Logger
	maxRequests                  int
	rateRequests, publicRequests *int
	rateWindow, publicWindow     time.Duration
}

// WithClock sets the clock of server time, timestamps and rate limits.
func WithClock(now func() time.Time) Option {
	return func(o *options) { o.clock = now }
}

// WithRateLimit overrides every private endpoint's limit; zero disables it.
func WithRateLimit(requests int, window time.Duration) Option {
	return func(o *options) { o.rateRequests, o.rateWindow = &requests, window }
}

// WithPublicRateLimit overrides the public per-IP limit; zero disables it.
func WithPublicRateLimit(requests int, window time.Duration) Option {
	return func(o *options) { o.publicRequests, o.publicWindow = &requests, window }
}

// WithLogger sets where events and generated history are logged.
func WithLogger(l log.Logger) Option {
	return func(o *options) { o.logger = l }
}

// WithRequestLogLimit sets how many requests Requests keeps.
func WithRequestLogLimit(n int) Option {
	return func(o *options) { o.maxRequests = n }
}

// privateLimiters are the private endpoints' limiters by name: each one's
// published limit, overridden by rate_limit, rate_limits and the options, one
// after another.
func (o *options) privateLimiters(s *Scenario) map[string]*slidingWindow {
	limiters := map[string]*slidingWindow{}
	for _, ep := range routes {
		n, w := ep.Limit.Requests, ep.Limit.Window
		if s.RateLimit != "" {
			n, w, _ = ParseRateLimit(s.RateLimit)
		}
		if l, ok := s.RateLimits[ep.Name]; ok {
			n, w, _ = ParseRateLimit(l)
		}
		if o.rateRequests != nil {
			n, w = *o.rateRequests, o.rateWindow
		}
		if ep.PerAccount {
			limiters[ep.Name] = newSlidingWindow(n, w)
		}
	}
	return limiters
}

// publicLimit is 10/1s, overridden by the scenario, then the options.
func (o *options) publicLimit(s *Scenario) (pn int, pw time.Duration) {
	pn, pw = DefaultPublicRateLimitRequests, DefaultPublicRateLimitWindow
	if s.PublicRateLimit != "" {
		pn, pw, _ = ParseRateLimit(s.PublicRateLimit)
	}
	if o.publicRequests != nil {
		pn, pw = *o.publicRequests, o.publicWindow
	}
	return pn, pw
}

// The default public limit, 10 per second per client IP, as the public pages
// publish; a private endpoint's is its published limit (endpoint.All).
const (
	DefaultPublicRateLimitRequests = 10
	DefaultPublicRateLimitWindow   = time.Second
)

// slidingWindow admits at most limit events per limit window for each key, looking
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

// allow records an event for key if within the limit; zero admits all.
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
