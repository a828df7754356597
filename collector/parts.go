package collector

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/exposition"
)

// accountSplit is a collector whose metrics can be gathered one account at
// a time, each account with its own generation: every family it exports
// has the account label, first among its label names in order, so the
// exposition handler can serve a part per account (in account order) as
// one registry would serve them all (TestAccountLabelSortsFirst). It is
// exposition.Split under this package's unexported names; split adapts it.
type accountSplit interface {
	prometheus.Collector
	// accountNames are the collector's accounts, by index.
	accountNames() []string
	// collectAt exports account i's metrics.
	collectAt(i int, ch chan<- prometheus.Metric)
	// generationAt changes whenever account i's metrics may have.
	generationAt(i int) uint64
}

var (
	_ accountSplit = (*perAccount[struct{}])(nil)
	_ accountSplit = (*BalancesCollector)(nil)
	_ accountSplit = (*WalletCollector)(nil)
	_ accountSplit = (*CredentialsCollector)(nil)
	_ accountSplit = (*TokenHistoryCollector)(nil)
	_ accountSplit = (*TransferHistoryCollector)(nil)
)

// split serves an accountSplit as an exposition.Split.
type split struct{ accountSplit }

var _ exposition.Split = split{}

func (s split) AccountNames() []string                            { return s.accountNames() }
func (s split) CollectAccount(i int, ch chan<- prometheus.Metric) { s.collectAt(i, ch) }
func (s split) AccountGeneration(i int) uint64                    { return s.generationAt(i) }

// namesOf is the name of each of accounts, by index, for accountNames.
func namesOf[T any](accounts []T, name func(i int) string) []string {
	names := make([]string, len(accounts))
	for i := range accounts {
		names[i] = name(i)
	}
	return names
}

// versioned is a collector that can tell when its snapshots change.
type versioned interface {
	generation() uint64
}

// newDataPart serves c to scrapes: a part per account when it is an
// accountSplit, with its own generation when it keeps one, otherwise a new
// generation at every refresh.
func newDataPart(c prometheus.Collector) *exposition.Collected {
	var gen func() uint64
	if v, ok := c.(versioned); ok {
		gen = v.generation
	}
	if s, ok := c.(accountSplit); ok {
		c = split{s}
	}
	return exposition.NewCollected(c, gen)
}

// refreshing refreshes part after every step of progress of poll and at the
// end of each poll.
func refreshing(part *exposition.Collected, poll listPollFunc) listPollFunc {
	return func(ctx context.Context, progress func()) (leftOut, error) {
		defer part.Refresh()
		return poll(ctx, func() {
			part.Refresh()
			progress()
		})
	}
}

// pairedSplit serves two per-account collectors that move together as one
// part per account: the poll times and the request counters both move at
// every poll, and after a pause a thousand accounts' parts of both are
// encoded again; as one part each costs one gather and encoding, not two.
type pairedSplit struct {
	a, b  accountSplit
	names []string
	// ai and bi are each account's index in a and in b, -1 when it has
	// none there.
	ai, bi []int
}

var _ accountSplit = (*pairedSplit)(nil)

// pairSplits pairs a's and b's accounts by name, in a's order, then b's
// accounts a lacks.
func pairSplits(a, b accountSplit) *pairedSplit {
	p := &pairedSplit{a: a, b: b}
	index := map[string]int{}
	at := func(name string) int {
		i, ok := index[name]
		if !ok {
			i = len(p.names)
			index[name] = i
			p.names, p.ai, p.bi = append(p.names, name), append(p.ai, -1), append(p.bi, -1)
		}
		return i
	}
	for i, name := range a.accountNames() {
		p.ai[at(name)] = i
	}
	for i, name := range b.accountNames() {
		p.bi[at(name)] = i
	}
	return p
}

// Describe implements prometheus.Collector.
func (p *pairedSplit) Describe(ch chan<- *prometheus.Desc) {
	p.a.Describe(ch)
	p.b.Describe(ch)
}

// Collect implements prometheus.Collector.
func (p *pairedSplit) Collect(ch chan<- prometheus.Metric) {
	p.a.Collect(ch)
	p.b.Collect(ch)
}

// accountNames implements accountSplit.
func (p *pairedSplit) accountNames() []string { return p.names }

// collectAt implements accountSplit.
func (p *pairedSplit) collectAt(i int, ch chan<- prometheus.Metric) {
	if j := p.ai[i]; j >= 0 {
		p.a.collectAt(j, ch)
	}
	if j := p.bi[i]; j >= 0 {
		p.b.collectAt(j, ch)
	}
}

// generationAt implements accountSplit: the sum of the two, each of which
// only grows.
func (p *pairedSplit) generationAt(i int) uint64 {
	var g uint64
	if j := p.ai[i]; j >= 0 {
		g += p.a.generationAt(j)
	}
	if j := p.bi[i]; j >= 0 {
		g += p.b.generationAt(j)
	}
	return g
}

// data is the exporter's parts: each public collector's, then one per
// account and collector, each with its own generation.
func (e *Exporter) data() []exposition.Part { return e.served.Data(e.epoch) }

// Gatherer serves the exporter's metrics together with perScrape's (Go, process,
// build and client metrics), every collector gathered at each call. perScrape
// must not hold the Collectors. Scrapes use Source instead, which gathers a
// part only when it changed.
func (e *Exporter) Gatherer(perScrape prometheus.Gatherer) prometheus.Gatherer {
	return e.served.Gatherer(perScrape)
}

// Source is what the exposition handler serves: perScrape's families (Go,
// process, build and client metrics), gathered per scrape, and the data
// parts (each public collector, then a part per account and collector, the
// poll health's among them), with the generation that tells the handler
// when to gather and encode them again.
func (e *Exporter) Source(perScrape prometheus.Gatherer) exposition.Source {
	return exposition.Source{PerScrape: perScrape, Data: e.data}
}
