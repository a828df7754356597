package collector

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// startPoller starts a poller of poll every interval, and returns a channel
// closed once it stopped.
func startPoller(ctx context.Context, interval time.Duration, poll listPollFunc) (*poller, <-chan struct{}) {
	p := testPoller("balances", "main", poll, time.Now())
	p.interval = interval
	stopped := make(chan struct{})
	p.start(ctx, func() { close(stopped) })
	return p, stopped
}

// A poller polls at once and then every interval, and stops when its
// context is done: between polls at once, during a poll once the poll
// returned.
func TestPollerPollsEveryIntervalUntilStopped(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var polls atomic.Int64
	_, stopped := startPoller(ctx, 10*time.Millisecond, func(context.Context, func()) (leftOut, error) {
		polls.Add(1)
		return leftOut{}, nil
	})
	deadline := time.Now().Add(10 * time.Second)
	for polls.Load() < 3 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	cancel()
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("the poller did not stop")
	}
	n := polls.Load()
	time.Sleep(50 * time.Millisecond)
	if n < 3 || polls.Load() != n {
		t.Errorf("%d polls before the stop, %d after it; want at least 3, then none", n, polls.Load()-n)
	}

	ctx, cancel = context.WithCancel(context.Background())
	inPoll, returned := make(chan struct{}), atomic.Bool{}
	_, stopped = startPoller(ctx, time.Hour, func(ctx context.Context, _ func()) (leftOut, error) {
		close(inPoll)
		<-ctx.Done()
		time.Sleep(20 * time.Millisecond)
		returned.Store(true)
		return leftOut{}, ctx.Err()
	})
	<-inPoll
	cancel()
	select {
	case <-stopped:
		if !returned.Load() {
			t.Error("the poller stopped before its poll returned")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the poller did not stop after its poll")
	}
}

// Pollers waiting for their next poll hold no goroutine.
func TestWaitingPollersHoldNoGoroutine(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	before := runtime.NumGoroutine()
	var polled atomic.Int64
	const pollers = 200
	for range pollers {
		startPoller(ctx, time.Hour, func(context.Context, func()) (leftOut, error) {
			polled.Add(1)
			return leftOut{}, nil
		})
	}
	deadline := time.Now().Add(10 * time.Second)
	for polled.Load() < pollers && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	// The last polls' goroutines end just after they count.
	var after int
	for range 100 {
		if after = runtime.NumGoroutine(); after < before+pollers/10 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if polled.Load() != pollers || after >= before+pollers/10 {
		t.Errorf("%d of %d pollers polled; %d goroutines, %d before: want no goroutine per waiting poller", polled.Load(), pollers, after, before)
	}
}
