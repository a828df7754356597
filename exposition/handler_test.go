package exposition

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"google.golang.org/protobuf/encoding/protodelim"
	"google.golang.org/protobuf/proto"
)

// rig is a per-scrape registry, a data registry whose generation the test moves,
// the handler under test and promhttp over a plain registry of both.
type rig struct {
	perScrape, data, other *prometheus.Registry
	// gen is the generation of data, the part the tests change; other is
	// a part that never changes.
	gen atomic.Uint64
	// gathers counts the gathers of data.
	gathers atomic.Int64
	gauge   *prometheus.GaugeVec
	handler *Handler
	plain   http.Handler
	now     atomic.Int64
}

func newRig(t *testing.T) *rig {
	t.Helper()
	r := &rig{perScrape: prometheus.NewRegistry(), data: prometheus.NewRegistry(), other: prometheus.NewRegistry()}
	r.perScrape.MustRegister(prometheus.NewCounter(prometheus.CounterOpts{Name: "scraped_requests_total", Help: "Per-scrape counter."}))
	r.perScrape.MustRegister(prometheus.NewGauge(prometheus.GaugeOpts{Name: "scraped.dotted.gauge", Help: "A UTF-8 name, escaped per format."}))
	r.gauge = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "data_balance", Help: "Data gauge."}, []string{"account", "token"})
	r.gauge.WithLabelValues("main", "BTC").Set(1.5)
	r.gauge.WithLabelValues("main", "US\"DT").Set(1000)
	hist := prometheus.NewHistogram(prometheus.HistogramOpts{Name: "data_duration_seconds", Help: "Data histogram.", Buckets: []float64{0.1, 1}})
	hist.Observe(0.5)
	r.data.MustRegister(r.gauge)
	r.other.MustRegister(hist, prometheus.NewCounter(prometheus.CounterOpts{Name: "data.dotted_total", Help: "Data counter with a UTF-8 name."}))
	r.now.Store(time.Unix(1700000000, 0).UnixNano())
	r.handler = NewHandler(Source{PerScrape: r.perScrape, Data: r.parts}, Options{Now: func() time.Time { return time.Unix(0, r.now.Load()) }, Idle: time.Minute})
	r.plain = promhttp.HandlerFor(prometheus.Gatherers{r.perScrape, r.data, r.other}, promhttp.HandlerOpts{EnableOpenMetrics: true})
	return r
}

// tick moves the rig's clock past Options.MaxAge: a change made before it
// is in every answer after it.
func (r *rig) tick() { r.now.Add(int64(2 * time.Second)) }

// parts are the two data parts: data at the test's generation, other at 0.
func (r *rig) parts() []Part {
	data := func() ([]*dto.MetricFamily, error) {
		r.gathers.Add(1)
		return r.data.Gather()
	}
	return []Part{{Generation: r.gen.Load(), Gather: data}, {Gather: r.other.Gather}}
}

// accepts are Accept headers of every format promhttp negotiates, with the
// escaping parameter Prometheus 3 sends.
var accepts = []string{
	"",
	"text/plain;version=0.0.4",
	"text/plain;version=1.0.0;escaping=allow-utf-8",
	"application/openmetrics-text;version=1.0.0",
	"application/openmetrics-text;version=1.0.0;escaping=allow-utf-8",
	"application/openmetrics-text;version=1.0.0;escaping=underscores",
	"application/openmetrics-text;version=0.0.1;escaping=dots",
	"application/openmetrics-text;version=1.0.0;escaping=values",
	// Prometheus 3's default scrape protocols.
	"application/openmetrics-text;version=1.0.0;escaping=allow-utf-8;q=0.5,application/openmetrics-text;version=0.0.1;q=0.4,text/plain;version=1.0.0;escaping=allow-utf-8;q=0.3,text/plain;version=0.0.4;q=0.2,*/*;q=0.1",
	"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited",
	"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;escaping=underscores",
	"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=text",
	"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=compact-text",
}

type answer struct {
	contentType, encoding string
	body                  []byte // decompressed
}

