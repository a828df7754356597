package collector

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
)

var openOrdersDesc = prometheus.NewDesc(prometheus.BuildFQName(namespace, "", "open_orders"),
	"Open orders of the account (NEW and PARTIAL_FILLED), as the exchange counts them: a runaway bot's orders show here."+refreshed,
	[]string{"account"}, nil)

func init() { register(endpoint.Orders, buildOrders) }

// buildOrders polls each account's count of open orders.
func buildOrders(b *builder) (prometheus.Collector, error) {
	c := &perAccount[int64]{descs: []*prometheus.Desc{openOrdersDesc}, emit: func(ch chan<- prometheus.Metric, account string, n *int64) {
		ch <- prometheus.MustNewConstMetric(openOrdersDesc, prometheus.GaugeValue, float64(*n), account)
	}}
	return c.pollEach(b, c, func(a Account) readFunc[int64] {
		return func(ctx context.Context) (int64, []client.RejectedRow, error) {
			n, err := a.API.OpenOrders(ctx)
			return n, nil, err
		}
	}), nil
}
