package ratelimit

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// fakeTimers stand in for time.AfterFunc on a settable clock: fireDue runs
// the callbacks whose time has come, in the test's goroutine.
type fakeTimers struct {
	clock   *testsupport.Clock
	mu      sync.Mutex
	pending []fakeTimer
}

type fakeTimer struct {
	at time.Time
	f  func()
}

func (ft *fakeTimers) afterFunc(d time.Duration, f func()) {
	ft.mu.Lock()
	defer ft.mu.Unlock()
	ft.pending = append(ft.pending, fakeTimer{ft.clock.Now().Add(d), f})
}

func (ft *fakeTimers) fireDue() {
	ft.mu.Lock()
	now := ft.clock.Now()
	var due []fakeTimer
	ft.pending = slices.DeleteFunc(ft.pending, func(t fakeTimer) bool {
		if t.at.After(now) {
			return false
		}
		due = append(due, t)
		return true
	})
	ft.mu.Unlock()
	for _, t := range due {
		t.f()
	}
}

var capEpoch = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

// testObserver keeps what a cap told it.
type testObserver struct {
	mu       sync.Mutex
	queued   int
	waited   map[string]time.Duration
	admitted map[string]int
}

func newTestObserver() *testObserver {
	return &testObserver{waited: map[string]time.Duration{}, admitted: map[string]int{}}
}

func (o *testObserver) Account(name string) func(time.Duration) {
	return func(waited time.Duration) {
		o.mu.Lock()
		defer o.mu.Unlock()
		o.waited[name] += waited
		o.admitted[name]++
	}
}

func (o *testObserver) Queued(n int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.queued = n
}

// get reads what the observer was told, under its lock.
func (o *testObserver) get(f func() float64) float64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	return f()
}

// attempts is how many requests a call makes in the tests' caps.
const attempts = 7

// newFakeCap is a cap of perSecond on a settable clock and fake timers,
// with an observer of its own.
func newFakeCap(t *testing.T, perSecond float64) (*Cap, *testsupport.Clock, *fakeTimers, *testObserver) {
	t.Helper()
	m := newTestObserver()
	r := NewCap(perSecond, attempts, m)
	clock := testsupport.NewClock(capEpoch)
	ft := &fakeTimers{clock: clock}
	r.now, r.afterFunc = clock.Now, ft.afterFunc
	return r, clock, ft, m
}

func (r *Cap) queued() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.waiting
}

// grantedAt is one request let through: its account and slot.
type grantedAt struct {
	account string
	slot    time.Time
}

// capRun sends requests through a cap from goroutines and keeps what each
// got.
type capRun struct {
	r       *Cap
	wg      sync.WaitGroup
	mu      sync.Mutex
	granted []grantedAt
	errs    []error
}

func (c *capRun) send(ctx context.Context, account string) {
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		slot, err := c.r.Wait(ctx, account)
		c.mu.Lock()
		defer c.mu.Unlock()
		if err != nil {
			c.errs = append(c.errs, err)
			return
		}
		c.granted = append(c.granted, grantedAt{account, slot})
	}()
}

// inOrder is every request let through, by slot.
func (c *capRun) inOrder() []grantedAt {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.SortedFunc(slices.Values(c.granted), func(a, b grantedAt) int { return a.slot.Compare(b.slot) })
}

// drain moves the clock one slot at a time, firing the cap's timer, until
// no request waits.
func drain(t *testing.T, r *Cap, clock *testsupport.Clock, ft *fakeTimers) {
	t.Helper()
	for i := 0; r.queued() > 0; i++ {
		if i > 10_000 {
			t.Fatalf("requests still waiting after %d slots", i)
		}
		clock.Add(r.interval)
		ft.fireDue()
	}
}

