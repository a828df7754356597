package client

import (
	"sync"
	"sync/atomic"
	"time"
)

const (
	// maxClockRoundTrip is the longest round trip whose answer may set the
	// offset: the server time is taken as the midpoint of the trip, so the
	// offset is uncertain by up to half of it.
	maxClockRoundTrip = 5 * time.Second
	// maxClockOffset bounds a believable offset. A larger one comes from an
	// answer whose time is broken (another unit, a cached page), and
	// signing with it would fail every request of a healthy clock.
	maxClockOffset = 24 * time.Hour
	// skewWarning is the clock offset at which the client starts warning,
	// well before SigningWindow is reached.
	skewWarning = 60 * time.Second
	// skewWarnEvery spaces the warnings while the offset stays beyond
	// skewWarning, and the warnings about implausible offsets: once, then
	// at most this often.
	skewWarnEvery = time.Minute
)

// Clock is the local clock and its offset to the exchange's clock, learned
// from answers. Clients of one exchange should share one Clock (see
// Config.Clock): they all measure the same two clocks, so an offset one
// client learned lets every client sign requests the exchange accepts.
type Clock struct {
	now func() time.Time
	// offsetNanos is the exchange clock minus the local clock; known is
	// set once an answer was trusted.
	offsetNanos atomic.Int64
	known       atomic.Bool
	// trustedAt is the local time, in Unix nanoseconds, of the latest
	// trusted answer.
	trustedAt atomic.Int64

	mu sync.Mutex
	// skewed is set while the offset is beyond skewWarning; skewWarned is
	// when the latest warning was logged.
	skewed     bool
	skewWarned time.Time
	// implausibleWarned is when an offset beyond maxClockOffset was last
	// reported.
	implausibleWarned time.Time
}

// NewClock returns a Clock over the local clock now (time.Now when nil)
// that knows no offset yet.
func NewClock(now func() time.Time) *Clock {
	if now == nil {
		now = time.Now
	}
	return &Clock{now: now}
}

// ServerNow is the local clock corrected by the latest trusted offset to the
// exchange's clock; before the first trusted answer, the local clock.
func (c *Clock) ServerNow() time.Time {
	return c.now().Add(time.Duration(c.offsetNanos.Load()))
}

// Offset is the exchange clock minus the local clock from the latest
// trusted answer; ok is false before the first one.
func (c *Clock) Offset() (offset time.Duration, ok bool) {
	if !c.known.Load() {
		return 0, false
	}
	return time.Duration(c.offsetNanos.Load()), true
}

// freshWithin reports whether an answer trusted within d of the local clock
// set the offset: then a refused signature is not the offset's fault. A
// trusted answer from the local clock's future means the clock was set
// back since: not fresh.
func (c *Clock) freshWithin(d time.Duration) bool {
	age := c.now().Sub(time.Unix(0, c.trustedAt.Load()))
	return c.known.Load() && age >= 0 && age < d
}

// clockNews is what one observation of the exchange's time means.
type clockNews struct {
	offset time.Duration
	// trusted is set when the offset was taken.
	trusted bool
	// slow is set when the round trip was too long to trust.
	slow bool
	// implausible is set when the offset was beyond maxClockOffset and
	// should be reported now (at most every skewWarnEvery).
	implausible bool
	skew        skewEvent
}

// observe takes the server time of a successful answer, sent and received
// by this clock, as the midpoint of the round trip.
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

// skewNews says what to log about a trusted offset: a warning when it
// crosses skewWarning and then at most every skewWarnEvery, so a skewed
// clock does not log on every answer, and a note when it comes back.
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
