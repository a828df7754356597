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
	return Source{PerScrape: prometheus.NewRegistry(), Data: func() []Part {
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

// A scrape within MaxAge of the last refresh serves it without waiting
// for the refresh in progress; once that is done, scrapes serve it.
func TestAScrapeNeverWaitsForARefreshItDoesNotNeed(t *testing.T) {
	s := newValueSource()
	s.set(1)
	clock := testsupport.NewClock(time.Unix(1700000000, 0))
	h := NewHandler(s.source(), Options{Now: clock.Now})
	if v := served(t, h); v != 1 {
		t.Fatalf("served %d, want 1", v)
	}
	s.set(2)
	s.held.Store(true)
	clock.Add(100 * time.Millisecond)
	refreshed := make(chan struct{})
	go func() {
		defer close(refreshed)
		h.refresh(h.kept()[0], clock.Now())
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
		t.Fatal("a scrape within MaxAge waited for a refresh")
	}
	close(s.release)
	<-refreshed
	s.held.Store(false)
	if v := served(t, h); v != 2 {
		t.Errorf("after the refresh, served %d, want 2", v)
	}
}

// A change older than MaxAge is in the next answer, in a kept format and
// in a format asked for once, with no refresher run in between.
func TestAChangeOlderThanMaxAgeIsServed(t *testing.T) {
	s := newValueSource()
	s.set(1)
	clock := testsupport.NewClock(time.Unix(1700000000, 0))
	h := NewHandler(s.source(), Options{Now: clock.Now, MaxAge: time.Second})
	served(t, h)
	for v := uint64(2); v < 6; v++ {
		s.set(v)
		clock.Add(time.Second + time.Millisecond)
		if got := served(t, h); got != v {
			t.Fatalf("a change %s old served %d, want %d", time.Second+time.Millisecond, got, v)
		}
		if a := get(t, h, "application/openmetrics-text;version=1.0.0", true); !strings.Contains(string(a.body), "data_value "+strconv.FormatUint(v, 10)) {
			t.Fatalf("a format asked for once served:\n%s", a.body)
		}
	}
}

// While the data changes, scrapes of every kind race the refresher: no
// scrape serves an older value than one served before it began, and a
// change older than MaxAge is served (run with -race).
func TestAScrapeNeverServesOlderThanAnEarlierScrape(t *testing.T) {
	s := newValueSource()
	h := NewHandler(s.source(), Options{Workers: 2, MaxAge: 20 * time.Millisecond})
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		for v := uint64(1); !stop.Load(); v++ {
			s.set(v)
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
	time.Sleep(30 * time.Millisecond)
	if v, want := served(t, h), s.value.Load(); v != want {
		t.Errorf("%s after the last change, served %d, want the last value set, %d", 30*time.Millisecond, v, want)
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

// The refresher encodes a change in the formats kept without a scrape, so
// that the next scrape finds it encoded.
func TestTheRefresherEncodesAChangeWithoutAScrape(t *testing.T) {
	s := newValueSource()
	h := NewHandler(s.source(), Options{MaxAge: 20 * time.Millisecond})
	served(t, h)
	s.set(7)
	// The gather is counted before its encoding is stored: wait for the
	// encoding itself.
	e := h.kept()[0]
	testsupport.WaitFor(t, "a refresh with no scrape", func() bool { return e.cur.Load().parts[0].generation == s.gen.Load() })
}

// A part changed many times before a refresh is encoded once, at its
// newest value, and only in the formats kept: a format asked for once is
// not encoded again.
func TestAChangeIsEncodedOnceAtItsNewestInTheFormatsKept(t *testing.T) {
	s := newValueSource()
	clock := testsupport.NewClock(time.Unix(1700000000, 0))
	h := NewHandler(s.source(), Options{Now: clock.Now})
	served(t, h)
	get(t, h, "application/openmetrics-text;version=1.0.0", false)
	if n := s.gathers.Load(); n != 2 || h.Formats() != 1 {
		t.Fatalf("%d gathers and %d formats kept, want 2 and Prometheus' 1", n, h.Formats())
	}
	for v := range uint64(10) {
		s.set(v + 1)
	}
	clock.Add(2 * time.Second)
	for range 3 {
		if v := served(t, h); v != 10 {
			t.Errorf("served %d, want 10", v)
		}
	}
	if n := s.gathers.Load(); n != 3 {
		t.Errorf("%d gathers after ten changes and three scrapes, want 3: one more, in the format kept", n)
	}
}

// The refresher stops once no format is kept (each released after Idle),
// leaving as many goroutines as there were before the handler, and a
// format released is encoded no more.
func TestTheRefresherStopsWhenNoFormatIsKept(t *testing.T) {
	before := runtime.NumGoroutine()
	s := newValueSource()
	clock := testsupport.NewClock(time.Unix(1700000000, 0))
	h := NewHandler(s.source(), Options{Now: clock.Now, Idle: time.Minute, MaxAge: 20 * time.Millisecond, Workers: 4})
	served(t, h)
	clock.Add(50 * time.Second)
	served(t, h)
	clock.Add(2 * time.Minute)
	testsupport.WaitFor(t, "the refresher to release the idle format", func() bool { return h.Formats() == 0 })
	s.set(1)
	gathers := s.gathers.Load()
	for deadline := time.Now().Add(testsupport.WaitTimeout); runtime.NumGoroutine() > before; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			stacks := make([]byte, 1<<20)
			t.Fatalf("%d goroutines, %d before the handler:\n%s", runtime.NumGoroutine(), before, stacks[:runtime.Stack(stacks, true)])
		}
	}
	time.Sleep(50 * time.Millisecond)
	if n := s.gathers.Load(); n != gathers {
		t.Errorf("a released format was gathered %d times", n-gathers)
	}
}
