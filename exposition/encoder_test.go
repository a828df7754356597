package exposition

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"google.golang.org/protobuf/proto"

	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// valueSource serves one data part, a gauge whose value the test sets, a
// new generation at each set, and counts the part's gathers. While held, a
// gather signals gathering and waits for release.
type valueSource struct {
	value, gen atomic.Uint64
	gathers    atomic.Int64
	held       atomic.Bool
	gathering  chan struct{}
	release    chan struct{}
}

func newValueSource() *valueSource {
	return &valueSource{gathering: make(chan struct{}, 1), release: make(chan struct{})}
}

// set changes the value, then its generation, as a poll does.
func (s *valueSource) set(v uint64) {
	s.value.Store(v)
	s.gen.Add(1)
}

func (s *valueSource) source() Source {
	return Source{Live: prometheus.NewRegistry(), Data: func() []Part {
		return []Part{{Generation: s.gen.Load(), Gather: s.gather}}
	}}
}

func (s *valueSource) gather() ([]*dto.MetricFamily, error) {
	s.gathers.Add(1)
	if s.held.Load() {
		s.gathering <- struct{}{}
		<-s.release
	}
	return []*dto.MetricFamily{{Name: proto.String("data_value"), Help: proto.String("Set by the test."), Type: dto.MetricType_GAUGE.Enum(),
		Metric: []*dto.Metric{{Gauge: &dto.Gauge{Value: proto.Float64(float64(s.value.Load()))}}}}}, nil
}

// served is the value a scrape as Prometheus sends it (its format kept from
// its first scrape) serves.
func served(t *testing.T, h http.Handler) uint64 {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
	req.Header.Set("X-Prometheus-Scrape-Timeout-Seconds", "10")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	for _, line := range strings.Split(rec.Body.String(), "\n") {
		if v, ok := strings.CutPrefix(line, "data_value "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatal(err)
			}
			return uint64(f)
		}
	}
	t.Fatalf("no data_value served:\n%s", rec.Body)
	return 0
}

// A scrape serves the part's encoding while its change is being gathered,
// without waiting for it; once that encoding is done, scrapes serve it.
func TestAScrapeNeverWaitsForAChangedPartsEncoding(t *testing.T) {
	s := newValueSource()
	s.set(1)
	h := NewHandler(s.source(), Options{})
	if v := served(t, h); v != 1 {
		t.Fatalf("served %d, want 1", v)
	}
	s.set(2)
	s.held.Store(true)
	settled := make(chan struct{})
	go func() {
		defer close(settled)
		h.Settle()
	}()
	<-s.gathering
	answered := make(chan uint64)
	go func() { answered <- served(t, h) }()
	select {
	case v := <-answered:
		if v != 1 {
			t.Errorf("while the change was being gathered, served %d, want the encoded 1", v)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a scrape waited for the gather of a changed part")
	}
	close(s.release)
	<-settled
	if v := served(t, h); v != 2 {
		t.Errorf("after the change was encoded, served %d, want 2", v)
	}
}

// While the data changes, scrapes of every kind race passes and Settle:
// no scrape serves an older value than one served before it began, and
// once settled the last change is served (run with -race).
func TestAScrapeNeverServesOlderThanAnEarlierScrape(t *testing.T) {
	s := newValueSource()
	h := NewHandler(s.source(), Options{Workers: 2})
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		for v := uint64(1); !stop.Load(); v++ {
			s.set(v)
		}
	})
	wg.Go(func() {
		for !stop.Load() {
			h.Settle()
		}
	})
	var newest atomic.Uint64
	var scrapers sync.WaitGroup
	for range 4 {
		scrapers.Go(func() {
			for range 300 {
				before := newest.Load()
				v := served(t, h)
				if v < before {
					t.Errorf("served %d after a scrape had served %d", v, before)
					return
				}
				raise(&newest, v)
			}
		})
	}
	scrapers.Wait()
	stop.Store(true)
	wg.Wait()
	h.Settle()
	if v, want := served(t, h), s.value.Load(); v != want {
		t.Errorf("settled, served %d, want the last value set, %d", v, want)
	}
}

// raise sets n to v if v is larger.
func raise(n *atomic.Uint64, v uint64) {
	for old := n.Load(); v > old; old = n.Load() {
		if n.CompareAndSwap(old, v) {
			return
		}
	}
}

// A change after a scrape is encoded, without another scrape, before the
// next scrape is due (from the interval of the scrapes before), and that
// scrape serves it.
func TestAChangeIsEncodedBeforeTheNextScrapeIsDue(t *testing.T) {
	s := newValueSource()
	clock := testsupport.NewClock(time.Unix(1700000000, 0))
	h := NewHandler(s.source(), Options{Now: clock.Now})
	for range 3 {
		served(t, h)
		clock.Add(200 * time.Millisecond)
	}
	s.set(7)
	gathers := s.gathers.Load()
	testsupport.WaitFor(t, "a pass before the scrape due 200 ms after the last", func() bool { return s.gathers.Load() > gathers })
	if v := served(t, h); v != 7 {
		t.Errorf("served %d, want 7", v)
	}
}

