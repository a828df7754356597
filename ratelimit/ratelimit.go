// Package ratelimit keeps requests under a published rate limit: the limit
// (requests per limit window) and the budget, a sliding-window limiter that
// holds one endpoint's requests to a share of it.
package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"time"
)

// Limit is a number of requests per limit window.
type Limit struct {
	Requests int
	Window   time.Duration
}

// Parse parses a limit written as "REQUESTS/WINDOW", e.g. "10/60s".
func Parse(s string) (Limit, error) {
	m := regexp.MustCompile(`^\s*(\d+)\s*/\s*(\S+)\s*$`).FindStringSubmatch(s)
	if m == nil {
		return Limit{}, fmt.Errorf("rate limit %q: want REQUESTS/WINDOW, e.g. 10/60s", s)
	}
	n, err := strconv.Atoi(m[1])
	if err != nil || n <= 0 {
		return Limit{}, fmt.Errorf("rate limit %q: request count must be a positive integer", s)
	}
	w, err := time.ParseDuration(m[2])
	if err != nil || w <= 0 {
		return Limit{}, fmt.Errorf("rate limit %q: window must be a positive duration such as 60s", s)
	}
	return Limit{Requests: n, Window: w}, nil
}

// String writes the limit window in seconds, as --api.rate-limit takes it (10/60s,
// not 10/1m0s), so that a message can be pasted back into the flag.
func (l Limit) String() string {
	return fmt.Sprintf("%d/%ss", l.Requests, strconv.FormatFloat(l.Window.Seconds(), 'f', -1, 64))
}

// Allowed is how many requests the client may send within one limit window when it
// may use the given fraction of the limit.
func (l Limit) Allowed(fraction float64) int {
	// The epsilon keeps 0.3*10 from rounding down to 2.
	return int(float64(l.Requests)*fraction + 1e-9)
}

// MinInterval is the shortest poll interval that fits the budget when every
// poll costs one request.
func (l Limit) MinInterval(fraction float64) (time.Duration, error) {
	n := l.Allowed(fraction)
	if n < 1 {
		return 0, fmt.Errorf("a budget of %.2f of %s allows no request at all", fraction, l)
	}
	return (l.Window + time.Duration(n) - 1) / time.Duration(n), nil
}

// Budget is a sliding-window limiter: at most max requests within any span
// of the limit window. A token bucket would not do: with a burst it lets
// burst + rate*window requests through one limit window.
//
// The exchange counts a request when it arrives, which is some time between
// our send and the answer. So a hold is kept from the send until a limit
// window after the answer: two requests that the exchange sees in one limit
// window are also in one here.
type Budget struct {
	max    int
	window time.Duration
	now    func() time.Time
	sleep  func(context.Context, time.Duration) error

	mu       sync.Mutex
	inFlight int
	done     []time.Time // answer times still inside the limit window, oldest first
	blocked  time.Time   // no request before this time (after a 429)
	changed  chan struct{}
}

// NewBudget returns a budget of at most n requests within any span of
// window, timed by now and waiting with sleep.
func NewBudget(n int, window time.Duration, now func() time.Time, sleep func(context.Context, time.Duration) error) *Budget {
	return &Budget{max: n, window: window, now: now, sleep: sleep, changed: make(chan struct{})}
}

// Limit is the budget's own limit.
func (b *Budget) Limit() Limit { return Limit{Requests: b.max, Window: b.window} }

var errNoBudget = errors.New("request budget allows no request")

// Acquire waits until a request may be sent and takes a hold for it. The
// returned release must be called when the answer (or failure) is in, with
// sent false when the request never went out: its hold is then given up at once.
func (b *Budget) Acquire(ctx context.Context) (release func(sent bool), err error) {
	if b.max < 1 {
		return nil, errNoBudget
	}
	for {
		b.mu.Lock()
		now := b.now()
		b.expire(now)
		var wait time.Duration
		switch {
		case now.Before(b.blocked):
			wait = b.blocked.Sub(now)
		case b.inFlight+len(b.done) < b.max:
			b.inFlight++
			b.mu.Unlock()
			var once sync.Once
			return func(sent bool) { once.Do(func() { b.release(sent) }) }, nil
		case len(b.done) > 0:
			wait = b.done[0].Add(b.window).Sub(now)
		default:
			// Every hold is in flight: wait for an answer.
			wait = -1
		}
		changed := b.changed
		b.mu.Unlock()

		if wait < 0 {
			select {
			case <-changed:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			continue
		}
		if err := b.sleepOrChange(ctx, wait, changed); err != nil {
			return nil, err
		}
	}
}

func (b *Budget) sleepOrChange(ctx context.Context, d time.Duration, changed <-chan struct{}) error {
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-changed:
			cancel()
		case <-sctx.Done():
		}
	}()
	err := b.sleep(sctx, d)
	if err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return nil
}

func (b *Budget) release(sent bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.inFlight--
	if sent {
		b.done = append(b.done, b.now())
	}
	b.notify()
}

// Block stops every request until d from now: after a 429 the client waits
// out the exchange's limit window.
func (b *Budget) Block(d time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if until := b.now().Add(d); until.After(b.blocked) {
		b.blocked = until
	}
	b.notify()
}

func (b *Budget) expire(now time.Time) {
	i := 0
	for i < len(b.done) && !now.Before(b.done[i].Add(b.window)) {
		i++
	}
	if i > 0 {
		b.done = append(b.done[:0], b.done[i:]...)
	}
}

// notify wakes waiters; the caller holds mu.
func (b *Budget) notify() {
	close(b.changed)
	b.changed = make(chan struct{})
}
