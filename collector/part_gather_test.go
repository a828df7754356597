package collector

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"google.golang.org/protobuf/proto"
)

// registryGather is what a registry of c alone gathers.
func registryGather(t *testing.T, c prometheus.Collector) ([]*dto.MetricFamily, error) {
	t.Helper()
	reg := prometheus.NewRegistry()
	if err := reg.Register(c); err != nil {
		t.Fatal(err)
	}
	return reg.Gather()
}

func sameFamilies(t *testing.T, what string, got, want []*dto.MetricFamily) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d families, a registry %d", what, len(got), len(want))
		return
	}
	for i := range want {
		if !proto.Equal(got[i], want[i]) {
			t.Errorf("%s: family %d\n got: %v\nwant: %v", what, i, got[i], want[i])
		}
	}
}

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

// Every account part of every collector gathers as a registry of it would.
func TestGatherCollectedMatchesARegistry(t *testing.T) {
	_, e := accountsRig(t)
	series := 0
	for _, a := range e.accountParts {
		got, err := a.gather()
		if err != nil {
			t.Errorf("%s of %T: %v", a.name, a.c, err)
		}
		want, err := registryGather(t, a)
		if err != nil {
			t.Fatal(err)
		}
		sameFamilies(t, a.name, got, want)
		for _, mf := range got {
			series += len(mf.GetMetric())
		}
	}
	if series < 100 {
		t.Errorf("%d series in the account parts, want the rig's hundreds", series)
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

// What a registry refuses, gatherCollected refuses, one error each, and it
// keeps and orders the rest as a registry does.
func TestGatherCollectedRefusesAsARegistry(t *testing.T) {
	got, gotErr := gatherCollected(oddCollector{}.Collect)
	want, wantErr := registryGather(t, oddCollector{})
	sameFamilies(t, "odd collector", got, want)
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
