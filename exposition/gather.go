package exposition

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// GatherCollected gathers what collect sends as a registry gathers an
// unchecked collector (TestGatherCollectedMatchesARegistry): families sorted
// by name, each metric's type that of its family's first, metrics sorted by
// label values, a metric collected twice kept once (the first), and an
// error for each metric dropped. It skips what a registry costs per gather
// (a registration, two channels of a thousand metrics, a hash per metric),
// which made it most of a small part's encoding.
func GatherCollected(collect func(chan<- prometheus.Metric)) ([]*dto.MetricFamily, error) {
	ch := make(chan prometheus.Metric, 32)
	go func() {
		defer close(ch)
		collect(ch)
	}()
	var (
		families []*dto.MetricFamily
		byName   = map[string]*dto.MetricFamily{}
		errs     []error
	)
	for m := range ch {
		head, err := familyHeadOf(m)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		pb := &dto.Metric{}
		if err := m.Write(pb); err != nil {
			errs = append(errs, fmt.Errorf("error collecting metric %v: %w", m.Desc(), err))
			continue
		}
		t, ok := metricType(pb)
		if !ok {
			errs = append(errs, fmt.Errorf("empty metric collected: %s", pb))
			continue
		}
		mf := byName[head.name]
		switch {
		case mf == nil:
			mf = &dto.MetricFamily{Name: &head.name, Help: &head.help, Type: t.Enum()}
			if head.unit != "" {
				mf.Unit = &head.unit
			}
			byName[head.name] = mf
			families = append(families, mf)
		case mf.GetHelp() != head.help:
			errs = append(errs, fmt.Errorf("collected metric %s %s has help %q but should have %q", head.name, pb, head.help, mf.GetHelp()))
			continue
		case mf.GetType() != t:
			errs = append(errs, fmt.Errorf("collected metric %s %s should be a %s", head.name, pb, mf.GetType()))
			continue
		}
		if err := checkLabelValues(head.name, pb); err != nil {
			errs = append(errs, err)
			continue
		}
		mf.Metric = append(mf.Metric, pb)
	}
	slices.SortFunc(families, func(a, b *dto.MetricFamily) int { return cmp.Compare(a.GetName(), b.GetName()) })
	for _, mf := range families {
		slices.SortStableFunc(mf.Metric, compareMetrics)
		mf.Metric = slices.CompactFunc(mf.Metric, func(later, first *dto.Metric) bool {
			if sameLabels(later, first) {
				errs = append(errs, fmt.Errorf("collected metric %s %s was collected before with the same name and label values", mf.GetName(), later))
				return true
			}
			return false
		})
	}
	return families, errors.Join(errs...)
}

// familyHead is what a family takes from its metrics' Desc.
type familyHead struct {
	name, help, unit string
}

// familyHeads caches each Desc's family head: a Desc shows its name and help
// only to a registry, so each is learnt once, from a registry's gather of
// one of its metrics. Descs are made with their collectors, so the cache
// holds a few per collector and account.
var familyHeads sync.Map // *prometheus.Desc -> familyHead

func familyHeadOf(m prometheus.Metric) (familyHead, error) {
	d := m.Desc()
	if h, ok := familyHeads.Load(d); ok {
		return h.(familyHead), nil
	}
	reg := prometheus.NewRegistry()
	if err := reg.Register(oneMetric{m}); err != nil {
		return familyHead{}, err
	}
	mfs, err := reg.Gather()
	if err != nil {
		return familyHead{}, err
	}
	if len(mfs) != 1 {
		return familyHead{}, fmt.Errorf("metric %v gathered as %d families", d, len(mfs))
	}
	h := familyHead{name: mfs[0].GetName(), help: mfs[0].GetHelp(), unit: mfs[0].GetUnit()}
	familyHeads.Store(d, h)
	return h, nil
}

// oneMetric collects one metric, unchecked.
type oneMetric struct{ m prometheus.Metric }

func (oneMetric) Describe(chan<- *prometheus.Desc)      {}
func (o oneMetric) Collect(ch chan<- prometheus.Metric) { ch <- o.m }

// metricType is the type of the value pb holds.
func metricType(pb *dto.Metric) (dto.MetricType, bool) {
	switch {
	case pb.Gauge != nil:
		return dto.MetricType_GAUGE, true
	case pb.Counter != nil:
		return dto.MetricType_COUNTER, true
	case pb.Summary != nil:
		return dto.MetricType_SUMMARY, true
	case pb.Untyped != nil:
		return dto.MetricType_UNTYPED, true
	case pb.Histogram != nil:
		return dto.MetricType_HISTOGRAM, true
	}
	return 0, false
}

// checkLabelValues refuses a label value that is not UTF-8, as a registry
// does.
func checkLabelValues(name string, pb *dto.Metric) error {
	for _, lp := range pb.GetLabel() {
		if !utf8.ValidString(lp.GetValue()) {
			return fmt.Errorf("collected metric %q { %s} has a label named %q whose value is not utf8: %#v", name, pb, lp.GetName(), lp.GetValue())
		}
	}
	return nil
}

// compareMetrics orders metrics as a registry does: by number of labels,
// then label values in order, then timestamp (none last).
func compareMetrics(a, b *dto.Metric) int {
	if c := cmp.Compare(len(a.Label), len(b.Label)); c != 0 {
		return c
	}
	for i, lp := range a.Label {
		if c := cmp.Compare(lp.GetValue(), b.Label[i].GetValue()); c != 0 {
			return c
		}
	}
	switch {
	case a.TimestampMs == nil && b.TimestampMs == nil:
		return 0
	case a.TimestampMs == nil:
		return 1
	case b.TimestampMs == nil:
		return -1
	}
	return cmp.Compare(a.GetTimestampMs(), b.GetTimestampMs())
}

// sameLabels reports whether a and b have the same label names and values.
func sameLabels(a, b *dto.Metric) bool {
	return slices.EqualFunc(a.Label, b.Label, func(x, y *dto.LabelPair) bool {
		return x.GetName() == y.GetName() && x.GetValue() == y.GetValue()
	})
}
