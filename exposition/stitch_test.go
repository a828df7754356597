package exposition

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"google.golang.org/protobuf/proto"

	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// accountsRig serves a part per account (and one public part) through the
// handler, and promhttp over one plain registry of the same collectors: the
// stitched answer must be the registry's, byte for byte.
type accountsRig struct {
	names    []string
	regs     []*prometheus.Registry
	gens     []atomic.Uint64
	gathers  []atomic.Int64
	balance  *prometheus.GaugeVec
	handler  *Handler
	plain    http.Handler
	public   *prometheus.Registry
	combined *prometheus.Registry
}

// Descs shared by every account's registry, as the collectors share them.
var (
	balanceOpts = prometheus.GaugeOpts{Name: "acct_balance", Help: "Balance \\ with \"escapes\".\nand a newline"}
	feesDesc    = prometheus.NewDesc("acct_fees_total", "Fees paid.", []string{"account", "token", "type"}, nil)
	onlySome    = prometheus.NewDesc("acct.position.dotted", "A UTF-8 name in some accounts only.", []string{"account", "symbol"}, nil)
	latencyDesc = prometheus.NewDesc("acct_latency_seconds", "A histogram per account.", []string{"account"}, nil)
	summaryDesc = prometheus.NewDesc("acct_wait_seconds", "A summary per account.", []string{"account", "quantile_source"}, nil)
	publicDesc  = prometheus.NewDesc("public_networks", "A public family.", []string{"token"}, nil)
)

// accountCollector emits one account's const metrics; some families only
// for some accounts.
type accountCollector struct {
	account string
	i       int
	value   *atomic.Int64
}

func (c accountCollector) Describe(chan<- *prometheus.Desc) {}

func (c accountCollector) Collect(ch chan<- prometheus.Metric) {
	v := float64(c.value.Load())
	ch <- prometheus.MustNewConstMetric(feesDesc, prometheus.CounterValue, v+1, c.account, "USDT", "maker")
	ch <- prometheus.MustNewConstMetric(feesDesc, prometheus.CounterValue, v+2, c.account, "BTC", "taker")
	if c.i%2 == 0 {
		ch <- prometheus.MustNewConstMetric(onlySome, prometheus.GaugeValue, v*3, c.account, "PERP_BTC_USDT")
	}
	ch <- prometheus.MustNewConstHistogram(latencyDesc, uint64(c.i+1), 1.5*float64(c.i), map[float64]uint64{0.1: 0, 1: uint64(c.i)}, c.account)
	if c.i != 1 {
		ch <- prometheus.MustNewConstSummary(summaryDesc, 3, 2.5, map[float64]float64{0.5: 1, 0.9: v}, c.account, "poll")
	}
}

func newAccountsRig(t *testing.T, names ...string) *accountsRig {
	t.Helper()
	r := &accountsRig{names: names, gens: make([]atomic.Uint64, len(names)), gathers: make([]atomic.Int64, len(names)),
		balance: prometheus.NewGaugeVec(balanceOpts, []string{"account", "token"}), public: prometheus.NewRegistry(), combined: prometheus.NewRegistry()}
	values := make([]atomic.Int64, len(names))
	for i, name := range names {
		reg := prometheus.NewRegistry()
		c := accountCollector{account: name, i: i, value: &values[i]}
		reg.MustRegister(c)
		r.combined.MustRegister(c)
		if i != 2 {
			// Every account but the third has balances: the family is
			// missing from a part in the middle.
			g := prometheus.NewGaugeVec(balanceOpts, []string{"account", "token"})
			g.WithLabelValues(name, "BTC").Set(float64(i) + 0.5)
			g.WithLabelValues(name, "ETH").Set(float64(i) + 0.25)
			reg.MustRegister(g)
			r.balance.WithLabelValues(name, "BTC").Set(float64(i) + 0.5)
			r.balance.WithLabelValues(name, "ETH").Set(float64(i) + 0.25)
		}
		r.regs = append(r.regs, reg)
	}
	r.combined.MustRegister(r.balance)
	pub := prometheus.NewConstMetric
	r.public.MustRegister(prometheus.CollectorFunc(func(ch chan<- prometheus.Metric) {
		m, _ := pub(publicDesc, prometheus.GaugeValue, 7, "BTC")
		ch <- m
	}))
	r.handler = NewHandler(Source{PerScrape: prometheus.NewRegistry(), Data: r.parts}, Options{MaxAge: time.Nanosecond})
	r.plain = promhttp.HandlerFor(prometheus.Gatherers{r.public, r.combined}, promhttp.HandlerOpts{EnableOpenMetrics: true})
	return r
}