// A pass is due a quarter of the shortest recent interval, at most
// maxLead, before the next scrape; or twice the longest recent pass, at
// most half the interval.
func TestNextDue(t *testing.T) {
	at := func(ds ...time.Duration) []time.Time {
		var ts []time.Time
		for _, d := range ds {
			ts = append(ts, time.Unix(0, 0).Add(d))
		}
		return ts
	}
	for _, tc := range []struct {
		name    string
		scrapes []time.Time
		passes  []time.Duration
		due     time.Duration
		ok      bool
	}{
		{"one scrape", at(0), nil, 0, false},
		{"every 15 s", at(0, 15*time.Second, 30*time.Second), nil, 44 * time.Second, true},
		{"every second", at(0, time.Second, 2*time.Second), nil, 2750 * time.Millisecond, true},
		{"two scrapers 3 s apart, each every 15 s", at(0, 3*time.Second, 15*time.Second, 18*time.Second), nil, 20250 * time.Millisecond, true},
		{"back to back", at(0, 2*time.Millisecond, 4*time.Millisecond), nil, 5500 * time.Microsecond, true},
		{"a clock set back", at(10*time.Second, 5*time.Second), nil, 5 * time.Second, true},
		{"passes of up to 200 ms, every second", at(0, time.Second, 2*time.Second), []time.Duration{200 * time.Millisecond, 100 * time.Millisecond}, 2600 * time.Millisecond, true},
		{"a pass of 4 s, capped at half the interval", at(0, 15*time.Second), []time.Duration{4 * time.Second, 100 * time.Millisecond}, 22500 * time.Millisecond, true},
		{"a pass longer than the interval", at(0, time.Second), []time.Duration{3 * time.Second}, 1500 * time.Millisecond, true},
	} {
		s := schedule{scrapes: tc.scrapes, passes: tc.passes}
		due, ok := s.nextDue()
		if ok != tc.ok || ok && !due.Equal(time.Unix(0, 0).Add(tc.due)) {
			t.Errorf("%s: due %v (%v), want %v (%v)", tc.name, due.Sub(time.Unix(0, 0)), ok, tc.due, tc.ok)
		}
	}
}

// A part changed many times before a pass is encoded once, at its newest
// value, and only in the formats kept: a format asked for once is not
// encoded again.
func TestAChangeIsEncodedOnceAtItsNewestInTheFormatsKept(t *testing.T) {
	s := newValueSource()
	h := NewHandler(s.source(), Options{})
	served(t, h)
	get(t, h, "application/openmetrics-text;version=1.0.0", false)
	if n := s.gathers.Load(); n != 2 || h.Formats() != 1 {
		t.Fatalf("%d gathers and %d formats kept, want 2 and Prometheus' 1", n, h.Formats())
	}
	for v := range uint64(10) {
		s.set(v + 1)
	}
	h.Settle()
	if n := s.gathers.Load(); n != 3 {
		t.Errorf("%d gathers after ten changes settled, want 3: one more, in the format kept", n)
	}
	if v := served(t, h); v != 10 {
		t.Errorf("served %d, want 10", v)
	}
}

// A format released after Options.Idle is encoded no more: its pending
// pass does nothing.
func TestAReleasedFormatIsEncodedNoMore(t *testing.T) {
	s := newValueSource()
	clock := testsupport.NewClock(time.Unix(1700000000, 0))
	h := NewHandler(s.source(), Options{Now: clock.Now, Idle: time.Minute})
	served(t, h)
	clock.Add(50 * time.Second)
	served(t, h)
	released := h.kept()[0]
	clock.Add(2 * time.Minute)
	get(t, h, "application/openmetrics-text;version=1.0.0", false)
	if h.Formats() != 0 {
		t.Fatalf("%d formats kept after Idle, want 0", h.Formats())
	}
	s.set(1)
	gathers := s.gathers.Load()
	h.runPass(released)
	h.Settle()
	if n := s.gathers.Load(); n != gathers {
		t.Errorf("a released format's pass gathered %d times", n-gathers)
	}
}

// The encoder keeps no goroutine between passes: once its passes are done,
// a handler leaves as many goroutines as there were before it.
func TestTheEncoderLeavesNoGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	s := newValueSource()
	clock := testsupport.NewClock(time.Unix(1700000000, 0))
	h := NewHandler(s.source(), Options{Now: clock.Now, Workers: 4})
	for range 3 {
		served(t, h)
		clock.Add(10 * time.Millisecond)
	}
	s.set(1)
	gathers := s.gathers.Load()
	testsupport.WaitFor(t, "a pass", func() bool { return s.gathers.Load() > gathers })
	for deadline := time.Now().Add(testsupport.WaitTimeout); runtime.NumGoroutine() > before; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			stacks := make([]byte, 1<<20)
			t.Fatalf("%d goroutines, %d before the handler:\n%s", runtime.NumGoroutine(), before, stacks[:runtime.Stack(stacks, true)])
		}
	}
}