func get(t *testing.T, h http.Handler, accept string, gz bool) answer {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	if gz {
		req.Header.Set("Accept-Encoding", "gzip")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("%q: status %d: %s", accept, rec.Code, rec.Body)
	}
	a := answer{contentType: rec.Header().Get("Content-Type"), encoding: rec.Header().Get("Content-Encoding"), body: rec.Body.Bytes()}
	if a.encoding == "gzip" {
		// gzip.Reader reads every member, as Prometheus' scraper does.
		zr, err := gzip.NewReader(bytes.NewReader(a.body))
		if err != nil {
			t.Fatalf("%q: not gzip: %v", accept, err)
		}
		if a.body, err = io.ReadAll(zr); err != nil {
			t.Fatalf("%q: bad gzip: %v", accept, err)
		}
	}
	return a
}

// families splits an answer into its families, by name, in a form that is
// equal when the families are: decoded messages for protobuf, the lines of
// each family for the text formats.
func families(t *testing.T, a answer) map[string]string {
	t.Helper()
	out := map[string]string{}
	format := expfmt.Format(a.contentType)
	switch format.FormatType() {
	case expfmt.TypeProtoDelim:
		r := bufio.NewReader(bytes.NewReader(a.body))
		for {
			mf := &dto.MetricFamily{}
			if err := protodelim.UnmarshalFrom(r, mf); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				t.Fatalf("protobuf: %v", err)
			}
			b, err := proto.MarshalOptions{Deterministic: true}.Marshal(mf)
			if err != nil {
				t.Fatal(err)
			}
			if _, dup := out[mf.GetName()]; dup {
				t.Fatalf("family %s twice", mf.GetName())
			}
			out[mf.GetName()] = string(b)
		}
		return out
	case expfmt.TypeProtoText, expfmt.TypeProtoCompact:
		// A record per family, starting with its name field.
		current := ""
		for _, line := range strings.SplitAfter(string(a.body), "\n") {
			if strings.HasPrefix(line, "name:") {
				current = strings.Fields(strings.ReplaceAll(line, ":", " "))[1]
			}
			out[current] += line
		}
		return out
	}
	text := string(a.body)
	if format.FormatType() == expfmt.TypeOpenMetrics {
		if strings.Count(text, "# EOF\n") != 1 || !strings.HasSuffix(text, "# EOF\n") {
			t.Fatalf("OpenMetrics without exactly one # EOF at its end:\n%s", text)
		}
		text = strings.TrimSuffix(text, "# EOF\n")
	}
	current := ""
	for _, line := range strings.SplitAfter(text, "\n") {
		if line == "" {
			continue
		}
		if f := strings.Fields(line); len(f) >= 3 && f[0] == "#" && (f[1] == "HELP" || f[1] == "TYPE" || f[1] == "UNIT") {
			current = f[2]
		}
		out[current] += line
	}
	return out
}

func TestEveryFormatServesWhatAPlainRegistryServes(t *testing.T) {
	r := newRig(t)
	check := func(round string) {
		t.Helper()
		for _, accept := range accepts {
			for _, gz := range []bool{false, true} {
				got, want := get(t, r.handler, accept, gz), get(t, r.plain, accept, gz)
				if got.contentType != want.contentType || got.encoding != want.encoding {
					t.Errorf("%s %q gzip %v: Content-Type %q encoding %q, promhttp says %q %q",
						round, accept, gz, got.contentType, got.encoding, want.contentType, want.encoding)
				}
				g, w := families(t, got), families(t, want)
				if len(g) != len(w) || len(w) < 4 {
					t.Errorf("%s %q gzip %v: %d families, promhttp %d", round, accept, gz, len(g), len(w))
				}
				for name, block := range w {
					if g[name] != block {
						t.Errorf("%s %q gzip %v: family %s\n got: %q\nwant: %q", round, accept, gz, name, g[name], block)
					}
				}
			}
		}
	}
	check("first scrape")
	check("from the cache")
	// A poll changes the data: every format kept shows it once it is
	// older than MaxAge.
	r.gauge.WithLabelValues("main", "BTC").Set(2.25)
	r.gauge.WithLabelValues("sub", "ETH").Set(3)
	r.gen.Add(1)
	r.tick()
	check("after a change")
	if a := get(t, r.handler, "", false); !strings.Contains(string(a.body), `data_balance{account="sub",token="ETH"} 3`) {
		t.Errorf("the change is not served:\n%s", a.body)
	}
}

