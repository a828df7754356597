package collector

import (
	"cmp"
	"context"
	"slices"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
)

var openAlgoOrdersDesc = prometheus.NewDesc(prometheus.BuildFQName(namespace, "", "open_algo_orders"),
	"Open algo orders of the account (stops, take-profits, trailing stops) by symbol and algo type."+refreshed,
	[]string{"account", "symbol", "algo_type"}, nil)

// algoOrderCount is how many open algo orders of one type the account has on one symbol.
type algoOrderCount struct {
	symbol, algoType string
	n                int
}

func init() { register(endpoint.AlgoOrders, buildAlgoOrders) }

// buildAlgoOrders polls each account's open algo orders and exports their
// count by symbol and type, within the series cap.
func buildAlgoOrders(b *builder) (prometheus.Collector, error) {
	c := &perAccount[[]algoOrderCount]{descs: []*prometheus.Desc{openAlgoOrdersDesc}, emit: func(ch chan<- prometheus.Metric, account string, counts *[]algoOrderCount) {
		for _, n := range *counts {
			ch <- prometheus.MustNewConstMetric(openAlgoOrdersDesc, prometheus.GaugeValue, float64(n.n), account, n.symbol, n.algoType)
		}
	}}
	return c.pollEach(b, c, func(a Account) readFunc[[]algoOrderCount] {
		sc := b.seriesCap(a.Name)
		return func(ctx context.Context) ([]algoOrderCount, []client.RejectedRow, error) {
			rows, rejected, err := a.API.OpenAlgoOrders(ctx)
			return capRows(sc, countAlgoOrders(rows)), rejected, err
		}
	}), nil
}

// countAlgoOrders counts orders by symbol and type, in that order.
func countAlgoOrders(orders []client.AlgoOrder) []algoOrderCount {
	var counts []algoOrderCount
	for _, o := range orders {
		i, found := slices.BinarySearchFunc(counts, o, func(c algoOrderCount, o client.AlgoOrder) int {
			return cmp.Or(cmp.Compare(c.symbol, o.Symbol), cmp.Compare(c.algoType, o.AlgoType))
		})
		if !found {
			counts = slices.Insert(counts, i, algoOrderCount{symbol: o.Symbol, algoType: o.AlgoType})
		}
		counts[i].n++
	}
	return counts
}
