package ledger

import "time"

// sweep is the progress of the late sweep: the slice [next, next+step) of
// [from, to] is read next.
type sweep struct {
	active               bool
	from, to, next, step int64
	lastStart            int64
}

// NextSweep returns the next slice [from, to] of the late sweep to read, in
// Unix ms, starting a sweep when none is under way and the last one started
// at least every ago (by nowMs); the first call only starts the clock. ok is
// false when there is nothing to read.
func (l *Ledger) NextSweep(nowMs int64, every time.Duration) (from, to int64, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cfg.LateWindow <= 0 {
		return 0, 0, false
	}
	s := &l.sweep
	if !s.active {
		if s.lastStart == 0 {
			// The first sweep comes one interval after the first poll,
			// which has just read the whole query window.
			s.lastStart = nowMs
			return 0, 0, false
		}
		if nowMs-s.lastStart < every.Milliseconds() {
			return 0, 0, false
		}
		// Up to just before the cursor: the regular polls read the rest.
		s.from = max(l.horizon, nowMs-l.cfg.LateWindow.Milliseconds())
		s.to = l.start - 1
		s.next, s.step, s.lastStart = s.from, s.to-s.from+1, nowMs
		s.active = s.to >= s.from
		if !s.active {
			return 0, 0, false
		}
	}
	// Ids below the horizon are forgotten: the sweep cannot place them.
	s.next = max(s.next, l.horizon)
	if s.next > s.to {
		s.active = false
		return 0, 0, false
	}
	return s.next, min(s.next+s.step-1, s.to), true
}

// SweepRead takes the rows the exchange returned for the slice [from, to]
// of the late sweep. fits says they are the whole slice (one page, short of
// the page size, no fewer rows than meta.total); when they are not, the
// slice is halved and nothing is counted. It returns how many records were
// counted, all of them late.
func (l *Ledger) SweepRead(from, to int64, recs []Record, fits bool) (counted int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := &l.sweep
	if !s.active || from != s.next {
		return 0
	}
	if !fits && s.step > 1 {
		s.step = max(s.step/2, 1)
		return 0
	}
	for _, r := range recs {
		if r.TimestampMs < from || r.TimestampMs > to || !l.placeable(r) {
			continue
		}
		if ok, _ := l.observe(r); ok {
			counted++
		}
	}
	l.late += uint64(counted)
	s.next = to + 1
	if fits {
		// A slice that fit one page: try a larger one next.
		s.step = min(2*s.step, s.to-s.from+1)
	}
	if s.next > s.to {
		s.active = false
	}
	return counted
}
