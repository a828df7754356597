package exposition

import (
	"sync"
	"sync/atomic"
	"time"
)

// The background encoder. A scrape serves the newest encoding of every
// part and never encodes a part that has one: the parts that changed are
// encoded by a pass, off the scrape path. A pass runs shortly before the
// next scrape of a format is due, estimated from its recent scrapes, and
// encodes the parts changed since the last pass once each, however often
// they changed: as many encodings as encoding at each scrape costs, where
// encoding at each poll would cost one per change.

const (
	// recentScrapes is how many of a format's latest scrapes give its
	// interval (the shortest between them, so that a pass runs early
	// rather than after the scrape it is for), and how many of its latest
	// passes give their length.
	recentScrapes = 4
	// maxLead bounds how long before a scrape is due its pass runs, when
	// passes are quick: a quarter of the interval, and at most maxLead, so
	// that a change shows within that of a scrape at long intervals.
	maxLead = time.Second
)

// schedule is when a format's next pass runs.
type schedule struct {
	mu sync.Mutex
	// scrapes are the times of the latest scrapes, oldest first; passes
	// how long the latest passes took.
	scrapes []time.Time
	passes  []time.Duration
	// due is when the next pass is to run; zero when none is.
	due     time.Time
	timer   *time.Timer
	running bool
	stopped bool
}

// nextDue is when the pass for the scrape after the latest is due, or
// false while fewer than two scrapes are known.
func (s *schedule) nextDue() (time.Time, bool) {
	if len(s.scrapes) < 2 {
		return time.Time{}, false
	}
	every := s.scrapes[1].Sub(s.scrapes[0])
	for i := 2; i < len(s.scrapes); i++ {
		every = min(every, s.scrapes[i].Sub(s.scrapes[i-1]))
	}
	every = max(every, 0)
	// Twice the longest recent pass, so that the pass is done by the
	// scrape, but never more than half the interval.
	lead := min(maxLead, every/4)
	for _, took := range s.passes {
		lead = max(lead, min(2*took, every/2))
	}
	return s.scrapes[len(s.scrapes)-1].Add(every - lead), true
}

// appendRecent appends v to latest, keeping the last recentScrapes.
func appendRecent[T any](latest []T, v T) []T {
	latest = append(latest, v)
	if len(latest) > recentScrapes {
		latest = latest[1:]
	}
	return latest
}

// arm runs pass after d, unless a pass is running (it arms the timer when
// it ends). Called with mu held.
func (s *schedule) arm(d time.Duration, pass func()) {
	switch {
	case s.running || s.stopped:
	case s.timer == nil:
		s.timer = time.AfterFunc(d, pass)
	default:
		s.timer.Reset(d)
	}
}

// stop ends the schedule of a format no longer kept.
func (s *schedule) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped = true
	if s.timer != nil {
		s.timer.Stop()
	}
}

// scraped notes a scrape of e's format at now, and schedules the pass for
// the next one.
func (h *Handler) scraped(e *entry, now time.Time) {
	s := &e.sched
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scrapes = appendRecent(s.scrapes, now)
	due, ok := s.nextDue()
	if !ok || !s.due.IsZero() && !due.Before(s.due) {
		return
	}
	s.due = due
	s.arm(due.Sub(now), func() { h.runPass(e) })
}

// runPass runs the pass that is due for e, then arms the timer for the
// one that fell due meanwhile, if any.
func (h *Handler) runPass(e *entry) {
	s := &e.sched
	s.mu.Lock()
	if s.running || s.stopped || s.due.IsZero() {
		s.mu.Unlock()
		return
	}
	s.running, s.due = true, time.Time{}
	s.mu.Unlock()

	start := time.Now()
	h.pass(e)
	took := time.Since(start)

	s.mu.Lock()
	defer s.mu.Unlock()
	s.running = false
	s.passes = appendRecent(s.passes, took)
	if !s.due.IsZero() {
		s.arm(s.due.Sub(h.opts.Now()), func() { h.runPass(e) })
	}
}

// pass encodes every part of e that changed since its encoding, and makes
// the result e's encoding at once. Passes run one at a time, over every
// format, so that the background takes at most Options.Workers CPUs.
func (h *Handler) pass(e *entry) {
	h.passing.Lock()
	defer h.passing.Unlock()
	cur := e.current()
	parts := h.src.Data()
	if cur == nil || len(cur.parts) != len(parts) {
		// A scrape encodes a new set of parts.
		return
	}
	var stale []int
	for i, p := range parts {
		if cur.parts[i].generation != p.Generation {
			stale = append(stale, i)
		}
	}
	if len(stale) == 0 {
		return
	}
	next := h.reencode(e, cur, parts, stale)
	e.mu.Lock()
	defer e.mu.Unlock()
	// Otherwise a scrape replaced the whole set meanwhile, and encoded it.
	if e.cur == cur {
		e.cur = next
	}
}

// Settle encodes now, in every format kept, each part that changed since
// its encoding (after the pass in progress, if any), and returns once
// done: a scrape after it serves every change made before the call. The
// background encoder does the same before each scrape it expects; Settle
// is for tests, and whoever must see a change at once.
func (h *Handler) Settle() {
	for _, e := range h.kept() {
		h.pass(e)
	}
}

// parallelFrom is how many changed parts are encoded on more than one
// goroutine: below it, starting them costs more than it saves.
const parallelFrom = 32

// eachParallel calls f(0) ... f(n-1), on up to Options.Workers goroutines
// when n is at least parallelFrom: after a pause (a burst of polls, an
// exporter stopped and resumed) a pass finds thousands of parts changed,
// and a new format's first scrape has every part to encode.
func (h *Handler) eachParallel(n int, f func(int)) {
	workers := min(h.opts.Workers, n/parallelFrom)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(i)
			}
		})
	}
	wg.Wait()
}