// One account with a hundred requests waiting (a backlog paging, every
// poller at once) holds another account's single request back by one slot
// at most: it is served in the next round, not after the hundred.
func TestCapServesAnotherAccountWithinOneRoundOfABacklog(t *testing.T) {
	r, clock, ft, m := newFakeCap(t, 10)
	run := &capRun{r: r}
	ctx := context.Background()
	run.send(ctx, "busy") // the free slot
	testsupport.WaitFor(t, "the first request through", func() bool { return len(run.inOrder()) == 1 })
	for range 100 {
		run.send(ctx, "busy")
	}
	testsupport.WaitFor(t, "100 requests of busy waiting", func() bool { return r.queued() == 100 })
	run.send(ctx, "quiet")
	testsupport.WaitFor(t, "quiet's request waiting", func() bool { return r.queued() == 101 })
	if got := m.get(func() float64 { return float64(m.queued) }); got != 101 {
		t.Errorf("woox_api_rate_cap_queued = %v, want 101", got)
	}
	drain(t, r, clock, ft)
	run.wg.Wait()

	order := run.inOrder()
	if len(order) != 102 || len(run.errs) != 0 {
		t.Fatalf("%d requests through, errors %v; want 102, none", len(order), run.errs)
	}
	i := slices.IndexFunc(order, func(g grantedAt) bool { return g.account == "quiet" })
	// Slot 0 went to busy before quiet arrived; busy's turn, then quiet's.
	if i < 1 || i > 2 {
		t.Errorf("quiet served in slot %d of %d, want 1 or 2 (one round)", i, len(order))
	}
	for k := 1; k < len(order); k++ {
		if gap := order[k].slot.Sub(order[k-1].slot); gap != r.interval {
			t.Fatalf("slots %d and %d are %s apart, want exactly %s while requests wait", k-1, k, gap, r.interval)
		}
	}
	wantWait := order[i].slot.Sub(capEpoch).Seconds()
	if got := m.get(func() float64 { return m.waited["quiet"].Seconds() }); got != wantWait {
		t.Errorf("quiet's wait = %v s, want %v", got, wantWait)
	}
	if got := m.get(func() float64 { return float64(m.admitted["busy"]) }); got != 101 {
		t.Errorf("busy's requests let through = %v, want 101", got)
	}
	if got := m.get(func() float64 { return float64(m.queued) }); got != 0 {
		t.Errorf("woox_api_rate_cap_queued = %v after the queue drained, want 0", got)
	}
}

// Within one account requests go in the order they came.
func TestCapServesOneAccountInOrder(t *testing.T) {
	r, clock, ft, _ := newFakeCap(t, 10)
	var wg sync.WaitGroup
	slots := make([]time.Time, 6)
	first, err := r.Wait(context.Background(), "a") // the free slot
	if err != nil {
		t.Fatal(err)
	}
	slots[0] = first
	for k := 1; k < len(slots); k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			slot, err := r.Wait(context.Background(), "a")
			if err != nil {
				t.Error(err)
			}
			slots[k] = slot
		}()
		// Each queued before the next comes.
		testsupport.WaitFor(t, "request queued", func() bool { return r.queued() == k })
	}
	drain(t, r, clock, ft)
	wg.Wait()
	for k := 1; k < len(slots); k++ {
		if !slots[k].After(slots[k-1]) {
			t.Errorf("request %d got slot %s, not after request %d's %s: not in order", k, slots[k], k-1, slots[k-1])
		}
	}
}