// The cache gathers and encodes once per change and format, and only the
// part that changed: an unchanged generation is neither gathered nor
// encoded again, however many scrapes.
func TestDataIsEncodedOncePerChangeAndFormat(t *testing.T) {
	r := newRig(t)
	for range 5 {
		get(t, r.handler, "", true)
		get(t, r.handler, "application/openmetrics-text;version=1.0.0", false)
	}
	if r.handler.Formats() != 2 || r.handler.CachedBytes() == 0 {
		t.Errorf("%d formats, %d bytes cached; want 2 and some", r.handler.Formats(), r.handler.CachedBytes())
	}
	key := cacheKey{format: expfmt.NegotiateAccept(http.Header{}, r.handler.accepted...), gzip: true}
	e := r.handler.entries[key]
	body := func(part int) *byte { return &e.cur.Load().parts[part].segs[0].body[0] }
	changed, unchanged := body(0), body(1)
	r.tick()
	get(t, r.handler, "", true)
	if body(0) != changed || body(1) != unchanged {
		t.Error("an unchanged generation was encoded again")
	}
	// Each format's first scrape is encoded for itself, its second kept.
	if n := r.gathers.Load(); n != 4 {
		t.Errorf("the data part was gathered %d times for 11 scrapes in 2 formats, want 4", n)
	}
	r.gen.Add(1)
	r.tick()
	for range 3 {
		get(t, r.handler, "", true)
		get(t, r.handler, "application/openmetrics-text;version=1.0.0", false)
	}
	if n := r.gathers.Load(); n != 6 {
		t.Errorf("the data part was gathered %d times in all after a change, want 6: once more in each format kept", n)
	}
	if body(0) == changed {
		t.Error("the changed part was not encoded again")
	}
	if body(1) != unchanged {
		t.Error("the part that did not change was encoded again")
	}
}

// Encodings nobody asks for are released after Options.Idle.
func TestIdleFormatsAreReleased(t *testing.T) {
	r := newRig(t)
	for range 2 {
		get(t, r.handler, "", true)
		get(t, r.handler, "application/openmetrics-text;version=1.0.0", false)
		get(t, r.handler, "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited", false)
	}
	all := r.handler.CachedBytes()
	if r.handler.Formats() != 3 || all == 0 {
		t.Fatalf("%d formats, %d bytes", r.handler.Formats(), all)
	}
	r.now.Add(int64(2 * time.Minute))
	get(t, r.handler, "", true)
	if n := r.handler.Formats(); n != 1 {
		t.Errorf("%d formats kept after two idle minutes, want the one still asked for", n)
	}
	if b := r.handler.CachedBytes(); b == 0 || b >= all {
		t.Errorf("%d bytes cached, want less than the %d of three formats and more than 0", b, all)
	}
}

// Scrapes of every format run while the data changes, time passes and
// the refresher encodes it: no race, and every answer is whole (run with
// -race).
func TestConcurrentScrapesWhileTheDataChanges(t *testing.T) {
	r := newRig(t)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			r.gauge.WithLabelValues("main", "BTC").Set(float64(i))
			r.gen.Add(1)
		}
	})
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			r.now.Add(int64(10 * time.Millisecond))
			time.Sleep(time.Millisecond)
		}
	})
	var scrapes sync.WaitGroup
	for i := range 8 {
		scrapes.Go(func() {
			for j := range 30 {
				a := get(t, r.handler, accepts[(i+j)%len(accepts)], j%2 == 0)
				if fs := families(t, a); len(fs) < 1 {
					t.Errorf("empty answer")
				}
			}
		})
	}
	scrapes.Wait()
	close(stop)
	wg.Wait()
}

func TestAcceptsGzip(t *testing.T) {
	for header, want := range map[string]bool{
		"": false, "gzip": true, "gzip, deflate": true, "deflate, gzip;q=0.5": true, "gzip;q=0": false,
		"*": true, "*;q=0": false, "identity": false, "GZIP": true, "x-gzip": true, "br, *;q=0.1": true, "gzip;q=0, *": false,
	} {
		if got := acceptsGzip(header); got != want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", header, got, want)
		}
	}
}

