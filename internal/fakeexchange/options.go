package fakeexchange

import (
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

// WithClock sets the clock the server time, timestamp window and rate
// limits are based on. The scenario's server_time_offset is added to it.
func WithClock(now func() time.Time) Option {
	return func(o *options) { o.clock = now }
}

// WithRateLimit sets the per-account limit of each private endpoint,
// overriding the scenario. Zero requests or window disables the limit.
func WithRateLimit(requests int, window time.Duration) Option {
	return func(o *options) { o.rateRequests, o.rateWindow = &requests, window }
}

// WithPublicRateLimit sets the per-IP limit of the public endpoint,
// overriding the scenario. Zero requests or window disables the limit.
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

// rateLimits returns the private (rn per rw) and public (pn per pw) rate
// limits: the defaults, overridden by the scenario, overridden by the
// options.
func (o *options) rateLimits(s *Scenario) (rn int, rw time.Duration, pn int, pw time.Duration) {
	rn, rw = DefaultRateLimitRequests, DefaultRateLimitWindow
	if s.RateLimit != "" {
		rn, rw, _ = ParseRateLimit(s.RateLimit)
	}
	if o.rateRequests != nil {
		rn, rw = *o.rateRequests, o.rateWindow
	}
	pn, pw = DefaultPublicRateLimitRequests, DefaultPublicRateLimitWindow
	if s.PublicRateLimit != "" {
		pn, pw, _ = ParseRateLimit(s.PublicRateLimit)
	}
	if o.publicRequests != nil {
		pn, pw = *o.publicRequests, o.publicWindow
	}
	return rn, rw, pn, pw
}
