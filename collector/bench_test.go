package collector

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	versioncollector "github.com/prometheus/client_golang/prometheus/collectors/version"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/exposition"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/largeaccount"
)

// Size of the large account of the scrape benchmarks.
const (
	benchNetworks = 1000
	benchKeys     = 100
)

// benchTokens are the history sizes benchmarked: the 100 tokens x 27
// types x 3 counters (13,784 series in all), and 240 tokens, which brings
// the total to the ~25,000 series the issue quotes.
var benchTokens = []int{100, 240}

// PrometheusAccept is the Accept header Prometheus 3 sends by default.
const prometheusAccept = "application/openmetrics-text;version=1.0.0;escaping=allow-utf-8;q=0.5," +
	"application/openmetrics-text;version=0.0.1;q=0.4,text/plain;version=1.0.0;escaping=allow-utf-8;q=0.3," +
	"text/plain;version=0.0.4;q=0.2,*/*;q=0.1"

// largeExporter polls the large account once through the real client and the
// fake exchange, and returns the exporter and the registry of the per-scrape
// metrics main.go registers.
func largeExporter(b *testing.B, tokens int) (*Exporter, *prometheus.Registry) {
	b.Helper()
	reg := prometheus.NewRegistry()
	metrics := client.NewProcessMetrics(reg)
	r := newRig(b, largeaccount.Scenario(benchNetworks, benchKeys), realTime(),
		clientConfig(func(c *client.Config) { c.Metrics = metrics }))
	now := time.Now()
	types := len(fakeexchange.HistoryTypes())
	r.add(b, largeaccount.History(tokens, 2*tokens*types, 1, now.Add(-50*time.Minute), now.Add(-time.Minute))...)
	e := newExporter(b, r.config())
	for _, p := range e.pollers {
		p.pollOnce(context.Background())
		if !p.lastStatus().success {
			b.Fatalf("poll of %s failed", p.endpoint)
		}
	}
	reg.MustRegister(
		versioncollector.NewCollector("woox_exporter"),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return e, reg
}

// handlerOpts are the promhttp options main.go serves /metrics with (less its
// error logger).
var handlerOpts = promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError, EnableOpenMetrics: true}

// benchScrape scrapes h as Prometheus does (gzip, Prometheus's Accept
// header), calling poll (when not nil) before each scrape, and reports the
// compressed bytes and the series per scrape, and the CPU the process used
// per scrape: a handler's encoding in the background counts.
func benchScrape(b *testing.B, h http.Handler, series int, poll func()) {
	req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
	req.Header.Set("Accept", prometheusAccept)
	req.Header.Set("Accept-Encoding", "gzip")
	var w countingWriter
	b.ReportAllocs()
	cpu := cpuTime(b)
	b.ResetTimer()
	for b.Loop() {
		if poll != nil {
			poll()
		}
		w = countingWriter{header: http.Header{}}
		h.ServeHTTP(&w, req)
		if w.status != http.StatusOK || w.header.Get("Content-Encoding") != "gzip" {
			b.Fatalf("status %d, Content-Encoding %q", w.status, w.header.Get("Content-Encoding"))
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(cpuTime(b)-cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(w.n), "bytes/scrape")
	b.ReportMetric(float64(series), "series")
}

func seriesOf(b *testing.B, g prometheus.Gatherer) int {
	mfs, err := g.Gather()
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for _, mf := range mfs {
		n += len(mf.GetMetric())
	}
	return n
}

// BenchmarkScrapeExporter is a scrape of the large account as the exporter
// serves it (package exposition): the per-scrape families gathered, encoded and
// gzipped, the data families written from their kept encodings.
func BenchmarkScrapeExporter(b *testing.B) {
	for _, tokens := range benchTokens {
		b.Run(fmt.Sprintf("tokens=%d", tokens), func(b *testing.B) {
			e, reg := largeExporter(b, tokens)
			benchScrape(b, exposition.NewHandler(e.Source(reg), exposition.Options{}), seriesOf(b, e.Gatherer(reg)), nil)
		})
	}
}

// BenchmarkScrapeAfterEveryPoll is the worst case of the cache: a poll
// changed every part of the data just before every scrape.
func BenchmarkScrapeAfterEveryPoll(b *testing.B) {
	for _, tokens := range benchTokens {
		b.Run(fmt.Sprintf("tokens=%d", tokens), func(b *testing.B) {
			e, reg := largeExporter(b, tokens)
			src := e.Source(reg)
			moved := newMovedParts(&src)
			all := moved.all()
			benchScrape(b, exposition.NewHandler(src, exposition.Options{}), seriesOf(b, e.Gatherer(reg)), func() { moved.move(all) })
		})
	}
}

// BenchmarkScrapeFloor serves the same metric families, gathered once, with
// the same handler: the cost of encoding and compressing alone.
func BenchmarkScrapeFloor(b *testing.B) {
	for _, tokens := range benchTokens {
		b.Run(fmt.Sprintf("tokens=%d", tokens), func(b *testing.B) {
			e, reg := largeExporter(b, tokens)
			mfs, err := e.Gatherer(reg).Gather()
			if err != nil {
				b.Fatal(err)
			}
			floor := prometheus.GathererFunc(func() ([]*dto.MetricFamily, error) { return mfs, nil })
			benchScrape(b, promhttp.HandlerFor(floor, handlerOpts), seriesOf(b, floor), nil)
		})
	}
}

// countingWriter is an http.ResponseWriter that keeps only the byte count.
type countingWriter struct {
	header http.Header
	status int
	n      int
}

func (w *countingWriter) Header() http.Header { return w.header }
func (w *countingWriter) WriteHeader(s int)   { w.status = s }
func (w *countingWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	w.n += len(p)
	return len(p), nil
}
