package exposition

import (
	"sync"
	"sync/atomic"
	"time"
)

// Freshness. Every answer holds the data as it was at most Options.MaxAge
// before the answer began: a scrape serves a format's encoding as it is
// when that encoding was brought up to date within MaxAge, and otherwise
// brings it up to date itself, encoding only the parts that changed since.
// The refresher brings every kept format up to date every MaxAge/2, so
// scrapes of any cadence, from any number of scrapers, find an encoding
// young enough and encode nothing: the encoding of a change is paid off
// the scrape path, once per format, whoever scrapes and however often.

// refresh returns e's encoding brought up to date at or after notBefore:
// the current one when it was, otherwise a new one, in which every part
// that changed since is gathered and encoded again (every part, the first
// time or when the set of parts changed). Callers share the work: one
// encodes while the others wait, and take its result when it is young
// enough for them.
func (h *Handler) refresh(e *entry, notBefore time.Time) *encoding {
	e.refreshing.Lock()
	defer e.refreshing.Unlock()
	cur := e.cur.Load()
	if cur != nil && !cur.asOf.Before(notBefore) {
		return cur
	}
	// Generations are read before the gathers: a change during them shows
	// as stale at the next refresh.
	asOf := h.opts.Now()
	parts := h.src.Data()
	var next *encoding
	if cur == nil || len(cur.parts) != len(parts) {
		all := make([]int, len(parts))
		for i := range all {
			all[i] = i
		}
		next = h.reencode(e, &encoding{parts: make([]*encodedPart, len(parts))}, parts, all)
	} else {
		var stale []int
		for i, p := range parts {
			if cur.parts[i].generation != p.Generation {
				stale = append(stale, i)
			}
		}
		if len(stale) == 0 {
			unchanged := *cur
			next = &unchanged
		} else {
			next = h.reencode(e, cur, parts, stale)
		}
	}
	next.asOf = asOf
	e.cur.Store(next)
	return next
}

// refreshEvery is how often the refresher brings the kept formats up to
// date: within MaxAge with room for the refresh itself, and not so often
// that it only reads generations.
func (h *Handler) refreshEvery() time.Duration {
	return max(h.opts.MaxAge/2, 10*time.Millisecond)
}

// startRefresher starts the refresher unless it runs. Called with h.mu
// held, when a format is kept.
func (h *Handler) startRefresher() {
	if h.refresherRuns {
		return
	}
	h.refresherRuns = true
	go h.refresher()
}

// refresher brings every kept format up to date every refreshEvery, one
// format at a time so that it takes at most Options.Workers CPUs, until no
// format is kept. A round that takes longer is followed by the next at
// once, so that the encodings stay as young as the encoding allows.
func (h *Handler) refresher() {
	wait := h.refreshEvery()
	for {
		time.Sleep(wait)
		start := time.Now()
		entries := h.keptOrStop()
		if len(entries) == 0 {
			return
		}
		for _, e := range entries {
			h.refresh(e, h.opts.Now())
		}
		wait = h.refreshEvery() - time.Since(start)
	}
}

// keptOrStop releases the formats nobody asked for within Options.Idle and
// returns those left; when none is, it notes that the refresher stops.
func (h *Handler) keptOrStop() []*entry {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.releaseIdle(h.opts.Now())
	if len(h.entries) == 0 {
		h.refresherRuns = false
		return nil
	}
	entries := make([]*entry, 0, len(h.entries))
	for _, e := range h.entries {
		entries = append(entries, e)
	}
	return entries
}

// parallelFrom is how many changed parts are encoded on more than one
// goroutine: below it, starting them costs more than it saves.
const parallelFrom = 32

// eachParallel calls f(0) ... f(n-1), on up to Options.Workers goroutines
// when n is at least parallelFrom: after a pause (a burst of polls, an
// exporter stopped and resumed) a refresh finds thousands of parts changed,
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
