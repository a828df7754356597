package collector

import (
	"hash/fnv"
	"time"
)

// pollPhase is where in each interval the polls of name (an account, or a
// public endpoint) fall on the Unix clock. A hash of the name spreads many
// accounts' polls over the interval instead of bunching them at start, and
// stays the same across restarts. Every endpoint of one account shares its
// slots (a shorter interval's slots hold a longer one's when it divides it),
// so that an account's readings are taken together.
func pollPhase(name string, interval time.Duration) time.Duration {
	if interval <= 0 {
		return 0
	}
	h := fnv.New64a()
	h.Write([]byte(name))
	return time.Duration(h.Sum64() % uint64(interval))
}

// nextPoll is when the poll after one due at due is due, asked at now when
// that poll returned: at the first slot, the instants t where
// (t - phase) mod interval is 0, at least half an interval after due and
// not before now. A poll on its slot is followed by the next slot, an
// interval later. The first poll, at start, moves onto the slots at least
// half an interval later (the per-account budgets assume polls an interval
// apart). A poll that ran past the next slot is followed by the first slot
// after it returned, not by one at once: a poller late from a queue at the
// rate cap, or resumed after a pause, keeps its place instead of falling
// due with every other late poller.
func nextPoll(due, now time.Time, interval, phase time.Duration) time.Time {
	if interval <= 0 {
		return now
	}
	earliest := due.Add(interval / 2)
	if now.After(earliest) {
		earliest = now
	}
	off := (time.Duration(earliest.UnixNano()) - phase) % interval
	if off < 0 {
		off += interval
	}
	if off == 0 {
		return earliest
	}
	return earliest.Add(interval - off)
}
