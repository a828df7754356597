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

// pregathered holds what one collector exported, gathered (label pairs
// built, checked, sorted) once per change rather than per scrape: a poll
// only notes that it stored new snapshots (refresh), and the next scrape
// that wants the families gathers them (current). Polls never gather, so
// a hundred accounts finishing their polls at once cost one gather, not a
// hundred.
type pregathered struct {
	reg *prometheus.Registry
	// gen, when the collector has one, tells whether its snapshots changed
	// since lastGen was gathered; otherwise every refresh counts as a
	// change.
	gen       func() uint64
	requested atomic.Uint64
	// mu serialises gathers; polls never take it.
	mu                     sync.Mutex
	last                   atomic.Pointer[gatherResult]
	lastGen, lastRequested uint64
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

// refresh notes that the collector's snapshots may have changed (a page of
// a poll, the end of a poll).
func (p *pregathered) refresh() { p.requested.Add(1) }

// current is the collector's families as of its latest snapshots,
// gathered now if they changed since the last gather.
func (p *pregathered) current() *gatherResult {
	p.mu.Lock()
	defer p.mu.Unlock()
	// Read before gathering: a change during the gather shows next time.
	req := p.requested.Load()
	var gen uint64
	last := p.last.Load()
	fresh := last != nil && req == p.lastRequested
	if p.gen != nil {
		gen = p.gen()
		fresh = last != nil && gen == p.lastGen
	}
	if fresh {
		p.lastRequested = req
		return last
	}
	mfs, err := p.reg.Gather()
	r := &gatherResult{mfs: mfs, err: err}
	p.last.Store(r)
	p.lastGen, p.lastRequested = gen, req
	p.changed.Add(1)
	return r
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
			r := p.current()
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
	return exposition.Source{Live: prometheus.GathererFunc(func() ([]*dto.MetricFamily, error) {
		mfs, err := live.Gather()
		return append(mfs, e.health.gather(e)...), err
	}), Data: e.data}
}

// healthCache is the poll health as gathered after the latest finished
// poll: it is encoded on every scrape, but gathered (thousands of const
// metrics with hundreds of accounts) only when a poll finished since.
type healthCache struct {
	mu  sync.Mutex
	gen uint64
	mfs []*dto.MetricFamily
	ok  bool
}

func (h *healthCache) gather(e *Exporter) []*dto.MetricFamily {
	h.mu.Lock()
	defer h.mu.Unlock()
	gen := e.pollsFinished.Load()
	if h.ok && gen == h.gen {
		return h.mfs
	}
	mfs, err := e.healthReg.Gather()
	if err != nil {
		// Const metrics of fixed shape: a failure is a bug; serve the last.
		return h.mfs
	}
	h.mfs, h.gen, h.ok = mfs, gen, true
	return mfs
}

// data is the pregathered families, a part per collector with its own
// generation, read first: a poll that stores a result while the families
// are read shows as a new generation next time.
func (e *Exporter) data() []exposition.Part {
	parts := make([]exposition.Part, len(e.pregathered))
	for i, p := range e.pregathered {
		r := p.current()
		parts[i] = exposition.Part{Families: r.mfs, Generation: p.changed.Load(), Err: r.err}
	}
	return parts
}
