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

// dataPart is one collector's part of what scrapes are served (a public
// endpoint's; a per-account collector's is served per account, as
// accountPart): its generation tells the exposition handler when the part
// changed, and only then does the handler gather it (label pairs built,
// checked, sorted) and encode it again. Polls never gather, so a hundred accounts finishing
// their polls at once cost one gather per format asked for, not a hundred.
// The gathered families are not kept: the handler keeps the encodings, and
// the families of a big part cost four times their encoding.
type dataPart struct {
	reg *prometheus.Registry
	// gen, when the collector has one, changes when its snapshots do;
	// otherwise every refresh counts as a change.
	gen       func() uint64
	requested atomic.Uint64
	// split, when the collector can be gathered per account, is served
	// as a part per account instead (accountPart).
	split accountSplit
	// mu serialises gathers; polls never take it.
	mu sync.Mutex
}

// versioned is a collector that can tell when its snapshots change.
type versioned interface {
	generation() uint64
}

func newDataPart(c prometheus.Collector) *dataPart {
	reg := prometheus.NewRegistry()
	reg.MustRegister(c)
	p := &dataPart{reg: reg}
	if v, ok := c.(versioned); ok {
		p.gen = v.generation
	}
	if s, ok := c.(accountSplit); ok {
		p.split = s
	}
	return p
}

// refresh notes that the collector's snapshots may have changed (a page of
// a poll, the end of a poll).
func (p *dataPart) refresh() { p.requested.Add(1) }

// generation changes whenever the collector's families may have. Read it
// before gathering: a change during the gather shows as a new generation
// next time.
func (p *dataPart) generation() uint64 {
	if p.gen != nil {
		return p.gen()
	}
	return p.requested.Load()
}

// gather is the collector's families as of its latest snapshots.
func (p *dataPart) gather() ([]*dto.MetricFamily, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.reg.Gather()
}

// wrap refreshes after every step of progress and at the end of each poll.
func (p *dataPart) wrap(poll listPollFunc) listPollFunc {
	return func(ctx context.Context, progress func()) (leftOut, error) {
		defer p.refresh()
		return poll(ctx, func() {
			p.refresh()
			progress()
		})
	}
}

// Gatherer serves the exporter's metrics together with live's (Go, process,
// build and client metrics), every part gathered at each call. live must not
// hold the Collectors. Scrapes use Source instead, which gathers a part only
// when it changed.
func (e *Exporter) Gatherer(live prometheus.Gatherer) prometheus.Gatherer {
	return prometheus.GathererFunc(func() ([]*dto.MetricFamily, error) {
		mfs, err := live.Gather()
		errs := prometheus.MultiError{}
		errs.Append(err)
		for _, p := range e.parts {
			part, err := p.gather()
			mfs = append(mfs, part...)
			errs.Append(err)
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
// process, build and client metrics), gathered per scrape, and the data
// parts (each public collector, then a part per account and collector, the
// poll health's among them), with the generation that tells the handler
// when to gather and encode them again.
func (e *Exporter) Source(live prometheus.Gatherer) exposition.Source {
	return exposition.Source{Live: live, Data: e.data}
}