// A name[] filter is served as promhttp serves it.
func TestNameFilterFallsBackToPromhttp(t *testing.T) {
	r := newRig(t)
	req := httptest.NewRequest(http.MethodGet, "/metrics?name[]=data_balance", nil)
	rec := httptest.NewRecorder()
	r.handler.ServeHTTP(rec, req)
	body := rec.Body.String()
	if !strings.Contains(body, "data_balance") || strings.Contains(body, "scraped_requests_total") {
		t.Errorf("filtered answer:\n%s", body)
	}
}

// stallingWriter is a client that stops reading after the header: every
// Write blocks until release is closed.
type stallingWriter struct {
	*httptest.ResponseRecorder
	writing chan struct{}
	release chan struct{}
}

func (s *stallingWriter) Write(b []byte) (int, error) {
	select {
	case s.writing <- struct{}{}:
	default:
	}
	<-s.release
	return s.ResponseRecorder.Write(b)
}

// With one encoding allowed, a client that stops reading its answer holds
// no encoding: another scrape is answered meanwhile. A scrape that waits
// for an encoding gives up with its client.
func TestMaxEncodingsHeldByNoClientWhileSending(t *testing.T) {
	reg := prometheus.NewRegistry()
	g := prometheus.NewGauge(prometheus.GaugeOpts{Name: "scraped_gauge", Help: "Per scrape."})
	reg.MustRegister(g)
	h := NewHandler(Source{PerScrape: reg, Data: func() []Part { return nil }}, Options{MaxEncodings: 1})

	stalled := &stallingWriter{ResponseRecorder: httptest.NewRecorder(), writing: make(chan struct{}, 1), release: make(chan struct{})}
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.ServeHTTP(stalled, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	}()
	<-stalled.writing
	answered := make(chan struct{})
	go func() {
		defer close(answered)
		get(t, h, "", true)
	}()
	select {
	case <-answered:
	case <-time.After(5 * time.Second):
		t.Fatal("a scrape waited for an encoding that a stalled client held")
	}
	close(stalled.release)
	<-done

	// The one encoding taken, a waiting scrape returns when its client
	// gives up.
	h.encodings <- struct{}{}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	waited := make(chan struct{})
	go func() {
		defer close(waited)
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/metrics", nil).WithContext(ctx))
	}()
	select {
	case <-waited:
	case <-time.After(5 * time.Second):
		t.Fatal("a waiting scrape did not return when its client gave up")
	}
	<-h.encodings
}

// A format asked for once is encoded for that scrape and not kept; asked
// again within Options.Idle it is kept; asked once more after Idle, it is a
// one-off again.
func TestAFormatIsKeptFromItsSecondRequest(t *testing.T) {
	r := newRig(t)
	const text = "text/plain;version=0.0.4"
	once := get(t, r.handler, text, false)
	if n := r.handler.Formats(); n != 0 {
		t.Fatalf("%d formats kept after one scrape, want 0", n)
	}
	if again := get(t, r.handler, text, false); !bytes.Equal(once.body, again.body) {
		t.Errorf("the kept format's answer differs from the one-off's:\n%s\nwant\n%s", again.body, once.body)
	}
	if n := r.handler.Formats(); n != 1 {
		t.Errorf("%d formats kept after a second scrape, want 1", n)
	}
	r.now.Add(int64(2 * time.Minute))
	get(t, r.handler, "application/openmetrics-text;version=1.0.0", false)
	r.now.Add(int64(2 * time.Minute))
	get(t, r.handler, "application/openmetrics-text;version=1.0.0", false)
	if n := r.handler.Formats(); n != 0 {
		t.Errorf("%d formats kept after the text format idled and OpenMetrics was asked for twice, once per Idle; want 0", n)
	}
}

// Prometheus' first scrape keeps its format: it comes back.
func TestPrometheusFirstScrapeKeepsItsFormat(t *testing.T) {
	r := newRig(t)
	req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
	req.Header.Set("X-Prometheus-Scrape-Timeout-Seconds", "10")
	r.handler.ServeHTTP(httptest.NewRecorder(), req)
	if n := r.handler.Formats(); n != 1 {
		t.Errorf("%d formats kept after Prometheus' first scrape, want 1", n)
	}
}
