package exposition

import (
	"cmp"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// Collected is one collector's metrics as a Source serves them: its
// generation tells the Handler when they changed, and only then does the
// Handler gather them (label pairs built, checked, sorted) and encode them
// again. Whoever changes the collector only calls Refresh, so a hundred
// accounts finishing their polls at once cost one gather per format asked
// for, not a hundred. The gathered families are not kept: the Handler keeps
// the encodings, and the families of a big collector cost four times their
// encoding.
type Collected struct {
	reg *prometheus.Registry
	// gen, when set, changes when the collector's metrics do; otherwise
	// every Refresh counts as a change.
	gen       func() uint64
	refreshed atomic.Uint64
	// split, when the collector is one, is served a part per account
	// instead (AccountPart).
	split Split
	// mu serialises gathers; Refresh never takes it.
	mu sync.Mutex
}

// NewCollected serves c. generation, when not nil, changes whenever c's
// metrics may have; otherwise each Refresh counts as a change. A c that is
// a Split is served a part per account.
func NewCollected(c prometheus.Collector, generation func() uint64) *Collected {
	reg := prometheus.NewRegistry()
	reg.MustRegister(c)
	p := &Collected{reg: reg, gen: generation}
	p.split, _ = c.(Split)
	return p
}

// Refresh notes that the collector's metrics may have changed (a page of a
// poll, the end of a poll).
func (p *Collected) Refresh() { p.refreshed.Add(1) }

// Generation changes whenever the collector's families may have. Read it
// before gathering: a change during the gather shows as a new generation
// next time.
func (p *Collected) Generation() uint64 {
	if p.gen != nil {
		return p.gen()
	}
	return p.refreshed.Load()
}

// Gather is the collector's families as of now, gathered by a registry.
func (p *Collected) Gather() ([]*dto.MetricFamily, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.reg.Gather()
}

// Split is a collector whose metrics can be gathered one account at a time,
// each account with its own generation. Every family it exports has the
// account label, first among its label names in order, so that its parts
// in account order are in the order a registry sorts its metrics in.
type Split interface {
	prometheus.Collector
	// AccountNames are the collector's accounts, by index.
	AccountNames() []string
	// CollectAccount exports account i's metrics.
	CollectAccount(i int, ch chan<- prometheus.Metric)
	// AccountGeneration changes whenever account i's metrics may have.
	AccountGeneration(i int) uint64
}

// AccountPart is one account's share of one Split: a change to the account
// moves its part alone, so only its part is gathered and encoded again.
type AccountPart struct {
	// Account is the account's name; Split the collector the part is of,
	// and Index the account's index there.
	Account string
	Split   Split
	Index   int
	// mu serialises gathers; changes to the account never take it.
	mu sync.Mutex
}

// Describe implements prometheus.Collector: unchecked, as the same descs
// are in every account's part.
func (p *AccountPart) Describe(chan<- *prometheus.Desc) {}

// Collect implements prometheus.Collector.
func (p *AccountPart) Collect(ch chan<- prometheus.Metric) { p.Split.CollectAccount(p.Index, ch) }

// Generation changes whenever the account's metrics in the collector may
// have.
func (p *AccountPart) Generation() uint64 { return p.Split.AccountGeneration(p.Index) }

// Gather gathers the part as a registry of its own would, without one.
func (p *AccountPart) Gather() ([]*dto.MetricFamily, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return GatherCollected(p.Collect)
}

// Parts are the data parts of a set of collectors: each Split a part per
// account and collector, sorted by account name (the order a registry
// sorts their metrics in), each account's in collector order, after a
// part of each other collector.
type Parts struct {
	collected []*Collected
	whole     []*Collected
	accounts  []*AccountPart
	// served are the parts as Data serves them, but for the generations:
	// Data is read every refresh, and a method value made per part at each
	// read would allocate.
	served []Part
	// generations are each served part's generation, in the same order.
	generations []func() uint64
}

// NewParts divides collected into parts. Their accounts are read once: a
// Split's accounts must not change after.
func NewParts(collected ...*Collected) *Parts {
	ps := &Parts{collected: collected}
	for _, c := range collected {
		if c.split == nil {
			ps.whole = append(ps.whole, c)
			continue
		}
		for i, name := range c.split.AccountNames() {
			ps.accounts = append(ps.accounts, &AccountPart{Account: name, Split: c.split, Index: i})
		}
	}
	slices.SortStableFunc(ps.accounts, func(a, b *AccountPart) int { return cmp.Compare(a.Account, b.Account) })
	for _, p := range ps.whole {
		ps.served = append(ps.served, Part{Gather: p.Gather})
		ps.generations = append(ps.generations, p.Generation)
	}
	for _, a := range ps.accounts {
		ps.served = append(ps.served, Part{Gather: a.Gather})
		ps.generations = append(ps.generations, a.Generation)
	}
	return ps
}

// Whole are the collectors served whole, in the order Data serves them.
func (ps *Parts) Whole() []*Collected { return ps.whole }

// Accounts are the account parts, in the order Data serves them.
func (ps *Parts) Accounts() []*AccountPart { return ps.accounts }

// Data is the parts for Source.Data, epoch added to every generation: parts
// that replace others in the same Handler must have generations it never
// saw.
func (ps *Parts) Data(epoch uint64) []Part {
	parts := slices.Clone(ps.served)
	for i, gen := range ps.generations {
		parts[i].Generation = epoch + gen()
	}
	return parts
}

// Gatherer gathers the collectors together with perScrape, each collector whole
// by its registry at every call: the families a promhttp handler over one
// registry of them all would serve. perScrape must not hold the collectors.
func (ps *Parts) Gatherer(perScrape prometheus.Gatherer) prometheus.Gatherer {
	return prometheus.GathererFunc(func() ([]*dto.MetricFamily, error) {
		mfs, err := perScrape.Gather()
		errs := prometheus.MultiError{}
		errs.Append(err)
		for _, p := range ps.collected {
			part, err := p.Gather()
			mfs = append(mfs, part...)
			errs.Append(err)
		}
		slices.SortFunc(mfs, func(a, b *dto.MetricFamily) int { return cmp.Compare(a.GetName(), b.GetName()) })
		mfs = slices.CompactFunc(mfs, func(a, b *dto.MetricFamily) bool {
			if a.GetName() == b.GetName() {
				errs.Append(fmt.Errorf("metric family %s gathered twice: the per-scrape gatherer must not hold the collectors", a.GetName()))
				return true
			}
			return false
		})
		return mfs, errs.MaybeUnwrap()
	})
}