// parts are the public part, then one per account in account order.
func (r *accountsRig) parts() []Part {
	parts := []Part{{Gather: r.public.Gather}}
	for i := range r.regs {
		parts = append(parts, Part{Generation: r.gens[i].Load(), Gather: func() ([]*dto.MetricFamily, error) {
			r.gathers[i].Add(1)
			return r.regs[i].Gather()
		}})
	}
	return parts
}

// setBalance changes one account's balance in its part and in the plain
// registry, and moves the part's generation.
func (r *accountsRig) setBalance(t *testing.T, i int, v float64) {
	t.Helper()
	g := prometheus.NewGaugeVec(balanceOpts, []string{"account", "token"})
	g.WithLabelValues(r.names[i], "BTC").Set(v)
	reg := prometheus.NewRegistry()
	reg.MustRegister(g, accountCollector{account: r.names[i], i: i, value: new(atomic.Int64)})
	r.regs[i] = reg
	r.balance.DeleteLabelValues(r.names[i], "ETH")
	r.balance.WithLabelValues(r.names[i], "BTC").Set(v)
	r.gens[i].Add(1)
}

// stitchedFormats are the formats served by stitching.
var stitchedFormats = []string{
	"",
	"text/plain;version=1.0.0;escaping=allow-utf-8",
	"application/openmetrics-text;version=1.0.0",
	"application/openmetrics-text;version=1.0.0;escaping=allow-utf-8",
	"application/openmetrics-text;version=0.0.1;escaping=dots",
	"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited",
	"application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;escaping=allow-utf-8",
}

func (r *accountsRig) checkByteEqual(t *testing.T, round string) {
	t.Helper()
	for _, accept := range append(stitchedFormats, accepts...) {
		for _, gz := range []bool{false, true} {
			got, want := get(t, r.handler, accept, gz), get(t, r.plain, accept, gz)
			if got.contentType != want.contentType || got.encoding != want.encoding {
				t.Errorf("%s %q gzip %v: %q %q, promhttp %q %q", round, accept, gz, got.contentType, got.encoding, want.contentType, want.encoding)
			}
			if !bytes.Equal(got.body, want.body) {
				t.Errorf("%s %q gzip %v: not promhttp's bytes\n got: %q\nwant: %q", round, accept, gz, got.body, want.body)
			}
		}
	}
}

// Parts of several accounts, a family missing from some of them, histograms,
// summaries, escaped help and UTF-8 names: every format is the plain
// registry's answer, byte for byte, before and after an account changes.
func TestStitchedAccountsAreByteEqualToOneRegistry(t *testing.T) {
	r := newAccountsRig(t, "alpha", "beta", "gamma", "main", "sub-1", "zeta")
	r.checkByteEqual(t, "first scrape")
	r.checkByteEqual(t, "from the cache")
	r.setBalance(t, 4, 42)
	r.checkByteEqual(t, "after one account changed")
	if a := get(t, r.handler, "", false); !strings.Contains(string(a.body), "acct_balance{account=\"sub-1\",token=\"BTC\"} 42\n") {
		t.Errorf("the change is not served:\n%s", a.body)
	}
}

// More parts to encode than parallelFrom are encoded on several
// goroutines, by a format's first kept scrape and by a refresh: every format
// is still the plain registry's answer, byte for byte, and every part is
// gathered as often as the others.
func TestPartsEncodedInParallelAreByteEqualToOneRegistry(t *testing.T) {
	var names []string
	for i := range 4 * parallelFrom {
		names = append(names, fmt.Sprintf("acct-%03d", i))
	}
	r := newAccountsRig(t, names...)
	r.handler = NewHandler(Source{PerScrape: prometheus.NewRegistry(), Data: r.parts}, Options{Workers: 4, MaxAge: time.Nanosecond})
	r.checkByteEqual(t, "first scrape")
	r.checkByteEqual(t, "kept")
	for i := range names {
		r.setBalance(t, i, float64(i)+0.75)
	}
	r.checkByteEqual(t, "after every account changed")
	// Every part changed in the same rounds, so every part was gathered
	// as often as the first: none skipped, none twice.
	for i := range names {
		if n, first := r.gathers[i].Load(), r.gathers[0].Load(); n != first || n == 0 {
			t.Errorf("part %d gathered %d times, part 0 %d", i, n, first)
			break
		}
	}
}

