package collector

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"
)

// Polls of a thousand accounts named as operators name them fall evenly over
// the interval: no tenth of it holds much more than a tenth of them, and no
// empty stretch is long.
func TestPollPhaseSpreadsAccountsOverTheInterval(t *testing.T) {
	const interval, accounts = 5 * time.Second, 1000
	for _, format := range []string{"acct-%03d", "desk %d", "sub%d@example.com"} {
		var phases []time.Duration
		buckets := make([]int, 10)
		for i := range accounts {
			ph := pollPhase(fmt.Sprintf(format, i), interval)
			if ph < 0 || ph >= interval {
				t.Fatalf("%s: phase %s outside [0, %s)", fmt.Sprintf(format, i), ph, interval)
			}
			phases = append(phases, ph)
			buckets[int(ph*10/interval)]++
		}
		for i, n := range buckets {
			// A binomial count of mean 100 is within 40 of it but
			// with a chance under 1 in 10,000.
			if n < 60 || n > 140 {
				t.Errorf("%q: %d of %d accounts poll in tenth %d of the interval; want about %d", format, n, accounts, i, accounts/10)
			}
		}
		slices.Sort(phases)
		longest := phases[0] + interval - phases[len(phases)-1]
		for i := 1; i < len(phases); i++ {
			longest = max(longest, phases[i]-phases[i-1])
		}
		if longest > interval/50 {
			t.Errorf("%q: %s of the %s interval without a poll; want under %s", format, longest, interval, interval/50)
		}
	}
}

