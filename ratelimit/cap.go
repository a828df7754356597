package ratelimit

import (
	"context"
	"math"
	"slices"
	"sync"
	"time"
)

// Observer is told what a Cap does, for metrics.
type Observer interface {
	// Account is called once per account, as its queue is made; admitted
	// is then called for each of its requests let through, with how long
	// it waited.
	Account(name string) (admitted func(waited time.Duration))
	// Queued is called with the number of requests waiting, as it changes.
	Queued(n int)
}

// Cap bounds the requests a second of every client that shares it: the
// exporter shares one across all its accounts and the public client, since
// the exchange sees one IP address and may limit it more than it publishes.
// Requests wait their turn fairly: each account has its own queue, in
// order, and slots go to the accounts with requests waiting one at a time in
// turn, so an account with many requests waiting (a backlog paging, every
// poller at once) holds any other's request back by at most one slot per
// round. A nil *Cap caps nothing.
//
// One slot every 1/N s rather than N in any sliding second: a one-second window would
// let N requests out at once, a burst an unpublished per-IP limit may refuse,
// and turns are only fair when slots come one at a time. Slots are 1/N
// apart; one handed out late by a late timer is at most 1/N late, so no
// second holds more than N + 1.
type Cap struct {
	interval  time.Duration
	attempts  int
	now       func() time.Time
	afterFunc func(time.Duration, func())
	observer  Observer

	mu sync.Mutex
	// next is the earliest time of the next slot.
	next   time.Time
	queues map[string]*capQueue
	// turns are the queues with requests waiting, in turn order; turn is
	// the index of the one whose turn is next.
	turns   []*capQueue
	turn    int
	waiting int
	// armed is set while a timer will hand out the next slot.
	armed bool
}

// capQueue is one account's requests waiting for a slot, oldest first, and
// what counts the account's requests let through.
type capQueue struct {
	waiters  []*capWaiter
	admitted func(waited time.Duration)
}

type capWaiter struct {
	q     *capQueue
	ready chan struct{}
	// onGrant, when set, is started in a goroutine of its own when the
	// slot is handed out (Reserve): the request waits with no goroutine.
	// stop, set with it under Cap.mu, stops watching its context.
	onGrant func()
	stop    func() bool
	// granted and slot are set, under Cap.mu, when the slot is handed
	// out; slot is its time.
	granted bool
	slot    time.Time
}

// NewCap returns a cap of perSecond requests a second, or nil (no cap)
// when perSecond is 0 or less. A call makes at most attempts requests (see
// LongestWait); o, when set, is told what the cap does.
func NewCap(perSecond float64, attempts int, o Observer) *Cap {
	if perSecond <= 0 || math.IsInf(perSecond, 0) {
		return nil
	}
	// Rounded up: 3 a second as 333.333333 ms would fit a fourth slot in
	// the second.
	interval := time.Duration(math.Ceil(float64(time.Second) / perSecond))
	return &Cap{
		interval: max(interval, 1), attempts: attempts, now: time.Now, observer: o, queues: map[string]*capQueue{},
		afterFunc: func(d time.Duration, f func()) { time.AfterFunc(d, f) },
	}
}

// LongestWait is the longest the cap may hold the requests of one call (its
// attempts) when at most requesters requests wait at any time: each may wait
// for every other requester's slot first.
func (r *Cap) LongestWait(requesters int) time.Duration {
	if r == nil {
		return 0
	}
	return time.Duration(r.attempts) * time.Duration(requesters) * r.interval
}

// Join makes the account's queue, so that its counters exist at 0 from the
// start.
func (r *Cap) Join(account string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.queue(account)
}

// queue is the account's queue; the caller holds mu.
func (r *Cap) queue(account string) *capQueue {
	q, ok := r.queues[account]
	if !ok {
		q = &capQueue{}
		if r.observer != nil {
			q.admitted = r.observer.Account(account)
		}
		r.queues[account] = q
	}
	return q
}

// Wait returns at the account's turn for a slot, which is then used, and
// returns the slot's time; or with ctx's error, having used no slot.
func (r *Cap) Wait(ctx context.Context, account string) (slot time.Time, err error) {
	if r == nil {
		return time.Time{}, nil
	}
	if err := ctx.Err(); err != nil {
		return time.Time{}, err
	}
	r.mu.Lock()
	q := r.queue(account)
	arrived := r.now()
	w := &capWaiter{q: q, ready: make(chan struct{})}
	queued := r.enqueue(w, arrived)
	r.mu.Unlock()
	if !queued {
		q.count(0)
		return arrived, nil
	}
	select {
	case <-w.ready:
	case <-ctx.Done():
		r.giveUp(w)
		return time.Time{}, ctx.Err()
	}
	q.count(w.slot.Sub(arrived))
	return w.slot, nil
}

