package collector

import (
	"hash/fnv"
	"time"
)

// pollPhase is where in each interval the polls of name (an account, or a
// public endpoint) fall on the Unix clock. A hash of the name spreads many
// accounts' polls over the interval instead of bunching them at start, and
// stays the same across restarts. Every endpoint of one account shares its
// beats (a shorter interval's beats hold a longer one's when it divides it),
// so that an account's data is read together.
func pollPhase(name string, interval time.Duration) time.Duration {
	if interval <= 0 {
		return 0
	}
	h := fnv.New64a()
	h.Write([]byte(name))
	return time.Duration(h.Sum64() % uint64(interval))
}

// nextPoll is when the poll after one due at due is due, asked at now when
// that poll, begun at began, returned: at the first beat, the instants t
// where (t - phase) mod interval is 0, at least half an interval after due.
// A poll on its beat is followed by the next beat, an interval later. The
// first poll, at start, moves onto the beats at least half an interval
// later (the per-account budgets assume polls an interval apart). When that
// beat has passed (the poll waited its turn at the rate cap, or ran long),
// the next poll is due at once, as the data is already late, but no sooner
// than half an interval after the late one began, so that two polls never
// come back to back; the one after goes back onto the beats.
func nextPoll(due, began, now time.Time, interval, phase time.Duration) time.Time {
	if interval <= 0 {
		return now
	}
	earliest := due.Add(interval / 2)
	off := (time.Duration(earliest.UnixNano()) - phase) % interval
	if off < 0 {
		off += interval
	}
	next := earliest
	if off != 0 {
		next = earliest.Add(interval - off)
	}
	if next.Before(now) {
		return laterOf(now, began.Add(interval/2))
	}
	return next
}

func laterOf(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