// A change of one account gathers and encodes that account's part again,
// and no other.
func TestOnlyTheChangedAccountIsEncodedAgain(t *testing.T) {
	r := newAccountsRig(t, "a", "b", "c", "d")
	formats := []string{"", "application/openmetrics-text;version=1.0.0", stitchedFormats[5]}
	scrapeAll := func() {
		for _, f := range formats {
			get(t, r.handler, f, false)
			get(t, r.handler, f, true)
		}
	}
	scrapeAll()
	scrapeAll()
	// Each format's first scrape is encoded for itself, its second kept.
	for i := range r.names {
		if n := r.gathers[i].Load(); n != 12 {
			t.Fatalf("account %s gathered %d times for 6 formats asked twice, want 12", r.names[i], n)
		}
	}
	r.setBalance(t, 1, 9)
	scrapeAll()
	scrapeAll()
	for i := range r.names {
		want := int64(12)
		if i == 1 {
			want = 18
		}
		if n := r.gathers[i].Load(); n != want {
			t.Errorf("account %s gathered %d times after account b changed, want %d", r.names[i], n, want)
		}
	}
	// A generation that moves with nothing changed costs a gather, and
	// nothing else changes in the answer.
	before := get(t, r.handler, "", false).body
	r.gens[0].Add(1)
	if after := get(t, r.handler, "", false).body; !bytes.Equal(before, after) {
		t.Error("an unchanged part encoded again changed the answer")
	}
}

// A family with a unit keeps protobuf's unit field after its metrics and
// OpenMetrics' # UNIT line in its header, stitched from two parts.
func TestStitchKeepsTheUnit(t *testing.T) {
	family := func(account string) *dto.MetricFamily {
		return &dto.MetricFamily{Name: proto.String("wait_seconds"), Help: proto.String("Wait."), Type: dto.MetricType_GAUGE.Enum(), Unit: proto.String("seconds"),
			Metric: []*dto.Metric{{Label: []*dto.LabelPair{{Name: proto.String("account"), Value: proto.String(account)}}, Gauge: &dto.Gauge{Value: proto.Float64(1)}}}}
	}
	whole := family("a")
	whole.Metric = append(whole.Metric, family("b").Metric...)
	for _, f := range []expfmt.Format{expfmt.NewFormat(expfmt.TypeProtoDelim), expfmt.NewFormat(expfmt.TypeOpenMetrics), expfmt.NewFormat(expfmt.TypeTextPlain)} {
		var want bytes.Buffer
		if err := expfmt.NewEncoder(&want, f).Encode(whole); err != nil {
			t.Fatal(err)
		}
		a, errA := encodeSegments([]*dto.MetricFamily{family("a")}, f, keepWhole)
		b, errB := encodeSegments([]*dto.MetricFamily{family("b")}, f, keepWhole)
		if errA != nil || errB != nil {
			t.Fatal(errA, errB)
		}
		parts := []*encodedPart{{segs: a}, {segs: b}}
		var got bytes.Buffer
		if err := (view{parts: parts, plan: newPlan(parts), proto: f.FormatType() == expfmt.TypeProtoDelim}).write(&got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%s: stitched %q, want %q", f, got.Bytes(), want.Bytes())
		}
	}
}

// promtool accepts the stitched text of several accounts: one header per
// family, metrics in order.
func TestPromtoolAcceptsStitchedAccounts(t *testing.T) {
	promtool := testsupport.Tool(t, "promtool", "prometheus")
	r := newAccountsRig(t, "a", "b", "c")
	cmd := exec.Command(promtool, "check", "metrics")
	cmd.Stdin = bytes.NewReader(get(t, r.handler, "", false).body)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("promtool check metrics: %v\n%s", err, out)
	}
}

// A name[] filter over account parts is promhttp's filtered answer: the
// family merged from every account.
func TestNameFilterOverAccountPartsIsPromhttps(t *testing.T) {
	r := newAccountsRig(t, "a", "b", "c")
	for _, accept := range []string{"", stitchedFormats[5]} {
		filtered := func(h http.Handler) []byte {
			req := httptest.NewRequest(http.MethodGet, "/metrics?name[]=acct_balance&name[]=public_networks", nil)
			req.Header.Set("Accept", accept)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			return rec.Body.Bytes()
		}
		got, want := filtered(r.handler), filtered(r.plain)
		if !bytes.Equal(got, want) || len(want) == 0 {
			t.Errorf("%q: filtered answer\n got: %q\nwant: %q", accept, got, want)
		}
	}
}

// A stored member is a gzip member of its bytes, over several deflate
// blocks when they are longer than one holds, and reads back between
// compressed members.
func TestStoredMemberReadsBack(t *testing.T) {
	for _, n := range []int{0, 1, 0xffff, 0xffff + 1, 3*0xffff + 17} {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i * 7)
		}
		stream := append(storedMember(nil, b), compress([]byte("between"))...)
		stream = storedMember(stream, b)
		zr, err := gzip.NewReader(bytes.NewReader(stream))
		if err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		got, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		want := append(append(bytes.Clone(b), "between"...), b...)
		if !bytes.Equal(got, want) {
			t.Errorf("%d bytes: read back %d bytes, want %d", n, len(got), len(want))
		}
	}
}