// Reserve calls granted at the account's turn for a slot, which is then
// used, with the slot's time; or with ctx's error, having used no slot, once
// ctx is done. Unlike Wait, nothing waits meanwhile: a thousand polls due at
// once hold a queue entry each, not a goroutine and its stack. granted runs
// on the caller's goroutine when a slot is free at once, else on a new one.
func (r *Cap) Reserve(ctx context.Context, account string, granted func(slot time.Time, err error)) {
	if r == nil {
		granted(time.Time{}, nil)
		return
	}
	if err := ctx.Err(); err != nil {
		granted(time.Time{}, err)
		return
	}
	r.mu.Lock()
	q := r.queue(account)
	arrived := r.now()
	w := &capWaiter{q: q, ready: make(chan struct{})}
	w.onGrant = func() {
		r.mu.Lock()
		stop := w.stop
		r.mu.Unlock()
		stop()
		q.count(w.slot.Sub(arrived))
		granted(w.slot, nil)
	}
	if !r.enqueue(w, arrived) {
		r.mu.Unlock()
		q.count(0)
		granted(arrived, nil)
		return
	}
	w.stop = context.AfterFunc(ctx, func() {
		// Granted meanwhile, onGrant runs, and its caller finds ctx done.
		if !r.giveUp(w) {
			granted(time.Time{}, ctx.Err())
		}
	})
	r.mu.Unlock()
}

// enqueue puts w, a request that arrived, at the end of its account's queue
// and reports true, or reports false when none waits and a slot is free: w
// goes through at once. The caller holds mu.
func (r *Cap) enqueue(w *capWaiter, arrived time.Time) bool {
	if r.waiting == 0 && !arrived.Before(r.next) {
		// Far under the cap nobody waits: no queue, no timer.
		r.next = arrived.Add(r.interval)
		return false
	}
	q := w.q
	if len(q.waiters) == 0 {
		r.turns = append(r.turns, q)
	}
	q.waiters = append(q.waiters, w)
	r.waiting++
	r.grantDue(arrived)
	return true
}

// giveUp takes a request whose caller stopped waiting out of its queue, or,
// when its slot came as the caller gave up, takes the slot back, and
// reports which.
func (r *Cap) giveUp(w *capWaiter) (wasGranted bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if w.granted {
		r.handOn(w)
	} else {
		r.leave(w)
	}
	return w.granted
}

func (q *capQueue) count(waited time.Duration) {
	if q.admitted != nil {
		q.admitted(max(waited, 0))
	}
}

// grantDue hands out the slot that is due, if any, and arms the timer for
// the next while requests wait; the caller holds mu. The slot handed out
// is the one that was due, not the time the timer fired: timers fire late
// on a busy machine, and taking their time for the slot's slowed a cap of
// 600 a second to 400. It is at most one interval back, so that a timer
// fired very late lets one extra request through, not a burst.
func (r *Cap) grantDue(now time.Time) {
	if r.waiting > 0 && !now.Before(r.next) {
		r.grant(maxTime(r.next, now.Add(-r.interval)))
	}
	r.showQueued()
	if r.waiting > 0 && !r.armed {
		r.armed = true
		r.afterFunc(r.next.Sub(now), r.fire)
	}
}

// Fresh reports whether a request sent now is at most one interval after
// slot, as a slot handed out late is: then no second holds more than N + 1
// requests. A reserved slot older than that (its request waited for the
// endpoint's budget first) is left unused.
func (r *Cap) Fresh(slot time.Time) bool {
	return r.now().Sub(slot) <= r.interval
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func (r *Cap) fire() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.armed = false
	r.grantDue(r.now())
}

// grant hands the slot at time slot to the oldest request of the account
// whose turn it is; the caller holds mu and some request waits.
func (r *Cap) grant(slot time.Time) {
	if r.turn >= len(r.turns) {
		r.turn = 0
	}
	q := r.turns[r.turn]
	w := q.waiters[0]
	q.waiters[0] = nil
	q.waiters = q.waiters[1:]
	if len(q.waiters) == 0 {
		r.turns = slices.Delete(r.turns, r.turn, r.turn+1)
	} else {
		r.turn++
	}
	r.waiting--
	w.granted, w.slot = true, slot
	r.next = slot.Add(r.interval)
	// Before the waiter wakes: what it does next may read the gauge.
	r.showQueued()
	close(w.ready)
	if w.onGrant != nil {
		go w.onGrant()
	}
}

// leave takes a request that gave up out of its queue; the caller holds mu.
func (r *Cap) leave(w *capWaiter) {
	q := w.q
	q.waiters = slices.DeleteFunc(q.waiters, func(o *capWaiter) bool { return o == w })
	r.waiting--
	if len(q.waiters) == 0 {
		i := slices.Index(r.turns, q)
		r.turns = slices.Delete(r.turns, i, i+1)
		if i < r.turn {
			r.turn--
		}
	}
	r.showQueued()
}

// handOn takes back the slot of a request that gave up as it was granted,
// unless a later slot was handed out since: the slot is then the next
// waiting request's, or free. The caller holds mu.
func (r *Cap) handOn(w *capWaiter) {
	if r.next.Equal(w.slot.Add(r.interval)) {
		r.next = w.slot
		r.grantDue(r.now())
	}
}

// showQueued tells the observer how many requests wait; the caller holds mu.
func (r *Cap) showQueued() {
	if r.observer != nil {
		r.observer.Queued(r.waiting)
	}
}