// Whatever the arrivals, no span of one second holds more slots than the
// cap: checked over the slots of many accounts and requests, the clock
// moved in uneven steps.
func TestCapHoldsTheRateOverAnyWindow(t *testing.T) {
	const perSecond = 5
	r, clock, ft, _ := newFakeCap(t, perSecond)
	run := &capRun{r: r}
	accounts := []string{"a", "b", "c", ""}
	for g := range 12 {
		run.wg.Add(1)
		go func() {
			defer run.wg.Done()
			for range 10 {
				slot, err := r.Wait(context.Background(), accounts[g%len(accounts)])
				run.mu.Lock()
				if err != nil {
					run.errs = append(run.errs, err)
				} else {
					run.granted = append(run.granted, grantedAt{accounts[g%len(accounts)], slot})
				}
				run.mu.Unlock()
			}
		}()
	}
	done := make(chan struct{})
	go func() { run.wg.Wait(); close(done) }()
	rng := rand.New(rand.NewPCG(1, 2))
	for steps := 0; ; steps++ {
		select {
		case <-done:
		default:
			if steps > 100_000 {
				t.Fatal("requests still waiting after 100,000 clock steps")
			}
			clock.Add(time.Duration(rng.Int64N(int64(r.interval) * 3 / 2)))
			ft.fireDue()
			time.Sleep(50 * time.Microsecond) // let the callers come back
			continue
		}
		break
	}
	// Then one request at a time, arriving early or late for its slot:
	// some go through at once, others wait.
	for k := range 60 {
		clock.Add(time.Duration(rng.Int64N(int64(r.interval) * 3 / 2)))
		run.send(context.Background(), "sparse")
		testsupport.WaitFor(t, "the request through or waiting", func() bool {
			return len(run.inOrder()) == 121+k || r.queued() == 1
		})
		drain(t, r, clock, ft)
		run.wg.Wait()
	}
	order := run.inOrder()
	if len(order) != 180 || len(run.errs) != 0 {
		t.Fatalf("%d requests through, errors %v; want 180, none", len(order), run.errs)
	}
	var slots []time.Time
	for k, g := range order {
		slots = append(slots, g.slot)
		if k > 0 && g.slot.Sub(order[k-1].slot) < r.interval {
			t.Errorf("slots %s and %s closer than %s", order[k-1].slot, g.slot, r.interval)
		}
	}
	if n := testsupport.BusiestWindow(slots, time.Second); n > perSecond {
		t.Errorf("%d slots within one second, cap is %d", n, perSecond)
	}
}

// A request whose caller gives up while waiting leaves its queue and uses
// no slot: the next request gets the slot it would have had.
func TestCapWaiterThatGivesUpUsesNoSlot(t *testing.T) {
	r, clock, ft, m := newFakeCap(t, 1)
	first, err := r.Wait(context.Background(), "a")
	if err != nil || !first.Equal(capEpoch) {
		t.Fatalf("first request: slot %s, %v; want %s at once", first, err, capEpoch)
	}
	ctx, cancel := context.WithCancel(context.Background())
	run := &capRun{r: r}
	run.send(ctx, "b")
	testsupport.WaitFor(t, "b waiting", func() bool { return r.queued() == 1 })
	cancel()
	run.wg.Wait()
	if len(run.errs) != 1 || !errors.Is(run.errs[0], context.Canceled) {
		t.Fatalf("given-up request returned %v, want context.Canceled", run.errs)
	}
	if r.queued() != 0 || len(r.turns) != 0 || m.get(func() float64 { return float64(m.queued) }) != 0 {
		t.Errorf("after giving up: %d waiting, %d accounts in turn, gauge %v; want none", r.queued(), len(r.turns), m.get(func() float64 { return float64(m.queued) }))
	}
	clock.Add(r.interval)
	ft.fireDue()
	// A wrong cap would hold c forever on the settable clock: a guard.
	guard, stop := context.WithTimeout(context.Background(), testsupport.WaitTimeout)
	defer stop()
	next, err := r.Wait(guard, "c")
	if err != nil || !next.Equal(capEpoch.Add(r.interval)) {
		t.Errorf("next request: slot %s, %v; want %s, the slot b gave up", next, err, capEpoch.Add(r.interval))
	}
	if got := m.get(func() float64 { return float64(m.admitted["b"]) }); got != 0 {
		t.Errorf("b's requests let through = %v, want 0", got)
	}
	if _, err := r.Wait(ctx, "b"); !errors.Is(err, context.Canceled) {
		t.Errorf("request with its context already done: %v, want context.Canceled", err)
	}
}

