package collector

import (
	"cmp"
	"slices"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/woox-exporter/woox_exporter/exposition"
)

// accountSplit is a collector whose metrics can be gathered one account at
// a time, each account with its own generation: every family it exports
// has the account label, first among its label names in order, so the
// exposition handler can serve a part per account (in account order) as
// one registry would serve them all (TestAccountLabelSortsFirst).
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

// namesOf is the name of each of accounts, by index, for accountNames.
func namesOf[T any](accounts []T, name func(i int) string) []string {
	names := make([]string, len(accounts))
	for i := range accounts {
		names[i] = name(i)
	}
	return names
}

// accountPart is one account's share of one per-account collector: a poll
// of the account's endpoint changes only its part, so only its part is
// gathered and encoded again, and a poll page of one endpoint does not
// re-encode the account's other endpoints.
type accountPart struct {
	name  string
	c     accountSplit
	index int
	// mu serialises gathers; polls never take it.
	mu sync.Mutex
}

// Describe implements prometheus.Collector: unchecked, as the same descs
// are in every account's part.
func (p *accountPart) Describe(chan<- *prometheus.Desc) {}

// Collect implements prometheus.Collector.
func (p *accountPart) Collect(ch chan<- prometheus.Metric) { p.c.collectAt(p.index, ch) }

// generation changes whenever the account's metrics in the collector may
// have.
func (p *accountPart) generation() uint64 { return p.c.generationAt(p.index) }

// gather gathers the part as a registry of its own would.
func (p *accountPart) gather() ([]*dto.MetricFamily, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return gatherCollected(p.Collect)
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

// splitParts divides the data parts of per-account collectors into a part
// per account and collector, sorted by account name (the order a registry
// sorts their metrics in), each account's in collector order; the other
// parts (the public endpoints) stay whole.
func splitParts(parts []*dataPart) (whole []*dataPart, accounts []*accountPart) {
	for _, p := range parts {
		if p.split == nil {
			whole = append(whole, p)
			continue
		}
		for i, name := range p.split.accountNames() {
			accounts = append(accounts, &accountPart{name: name, c: p.split, index: i})
		}
	}
	slices.SortStableFunc(accounts, func(a, b *accountPart) int { return cmp.Compare(a.name, b.name) })
	return whole, accounts
}

// data is the exporter's parts: each public collector's, then one per
// account, each with its own generation.
func (e *Exporter) data() []exposition.Part {
	parts := make([]exposition.Part, 0, len(e.wholeParts)+len(e.accountParts))
	for _, p := range e.wholeParts {
		parts = append(parts, exposition.Part{Generation: e.epoch + p.generation(), Gather: p.gather})
	}
	for _, a := range e.accountParts {
		parts = append(parts, exposition.Part{Generation: e.epoch + a.generation(), Gather: a.gather})
	}
	return parts
}
