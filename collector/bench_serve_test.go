package collector

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/woox-exporter/woox_exporter/exposition"
)

// movedParts serves a Source's parts with generations a benchmark moves
// (a poll that changed the part, without the poll) and counts their
// gathers.
type movedParts struct {
	data    func() []exposition.Part
	moves   []atomic.Uint64
	gathers atomic.Int64
}

func newMovedParts(src *exposition.Source) *movedParts {
	m := &movedParts{data: src.Data, moves: make([]atomic.Uint64, len(src.Data()))}
	src.Data = m.parts
	return m
}

func (m *movedParts) parts() []exposition.Part {
	parts := m.data()
	for i := range parts {
		parts[i].Generation += m.moves[i].Load() << 32
		gather := parts[i].Gather
		parts[i].Gather = func() ([]*dto.MetricFamily, error) {
			m.gathers.Add(1)
			return gather()
		}
	}
	return parts
}

// move moves the generation of every part in which.
func (m *movedParts) move(which []int) {
	for _, i := range which {
		m.moves[i].Add(1)
	}
}

// all are the indexes of every part.
func (m *movedParts) all() []int {
	all := make([]int, len(m.moves))
	for i := range all {
		all[i] = i
	}
	return all
}

// poll moves every part in which each period, one after another spread
// evenly over it (pollers of different endpoints finish at different
// times), until the returned stop is called.
func (m *movedParts) poll(period time.Duration, which []int) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		start, moved := time.Now(), 0
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			// Every part whose moment has come, counted from the start:
			// a tick the machine delayed moves as many as were due.
			due := int(int64(time.Since(start)) * int64(len(which)) / int64(period))
			for ; moved < due; moved++ {
				m.move(which[moved%len(which) : moved%len(which)+1])
			}
		}
	})
	return func() {
		close(done)
		wg.Wait()
	}
}

// scrapeRequest is a scrape as Prometheus 3 sends it: its Accept header,
// gzip, its scrape timeout (which keeps its format from the first scrape).
func scrapeRequest() *http.Request {
	req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
	req.Header.Set("Accept", prometheusAccept)
	req.Header.Set("Accept-Encoding", "gzip")
	req.Header.Set("X-Prometheus-Scrape-Timeout-Seconds", "10")
	return req
}

// timedScrape scrapes h once and returns how long it took.
func timedScrape(b *testing.B, h http.Handler, req *http.Request) time.Duration {
	start := time.Now()
	w := countingWriter{header: http.Header{}}
	h.ServeHTTP(&w, req)
	took := time.Since(start)
	if w.status != http.StatusOK {
		b.Fatalf("status %d", w.status)
	}
	return took
}

// reportLatencies reports the median, 99th percentile and longest of ds,
// in milliseconds.
func reportLatencies(b *testing.B, ds []time.Duration) {
	if len(ds) == 0 {
		return
	}
	slices.Sort(ds)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(ds[len(ds)/2]), "p50-ms")
	b.ReportMetric(ms(ds[len(ds)*99/100]), "p99-ms")
	b.ReportMetric(ms(ds[len(ds)*999/1000]), "p99.9-ms")
	b.ReportMetric(ms(ds[len(ds)-1]), "max-ms")
}

// cpuTime is the CPU time the process used so far, user and system, every
// goroutine's (a background encoder's too).
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// servedOptions are the options internal/server serves /metrics with.
func servedOptions() exposition.Options {
	return exposition.Options{MaxEncodings: runtime.GOMAXPROCS(0), Workers: runtime.GOMAXPROCS(0)}
}

// pollEvery is the interval of the load test's pollers.
const pollEvery = 2 * time.Second

