package client

import (
	"sync"
	"sync/atomic"
	"time"
)

const (
	// maxClockRoundTrip is the longest round trip that may set the offset,
	// uncertain by half of it.
	maxClockRoundTrip = 5 * time.Second
	// maxClockOffset bounds a believable offset: a larger one is a broken
	// time (another unit, a cached page) that would fail every signature.
	maxClockOffset = 24 * time.Hour
	skewWarning    = 60 * time.Second // the offset warned of, well within SigningWindow
	skewWarnEvery  = time.Minute      // the most often a skew or implausible offset is warned of
)

// Clock is the local clock and its offset to the exchange's, learned from
// answers. The clients of one exchange should share one (Config.Clock), so
// that an offset one learned signs the requests of all.
type Clock struct {
	now         func() time.Time
	offsetNanos atomic.Int64 // the exchange clock minus the local clock
	known       atomic.Bool  // set once an answer was trusted
	trustedAt   atomic.Int64 // local Unix nanoseconds of the latest trusted answer

	mu                sync.Mutex
	skewed            bool      // while the offset is beyond skewWarning
	skewWarned        time.Time // the latest skew warning
	implausibleWarned time.Time // the latest report of an offset beyond maxClockOffset
}

// NewClock returns a Clock over now (time.Now when nil) that knows no offset.
func NewClock(now func() time.Time) *Clock {
	if now == nil {
		now = time.Now
	}
	return &Clock{now: now}
}

// ServerNow is the local clock corrected by the latest trusted offset.
func (c *Clock) ServerNow() time.Time {
	return c.now().Add(time.Duration(c.offsetNanos.Load()))
}

// Offset is the exchange clock minus the local clock; ok is false before a trusted answer.
func (c *Clock) Offset() (offset time.Duration, ok bool) {
	if !c.known.Load() {
		return 0, false
	}
	return time.Duration(c.offsetNanos.Load()), true
}

// freshWithin reports whether an answer trusted within d set the offset; one
// from the local clock's future (the clock set back since) is not fresh.
func (c *Clock) freshWithin(d time.Duration) bool {
	age := c.now().Sub(time.Unix(0, c.trustedAt.Load()))
	return c.known.Load() && age >= 0 && age < d
}

// clockNews is what one observation of the exchange's time means.
type clockNews struct {
	offset      time.Duration
	trusted     bool // the offset was taken
	slow        bool // the round trip was too long to trust
	implausible bool // beyond maxClockOffset, to report now
	skew        skewEvent
}

// observe takes an answer's server time as the midpoint of its round trip.
func (c *Clock) observe(server, sent, received time.Time) clockNews {
	trip := received.Sub(sent)
	offset := server.Sub(sent.Add(trip / 2))
	news := clockNews{offset: offset}
	if trip > maxClockRoundTrip || trip < 0 {
		news.slow = true
		return news
	}
	if offset.Abs() > maxClockOffset {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.implausibleWarned.IsZero() || received.Sub(c.implausibleWarned) >= skewWarnEvery {
			c.implausibleWarned = received
			news.implausible = true
		}
		return news
	}
	c.offsetNanos.Store(int64(offset))
	c.known.Store(true)
	c.trustedAt.Store(received.UnixNano())
	news.trusted = true
	news.skew = c.skewNews(offset.Abs() > skewWarning, received)
	return news
}

type skewEvent int

const (
	skewQuiet skewEvent = iota
	skewWarn
	skewRecovered
)

// skewNews says what to log about a trusted offset: a warning beyond
// skewWarning at most every skewWarnEvery, and a note when it comes back.
func (c *Clock) skewNews(beyond bool, now time.Time) skewEvent {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case !beyond && !c.skewed:
		return skewQuiet
	case !beyond:
		c.skewed = false
		return skewRecovered
	case c.skewed && now.Sub(c.skewWarned) < skewWarnEvery:
		return skewQuiet
	}
	c.skewed, c.skewWarned = true, now
	return skewWarn
}
