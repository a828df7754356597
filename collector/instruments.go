package collector

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
)

var instrumentTradingDesc = prometheus.NewDesc(prometheus.BuildFQName(namespace, "instrument", "trading"),
	"1 while the exchange lists the symbol as TRADING, 0 for any other status (SUSPENDED, TESTING, or one the docs do not name): "+
		"a position on a symbol that is not trading cannot be reduced. A symbol the exchange stops listing has no series."+refreshed,
	[]string{"symbol"}, nil)

// InstrumentsAPI reads the public instrument list.
type InstrumentsAPI interface {
	Instruments(ctx context.Context) ([]client.Instrument, []client.RejectedRow, error)
}

func init() { register(endpoint.Instruments, buildInstruments) }

// buildInstruments polls the public instruments once per exporter.
func buildInstruments(b *builder) (prometheus.Collector, error) {
	var read func(context.Context) ([]client.Instrument, []client.RejectedRow, error)
	if api, ok := b.cfg.Public.(InstrumentsAPI); ok {
		read = api.Instruments
	}
	return pollPublic(b, []*prometheus.Desc{instrumentTradingDesc}, func(ch chan<- prometheus.Metric, rows []client.Instrument) {
		for _, i := range rows {
			ch <- prometheus.MustNewConstMetric(instrumentTradingDesc, prometheus.GaugeValue, boolFloat(i.Trading()), i.Symbol)
		}
	}, read), nil
}
