package collector

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/woox-exporter/woox_exporter/exposition"
)

// pregathered holds what one collector exported after its latest poll,
// already gathered (label pairs built, checked, sorted), so that a scrape
// only encodes it: building, checking and sorting thousands of const
// metrics on every scrape costs more than encoding them.
type pregathered struct {
	reg *prometheus.Registry
	// mu serialises refreshes by the pollers that share the collector (one
	// per account), so the last stored result holds every account's latest
	// snapshot. Scrapes never take it.
	mu   sync.Mutex
	last atomic.Pointer[gatherResult]
	// gen, when the collector has one, tells whether its snapshots changed
	// since lastGen was gathered.
	gen     func() uint64
	lastGen uint64
	// changed counts the results stored: the generation of this part of
	// the exporter's data.
	changed atomic.Uint64
}

// versioned is a collector that can tell when its snapshots change.
type versioned interface {
	generation() uint64
}

type gatherResult struct {
	mfs []*dto.MetricFamily
	err error
}

func newPregathered(c prometheus.Collector) *pregathered {
	reg := prometheus.NewRegistry()
	reg.MustRegister(c)
	p := &pregathered{reg: reg}
	if v, ok := c.(versioned); ok {
		p.gen = v.generation
	}
	return p
}

// refresh gathers the collector from its current snapshots, unless they
// did not change since the last gather. It must run once before the first
// scrape, and runs after each page of a poll and at the end of every poll.
func (p *pregathered) refresh() {
	p.mu.Lock()
	defer p.mu.Unlock()
	var gen uint64
	if p.gen != nil {
		// Read before gathering: a change during the gather shows next time.
		gen = p.gen()
		if p.last.Load() != nil && gen == p.lastGen {
			return
		}
	}
	mfs, err := p.reg.Gather()
	p.last.Store(&gatherResult{mfs: mfs, err: err})
	p.lastGen = gen
	p.changed.Add(1)
}

// wrap refreshes after every step of progress and at the end of each poll.
func (p *pregathered) wrap(poll pollFunc) pollFunc {
	return func(ctx context.Context, progress func()) error {
		defer p.refresh()
		return poll(ctx, func() {
			p.refresh()
			progress()
		})
	}
}

// Gatherer serves the exporter's metrics together with live's (Go, process,
// build and client metrics). The poll health metrics are gathered at scrape
// time; the token network, API key and token history families are served as
// gathered when their poll last made progress. live must not hold the
// Collectors. The returned families are shared between scrapes: read only.
func (e *Exporter) Gatherer(live prometheus.Gatherer) prometheus.Gatherer {
	return prometheus.GathererFunc(func() ([]*dto.MetricFamily, error) {
		mfs, err := prometheus.Gatherers{live, e.healthReg}.Gather()
		errs := prometheus.MultiError{}
		errs.Append(err)
		for _, p := range e.pregathered {
			r := p.last.Load()
			mfs = append(mfs, r.mfs...)
			errs.Append(r.err)
		}
		slices.SortFunc(mfs, func(a, b *dto.MetricFamily) int { return cmp.Compare(a.GetName(), b.GetName()) })
		mfs = slices.CompactFunc(mfs, func(a, b *dto.MetricFamily) bool {
			if a.GetName() == b.GetName() {
				errs.Append(fmt.Errorf("metric family %s gathered twice: the live gatherer must not hold the exporter's collectors", a.GetName()))
				return true
			}
			return false
		})
		return mfs, errs.MaybeUnwrap()
	})
}

// Source is what the exposition handler serves: live's families (Go,
// process, build and client metrics) and the poll health, gathered per
// scrape, and the data families as gathered after their polls, with the
// generation that tells the handler when to encode them again.
func (e *Exporter) Source(live prometheus.Gatherer) exposition.Source {
	return exposition.Source{Live: prometheus.Gatherers{live, e.healthReg}, Data: e.data}
}

// data is the pregathered families, a part per collector with its own
// generation, read first: a poll that stores a result while the families
// are read shows as a new generation next time.
func (e *Exporter) data() []exposition.Part {
	parts := make([]exposition.Part, len(e.pregathered))
	for i, p := range e.pregathered {
		gen := p.changed.Load()
		r := p.last.Load()
		parts[i] = exposition.Part{Families: r.mfs, Generation: gen, Err: r.err}
	}
	return parts
}
