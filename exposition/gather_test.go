package exposition

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// errCount is how many errors err joins (a registry's MultiError or
// errors.Join's).
func errCount(err error) int {
	if err == nil {
		return 0
	}
	var multi prometheus.MultiError
	if errors.As(err, &multi) {
		return len(multi)
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return len(j.Unwrap())
	}
	return 1
}

// Every account part of a collector of every metric type, with units,
// constant labels and accounts out of order, gathers as a registry of it
// would.
func TestGatherCollectedMatchesARegistry(t *testing.T) {
	s := newSplit("zeta", "main", "alpha")
	got, err := GatherCollected(s.Collect)
	if err != nil {
		t.Fatal(err)
	}
	want, err := testsupport.RegistryGather(t, s)
	if err != nil {
		t.Fatal(err)
	}
	testsupport.SameFamilies(t, "the whole collector", got, want)
	for _, a := range NewParts(NewCollected(s, nil)).Accounts() {
		got, err := a.Gather()
		if err != nil {
			t.Errorf("%s: %v", a.Account, err)
		}
		want, err := testsupport.RegistryGather(t, a)
		if err != nil {
			t.Fatal(err)
		}
		testsupport.SameFamilies(t, a.Account, got, want)
	}
}

// oddCollector sends what a registry refuses or reorders.
type oddCollector struct{}

var (
	oddDesc      = prometheus.NewDesc("odd_value", "An odd value.", []string{"account", "token"}, nil)
	oddOtherHelp = prometheus.NewDesc("odd_value", "Another help.", []string{"account", "token"}, nil)
	oddUnitDesc  = prometheus.V2.NewDesc("odd_size_bytes", "A size.", prometheus.UnconstrainedLabels{"account"}, nil)
	oddBadDesc   = prometheus.NewDesc("odd bad name", "Invalid.", nil, nil)
)

func (oddCollector) Describe(chan<- *prometheus.Desc) {}

func (oddCollector) Collect(ch chan<- prometheus.Metric) {
	ch <- prometheus.MustNewConstMetric(oddDesc, prometheus.GaugeValue, 3, "b", "ETH")
	ch <- prometheus.MustNewConstMetric(oddDesc, prometheus.GaugeValue, 1, "a", "ETH")
	// The same labels again: kept once, the first.
	ch <- prometheus.MustNewConstMetric(oddDesc, prometheus.GaugeValue, 9, "b", "ETH")
	ch <- prometheus.MustNewConstMetric(oddDesc, prometheus.GaugeValue, 2, "a", "BTC")
	// Another type, another help: refused.
	ch <- prometheus.MustNewConstMetric(oddDesc, prometheus.CounterValue, 5, "c", "ETH")
	ch <- prometheus.MustNewConstMetric(oddOtherHelp, prometheus.GaugeValue, 5, "d", "ETH")
	// A write error, an invalid desc.
	ch <- prometheus.NewInvalidMetric(oddDesc, errors.New("broken"))
	ch <- prometheus.MustNewConstMetric(oddUnitDesc, prometheus.GaugeValue, 7, "a")
	ch <- prometheus.NewInvalidMetric(oddBadDesc, errors.New("bad"))
	// Timestamps order metrics of equal labels.
	at := time.UnixMilli(1700000000000)
	ch <- prometheus.NewMetricWithTimestamp(at, prometheus.MustNewConstMetric(oddUnitDesc, prometheus.GaugeValue, 8, "b"))
	ch <- prometheus.MustNewConstMetric(oddUnitDesc, prometheus.GaugeValue, 6, "c")
}

// What a registry refuses, GatherCollected refuses, one error each, and it
// keeps and orders the rest as a registry does.
func TestGatherCollectedRefusesAsARegistry(t *testing.T) {
	got, gotErr := GatherCollected(oddCollector{}.Collect)
	want, wantErr := testsupport.RegistryGather(t, oddCollector{})
	testsupport.SameFamilies(t, "odd collector", got, want)
	if errCount(gotErr) != errCount(wantErr) || errCount(wantErr) != 5 {
		t.Errorf("errors:\n got: %v\nwant: %v (5)", gotErr, wantErr)
	}
	var values []float64
	if len(got) == 2 {
		for _, m := range got[1].GetMetric() {
			values = append(values, m.GetGauge().GetValue())
		}
	}
	if !slices.Equal(values, []float64{2, 1, 3}) {
		t.Errorf("families %v, want odd_size_bytes, then odd_value's 2, 1 and 3 (a BTC, a ETH, b ETH)", got)
	}
}