// fnv64a is FNV-1a of 64 bits as its specification defines it, apart from the
// library, so that a phase is the same in every build: after a restart, an
// upgrade included, an account polls at the same place in its interval.
func fnv64a(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := range len(s) {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

func TestPollPhaseIsTheSameAfterARestart(t *testing.T) {
	for _, name := range []string{"main", "acct-000", "acct-999", "positions", ""} {
		for _, interval := range []time.Duration{5 * time.Second, 15 * time.Second, time.Minute, 7*time.Second + 3} {
			want := time.Duration(fnv64a(name) % uint64(interval))
			if got := pollPhase(name, interval); got != want {
				t.Errorf("pollPhase(%q, %s) = %s, want %s", name, interval, got, want)
			}
		}
	}
}

// The poll after the first lands on a beat between half an interval and an
// interval and a half after it; every poll after one on a beat is exactly an
// interval later, on the next beat; a poll that returned past the next beat
// is followed by one at once, and that one by a beat again.
func TestNextPollMovesOntoTheBeatsThenKeepsTheInterval(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	onBeat := func(at time.Time, interval, phase time.Duration) bool {
		return (time.Duration(at.UnixNano())-phase)%interval == 0
	}
	for i := range 10000 {
		interval := time.Duration(1 + rng.Int64N(int64(10*time.Minute)))
		phase := pollPhase(fmt.Sprintf("acct-%03d", i), interval)
		start := time.Unix(0, rng.Int64N(int64(100*365*24*time.Hour)))
		if i%10 == 0 {
			// At start exactly on a beat, or half an interval before one.
			start = nextPoll(start, start, start, interval, phase).Add(-interval / 2 * time.Duration(i%20/10))
		}
		// The first poll returns within half an interval.
		returned := start.Add(time.Duration(rng.Int64N(int64(interval/2) + 1)))
		next := nextPoll(start, start, returned, interval, phase)
		if gap := next.Sub(start); gap < interval/2 || gap >= interval+interval/2 || !onBeat(next, interval, phase) {
			t.Fatalf("interval %s, phase %s, first poll at %s: next at %s, %s later; want on a beat, between %s and %s later",
				interval, phase, start.UTC(), next.UTC(), gap, interval/2, interval+interval/2)
		}
		for range 3 {
			// Each poll returns before the next beat.
			returned := next.Add(time.Duration(rng.Int64N(int64(interval))))
			after := nextPoll(next, next, returned, interval, phase)
			if after.Sub(next) != interval || !onBeat(after, interval, phase) {
				t.Fatalf("interval %s, phase %s, poll at %s: next at %s; want an interval later", interval, phase, next.UTC(), after.UTC())
			}
			next = after
		}
		// A poll that runs for up to three intervals.
		returned = next.Add(time.Duration(rng.Int64N(int64(3 * interval))))
		after := nextPoll(next, next, returned, interval, phase)
		switch beat := next.Add(interval); {
		case !returned.After(beat) && !after.Equal(beat):
			t.Fatalf("interval %s, phase %s, poll at %s returned at %s: next at %s; want the next beat, %s",
				interval, phase, next.UTC(), returned.UTC(), after.UTC(), beat.UTC())
		case returned.After(beat) && !after.Equal(returned):
			t.Fatalf("interval %s, phase %s, poll at %s returned at %s, past the next beat: next at %s; want at once",
				interval, phase, next.UTC(), returned.UTC(), after.UTC())
		}
		// A poll that waited its turn past its beat and returned at once is
		// followed by the next half an interval after it began.
		began := next.Add(interval + time.Duration(rng.Int64N(int64(interval))))
		if late := nextPoll(next, began, began, interval, phase); !late.Equal(began.Add(interval / 2)) {
			t.Fatalf("interval %s, phase %s, poll due at %s began and returned at %s: next at %s; want half an interval after it began",
				interval, phase, next.UTC(), began.UTC(), late.UTC())
		}
		// A poll at once, off the beats, is followed by a beat again.
		if again := nextPoll(after, after, after, interval, phase); !onBeat(again, interval, phase) || again.Sub(after) < interval/2 || again.Sub(after) >= interval+interval/2 {
			t.Fatalf("interval %s, phase %s, poll at %s: next at %s; want on a beat, between %s and %s later",
				interval, phase, after.UTC(), again.UTC(), interval/2, interval+interval/2)
		}
	}
}

// A poller polls at once, then on its account's beats an interval apart; a
// poll that runs past the next beat is followed by one at once, and that one
// by a beat again. Timers never fire early, so a poll before its
// beat fails the test; one late by more than a few timer delays does too.
func TestPollerPollsOnItsAccountsBeats(t *testing.T) {
	const interval = 400 * time.Millisecond
	const late = 120 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var (
		mu       sync.Mutex
		starts   []time.Time
		returned []time.Time
		done     = make(chan struct{})
	)
	p := testPoller("positions", "acct-042", func(context.Context, func()) (leftOut, error) {
		mu.Lock()
		n := len(starts)
		starts = append(starts, time.Now())
		mu.Unlock()
		if n == 2 {
			// Past the next beat.
			time.Sleep(interval + interval/4)
		}
		mu.Lock()
		defer mu.Unlock()
		returned = append(returned, time.Now())
		if len(returned) == 6 {
			close(done)
		}
		return leftOut{}, nil
	}, time.Now())
	p.interval = interval
	phase := pollPhase("acct-042", interval)
	begun := time.Now()
	stopped := make(chan struct{})
	p.start(ctx, func() { close(stopped) })
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the poller did not poll 6 times")
	}
	cancel()
	<-stopped
	mu.Lock()
	defer mu.Unlock()

	if d := starts[0].Sub(begun); d > late {
		t.Errorf("first poll %s after start; want at once", d)
	}
	for i := 1; i < len(starts); i++ {
		if i == 3 {
			// At once after poll 3, which ran past its beat.
			if g := starts[3].Sub(returned[2]); g > late {
				t.Errorf("poll 4 started %s after poll 3 returned past its beat; want at once", g)
			}
			continue
		}
		off := (time.Duration(starts[i].UnixNano()) - phase) % interval
		if off < 0 {
			off += interval
		}
		if off > late {
			t.Errorf("poll %d started %s after its beat; want on it (phase %s of %s)", i+1, off, phase, interval)
		}
		if starts[i].Before(returned[i-1]) {
			t.Errorf("poll %d started before poll %d returned", i+1, i)
		}
	}
	gap := func(i int) time.Duration { return starts[i].Sub(starts[i-1]) }
	if g := gap(1); g < interval/2 || g > interval+interval/2+late {
		t.Errorf("poll 2 started %s after poll 1; want between %s and %s", g, interval/2, interval+interval/2)
	}
	for _, i := range []int{2, 5} {
		if g := gap(i); g < interval-late || g > interval+late {
			t.Errorf("poll %d started %s after poll %d; want %s", i+1, g, i, interval)
		}
	}
	// Poll 3 ran past poll 4's beat; poll 5 is back on the beats, two
	// intervals after poll 3.
	if g := starts[4].Sub(starts[2]); g < 2*interval-late || g > 2*interval+late {
		t.Errorf("poll 5 started %s after poll 3; want two intervals, %s", g, 2*interval)
	}
}