// A slot handed out just as its caller gave up goes to the next request
// waiting, at once, as the slot it was, and the cap's pace holds.
func TestCapSlotOfARequestThatGaveUpGoesToTheNext(t *testing.T) {
	r, clock, ft, _ := newFakeCap(t, 1)
	if _, err := r.Wait(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
	r.mu.Lock()
	b := &capWaiter{q: r.queue("b"), ready: make(chan struct{})}
	c := &capWaiter{q: r.queue("c"), ready: make(chan struct{})}
	r.enqueue(b, clock.Now())
	r.enqueue(c, clock.Now())
	r.mu.Unlock()
	clock.Add(r.interval)
	ft.fireDue()
	select {
	case <-b.ready:
	default:
		t.Fatal("b's slot was not handed out")
	}
	clock.Add(r.interval / 4)
	r.giveUp(b) // b's caller gave up as the slot came
	select {
	case <-c.ready:
	default:
		t.Fatal("the slot b gave up did not go to c")
	}
	if want := b.slot; !c.slot.Equal(want) {
		t.Errorf("c's slot %s, want %s (b's, the slot that was due)", c.slot, want)
	}
	r.mu.Lock()
	next := r.next
	r.mu.Unlock()
	if want := c.slot.Add(r.interval); !next.Equal(want) {
		t.Errorf("next slot %s, want %s: one interval after c's", next, want)
	}
}

// Far under the cap nothing waits, arms a timer or changes the slot it gets.
func TestCapFarUnderTheCapLetsRequestsThroughAtOnce(t *testing.T) {
	r, clock, ft, m := newFakeCap(t, 500)
	for k := range 20 {
		slot, err := r.Wait(context.Background(), "a")
		if err != nil || !slot.Equal(clock.Now()) {
			t.Fatalf("request %d: slot %s, %v; want now (%s)", k, slot, err, clock.Now())
		}
		clock.Add(r.interval)
	}
	if len(ft.pending) != 0 {
		t.Errorf("%d timers armed, want none", len(ft.pending))
	}
	if got := m.get(func() float64 { return m.waited["a"].Seconds() }); got != 0 {
		t.Errorf("wait = %v s, want 0", got)
	}
}

func TestNewCapOffAtZeroAndRoundsItsIntervalUp(t *testing.T) {
	for _, off := range []float64{0, -1} {
		if r := NewCap(off, attempts, newTestObserver()); r != nil {
			t.Errorf("NewCap(%v) = %+v, want nil (no cap)", off, r)
		}
	}
	var none *Cap
	if _, err := none.Wait(context.Background(), "a"); err != nil || none.LongestWait(100) != 0 {
		t.Errorf("nil cap: wait %v, longest wait %s; want nil, 0", err, none.LongestWait(100))
	}
	// Three slots of a cap of 3 span more than a second, so a fourth never
	// fits in one.
	r := NewCap(3, attempts, nil)
	if span := 3 * r.interval; span <= time.Second {
		t.Errorf("interval %s: 4 slots fit in %s", r.interval, span)
	}
	if got, want := r.LongestWait(10), time.Duration(attempts)*10*r.interval; got != want {
		t.Errorf("LongestWait(10) = %s, want %s", got, want)
	}
}

// On the real clock, with callers giving up at random, every request ends
// (no deadlock), the queue empties, and slots stay an interval apart.
func TestCapUnderConcurrentCallersThatGiveUp(t *testing.T) {
	r := NewCap(2000, attempts, newTestObserver())
	run := &capRun{r: r}
	for g := range 20 {
		run.wg.Add(1)
		go func() {
			defer run.wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 7))
			account := []string{"a", "b", "c", "d", ""}[g%5]
			for range 50 {
				ctx, cancel := context.WithTimeout(context.Background(), time.Duration(rng.IntN(3000))*time.Microsecond)
				slot, err := r.Wait(ctx, account)
				cancel()
				run.mu.Lock()
				if err == nil {
					run.granted = append(run.granted, grantedAt{account, slot})
				} else if !errors.Is(err, context.DeadlineExceeded) {
					run.errs = append(run.errs, err)
				}
				run.mu.Unlock()
			}
		}()
	}
	done := make(chan struct{})
	go func() { run.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(testsupport.WaitTimeout):
		t.Fatalf("callers still waiting after %s: deadlock", testsupport.WaitTimeout)
	}
	if len(run.errs) != 0 {
		t.Fatalf("errors other than the deadline: %v", run.errs)
	}
	if r.queued() != 0 || len(r.turns) != 0 {
		t.Errorf("%d waiting, %d accounts in turn after every caller left", r.queued(), len(r.turns))
	}
	order := run.inOrder()
	if len(order) == 0 {
		t.Fatal("no request got through")
	}
	for k := 1; k < len(order); k++ {
		if gap := order[k].slot.Sub(order[k-1].slot); gap < r.interval {
			t.Fatalf("slots %d and %d are %s apart, under the interval %s", k-1, k, gap, r.interval)
		}
	}
}

