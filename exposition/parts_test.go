package exposition

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// testSplit is a Split of every metric type per account, each account's
// values and generation moved by set.
type testSplit struct {
	names                              []string
	values                             []atomic.Int64
	gens                               []atomic.Uint64
	balance, fees, latency, wait, free *prometheus.Desc
}

var _ Split = (*testSplit)(nil)

// newSplit is a testSplit of families named prefix_*, with accounts in the
// order given.
func newSplit(prefix string, names ...string) *testSplit {
	zone := prometheus.Labels{"zone": "eu"}
	return &testSplit{names: names, values: make([]atomic.Int64, len(names)), gens: make([]atomic.Uint64, len(names)),
		balance: prometheus.NewDesc(prefix+"_balance", "Balance \\ with \"escapes\".\nand a newline", []string{"account", "token"}, zone),
		fees:    prometheus.NewDesc(prefix+"_fees_total", "Fees paid.", []string{"account", "token", "type"}, nil),
		latency: prometheus.NewDesc(prefix+"_latency_seconds", "A histogram.", []string{"account"}, nil),
		wait:    prometheus.NewDesc(prefix+"_wait_seconds", "A summary.", []string{"account"}, nil),
		free:    prometheus.NewDesc(prefix+"_free", "Untyped.", []string{"account"}, nil)}
}

func (s *testSplit) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{s.balance, s.fees, s.latency, s.wait, s.free} {
		ch <- d
	}
}

func (s *testSplit) Collect(ch chan<- prometheus.Metric) {
	for i := range s.names {
		s.CollectAccount(i, ch)
	}
}

func (s *testSplit) AccountNames() []string { return s.names }

func (s *testSplit) CollectAccount(i int, ch chan<- prometheus.Metric) {
	a, v := s.names[i], float64(s.values[i].Load())
	// Out of label order: the gather sorts.
	ch <- prometheus.MustNewConstMetric(s.balance, prometheus.GaugeValue, v+2, a, "ETH")
	ch <- prometheus.MustNewConstMetric(s.balance, prometheus.GaugeValue, v+1, a, "BTC")
	ch <- prometheus.MustNewConstMetric(s.fees, prometheus.CounterValue, v+3, a, "USDT", "maker")
	if i%2 == 0 {
		ch <- prometheus.MustNewConstMetric(s.free, prometheus.UntypedValue, v, a)
	}
	ch <- prometheus.MustNewConstHistogram(s.latency, uint64(i+1), 1.5*float64(i), map[float64]uint64{0.1: 0, 1: uint64(i)}, a)
	ch <- prometheus.MustNewConstSummary(s.wait, 3, 2.5, map[float64]float64{0.5: 1, 0.9: v}, a)
}

func (s *testSplit) AccountGeneration(i int) uint64 { return s.gens[i].Load() }

// set changes account i's values and moves its generation.
func (s *testSplit) set(i int, v int64) {
	s.values[i].Store(v)
	s.gens[i].Add(1)
}

// publicDesc's collector is served whole.
var public = prometheus.CollectorFunc(func(ch chan<- prometheus.Metric) {
	ch <- prometheus.MustNewConstMetric(publicDesc, prometheus.GaugeValue, 7, "BTC")
})

// A whole collector and two Splits with accounts out of order, some in one
// Split only, served in parts, are what promhttp serves from one registry
// of them all, byte for byte, in every format, before and after an account
// changes.
func TestPartsServeWhatOneRegistryServes(t *testing.T) {
	a, b := newSplit("acct", "zeta", "main", "alpha"), newSplit("pay", "main", "beta")
	ps := NewParts(NewCollected(a, nil), NewCollected(public, nil), NewCollected(b, nil))
	h := NewHandler(Source{PerScrape: prometheus.NewRegistry(), Data: func() []Part { return ps.Data(0) }}, Options{MaxAge: time.Nanosecond})
	plain := promhttp.HandlerFor(ps.Gatherer(prometheus.NewRegistry()), promhttp.HandlerOpts{EnableOpenMetrics: true})
	check := func(round string) {
		t.Helper()
		for _, accept := range append(stitchedFormats, accepts...) {
			for _, gz := range []bool{false, true} {
				if got, want := get(t, h, accept, gz), get(t, plain, accept, gz); string(got.body) != string(want.body) {
					t.Errorf("%s %q gzip %v: not promhttp's bytes\n got: %q\nwant: %q", round, accept, gz, got.body, want.body)
				}
			}
		}
	}
	check("first scrape")
	check("kept")
	a.set(1, 40)
	check("after main changed")
	if body := string(get(t, h, "", false).body); !strings.Contains(body, `acct_balance{account="main",token="BTC",zone="eu"} 41`) {
		t.Errorf("the change is not served:\n%s", body)
	}
}

// The whole collectors come first, then the account parts by account name,
// each account's in collector order; Data adds its epoch to every
// generation.
func TestPartsOrderAccountsByName(t *testing.T) {
	a, b := newSplit("acct", "zeta", "main", "alpha"), newSplit("pay", "main", "beta")
	pub := NewCollected(public, nil)
	ps := NewParts(NewCollected(a, nil), pub, NewCollected(b, nil))
	if w := ps.Whole(); len(w) != 1 || w[0] != pub {
		t.Errorf("whole parts %v, want the public collector's", w)
	}
	var got []string
	for _, p := range ps.Accounts() {
		got = append(got, p.Account+"/"+map[Split]string{a: "acct", b: "pay"}[p.Split])
	}
	if want := "alpha/acct beta/pay main/acct main/pay zeta/acct"; strings.Join(got, " ") != want {
		t.Errorf("account parts %q, want %q", strings.Join(got, " "), want)
	}
	pub.Refresh()
	a.set(2, 1)
	data := ps.Data(1 << 48)
	if len(data) != 6 || data[0].Generation != 1<<48+1 || data[1].Generation != 1<<48+1 || data[2].Generation != 1<<48 {
		t.Errorf("%d parts, generations %d, %d, %d; want 6, and the epoch plus 1 (public, alpha) and 0 (beta)",
			len(data), data[0].Generation, data[1].Generation, data[2].Generation)
	}
}

// A collector without generations of its own moves at every Refresh; one
// with them moves with them alone; an account part with its account alone.
func TestAPartMovesWithItsOwnGeneration(t *testing.T) {
	refreshed := NewCollected(public, nil)
	before := refreshed.Generation()
	refreshed.Refresh()
	if refreshed.Generation() == before {
		t.Error("a Refresh did not move a collector without generations")
	}
	var gen atomic.Uint64
	own := NewCollected(public, gen.Load)
	own.Refresh()
	if own.Generation() != 0 {
		t.Error("a Refresh moved a collector with generations of its own")
	}
	gen.Add(1)
	if own.Generation() != 1 {
		t.Error("the collector's own generation is not the part's")
	}
	s := newSplit("acct", "alpha", "beta")
	accounts := NewParts(NewCollected(s, nil)).Accounts()
	s.set(1, 5)
	if accounts[0].Generation() != 0 || accounts[1].Generation() != 1 {
		t.Errorf("after beta changed, generations %d (alpha) and %d (beta)", accounts[0].Generation(), accounts[1].Generation())
	}
}

func TestGathererRefusesAPerScrapeGathererHoldingTheCollectors(t *testing.T) {
	perScrape := prometheus.NewRegistry()
	perScrape.MustRegister(public)
	if _, err := NewParts(NewCollected(public, nil)).Gatherer(perScrape).Gather(); err == nil || !strings.Contains(err.Error(), "gathered twice") {
		t.Errorf("err = %v, want a family gathered twice", err)
	}
}