// BenchmarkScrapeWhilePolling is the load test's large account with every
// part changed every pollEvery, each part at its own moment of it, scraped
// back to back by one scraper: the scrape latencies' median, 99th and
// 99.9th percentiles and longest, and the median over the intervals of
// each interval's slowest scrape (a scrape that encodes the big parts
// after their poll is one an interval, too few for the percentiles of a
// thousand scrapes a second, and the machine's hiccups are rarer). Run with
// -benchtime 20s or more.
func BenchmarkScrapeWhilePolling(b *testing.B) {
	e, reg := largeExporter(b, 100)
	src := e.Source(reg)
	moved := newMovedParts(&src)
	h := exposition.NewHandler(src, servedOptions())
	req := scrapeRequest()
	timedScrape(b, h, req)
	stop := moved.poll(pollEvery, moved.all())
	var took []time.Duration
	var slowest []time.Duration
	start := time.Now()
	cpu := cpuTime(b)
	b.ResetTimer()
	for b.Loop() {
		d := timedScrape(b, h, req)
		took = append(took, d)
		i := int(time.Since(start) / pollEvery)
		for len(slowest) <= i {
			slowest = append(slowest, 0)
		}
		slowest[i] = max(slowest[i], d)
	}
	b.StopTimer()
	b.ReportMetric(float64(cpuTime(b)-cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	stop()
	reportLatencies(b, took)
	slices.Sort(slowest)
	b.ReportMetric(float64(slowest[len(slowest)/2])/float64(time.Millisecond), "slowest-per-poll-p50-ms")
}

// interval is BenchmarkEncodingPerScrapeInterval's scrape interval.
const interval = time.Second

// BenchmarkEncodingPerScrapeInterval is benchAccounts accounts scraped at a
// steady interval while every account part changes 5 times an interval: far
// more changes a second than the polls of a thousand accounts make, so the
// refresher's rounds run back to back and a scrape may wait for one. One op
// is one interval. It reports, from the first scrape to the last, per
// interval, the CPU the process used (the scrapes' and the refresher's),
// the gathers (each one encoding) and the part changes; and the scrapes'
// latencies. Run with -benchtime 10x or more.
func BenchmarkEncodingPerScrapeInterval(b *testing.B) {
	e := manyAccounts(b)
	src := e.Source(prometheus.NewRegistry())
	moved := newMovedParts(&src)
	h := exposition.NewHandler(src, servedOptions())
	req := scrapeRequest()
	accounts := make([]int, 0, len(e.served.Accounts()))
	for i := range e.served.Accounts() {
		accounts = append(accounts, len(e.served.Whole())+i)
	}
	stop := moved.poll(interval/5, accounts)
	defer stop()
	next := time.Now()
	var first, last benchSample
	scrape := func() time.Duration {
		// At the interval, or at once after a scrape that took longer.
		next = next.Add(interval)
		if wait := time.Until(next); wait > 0 {
			time.Sleep(wait)
		} else {
			next = time.Now()
		}
		last = benchSample{cpu: cpuTime(b), gathers: moved.gathers.Load(), changes: moved.total()}
		return timedScrape(b, h, req)
	}
	// The first scrapes encode every part, and show the interval.
	for range 3 {
		scrape()
	}
	var took []time.Duration
	b.ResetTimer()
	for b.Loop() {
		took = append(took, scrape())
		if len(took) == 1 {
			first = last
		}
	}
	b.StopTimer()
	if n := float64(b.N - 1); n > 0 {
		b.ReportMetric(float64(last.cpu-first.cpu)/float64(time.Millisecond)/n, "cpu-ms/op")
		b.ReportMetric(float64(last.gathers-first.gathers)/n, "gathers/op")
		b.ReportMetric(float64(last.changes-first.changes)/n, "changes/op")
	}
	reportLatencies(b, took)
}

// benchSample is what BenchmarkEncodingPerScrapeInterval counts, read before a
// scrape.
type benchSample struct {
	cpu     time.Duration
	gathers int64
	changes uint64
}

// total is how many times the parts moved.
func (m *movedParts) total() uint64 {
	var n uint64
	for i := range m.moves {
		n += m.moves[i].Load()
	}
	return n
}