// BenchmarkCapFarUnderTheCap is what the cap costs a request when
// nobody waits (docs/performance.md).
func BenchmarkCapFarUnderTheCap(b *testing.B) {
	r := NewCap(1e9, attempts, newTestObserver())
	r.Join("a")
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Wait(ctx, "a"); err != nil {
			b.Fatal(err)
		}
	}
}

// Timers fire late on a busy machine. The slots stay one interval apart,
// each the one that was due, so the cap still lets its rate through; a
// timer fired far too late lets one request more through at once, no burst.
func TestCapKeepsItsRateWhenTimersFireLate(t *testing.T) {
	r, clock, ft, _ := newFakeCap(t, 100)
	run := &capRun{r: r}
	clock.Add(time.Second) // the first slot is free: it goes at once
	run.send(context.Background(), "a")
	run.wg.Wait()
	for range 40 {
		run.send(context.Background(), "a")
	}
	testsupport.WaitFor(t, "40 requests waiting", func() bool { return r.queued() == 40 })
	fireAllDue := func() {
		for range 10 {
			ft.fireDue()
		}
	}
	for r.queued() > 20 {
		clock.Add(r.interval * 3 / 2) // every timer half an interval late
		fireAllDue()
	}
	// Every slot granted so far is the one request more than those waiting.
	testsupport.WaitFor(t, "every granted request back", func() bool { return len(run.inOrder()) == 41-r.queued() })
	order := run.inOrder()
	for k := 1; k < len(order); k++ {
		if gap := order[k].slot.Sub(order[k-1].slot); gap != r.interval {
			t.Fatalf("slots %d and %d are %s apart, want %s: a late timer slowed the cap", k-1, k, gap, r.interval)
		}
	}
	// Then a timer a hundred intervals late: two slots, not the twenty left.
	before := len(order)
	clock.Add(100 * r.interval)
	fireAllDue()
	testsupport.WaitFor(t, "the late slots granted", func() bool { return len(run.inOrder()) >= before+2 })
	if got := len(run.inOrder()) - before; got != 2 || r.queued() != 40-(before-1)-2 {
		t.Errorf("a timer 100 intervals late let %d requests through (%d still waiting); want 2", got, r.queued())
	}
	drain(t, r, clock, ft)
	run.wg.Wait()
}

// Polls due at once reserve their turns: each is called once, in turn, a
// slot apart, and none holds a goroutine while it waits. A reservation whose
// context ends leaves its queue, is called with the error and uses no slot.
func TestCapReservationsHoldNoGoroutineWhileTheyWait(t *testing.T) {
	r, clock, ft, _ := newFakeCap(t, 100)
	r.mu.Lock()
	r.next = capEpoch.Add(time.Hour) // every slot taken until then
	r.mu.Unlock()
	var mu sync.Mutex
	var slots []time.Time
	var errs []error
	granted := func(slot time.Time, err error) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			errs = append(errs, err)
			return
		}
		slots = append(slots, slot)
	}
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	for range 500 {
		r.Reserve(context.Background(), "a", granted)
	}
	r.Reserve(ctx, "b", granted)
	if r.queued() != 501 {
		t.Fatalf("%d reservations waiting, want 501", r.queued())
	}
	if n := runtime.NumGoroutine() - before; n > 10 {
		t.Errorf("501 reservations waiting hold %d goroutines", n)
	}
	cancel()
	testsupport.WaitFor(t, "the cancelled reservation called", func() bool { mu.Lock(); defer mu.Unlock(); return len(errs) == 1 })
	if r.queued() != 500 {
		t.Errorf("%d waiting after one was cancelled, want 500", r.queued())
	}
	clock.Add(time.Hour)
	drain(t, r, clock, ft)
	testsupport.WaitFor(t, "every reservation called", func() bool { mu.Lock(); defer mu.Unlock(); return len(slots) == 500 })
	slices.SortFunc(slots, time.Time.Compare)
	for k := 1; k < len(slots); k++ {
		if gap := slots[k].Sub(slots[k-1]); gap != r.interval {
			t.Fatalf("slots %d and %d are %s apart, want %s", k-1, k, gap, r.interval)
		}
	}
}
