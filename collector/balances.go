package collector

import (
	"context"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/client"
)

// BalancesAPI reads one account's token balances.
type BalancesAPI interface {
	Balances(ctx context.Context) ([]client.Balance, error)
}

// balanceGauges are the balance fields exported, one gauge each.
var balanceGauges = []struct {
	desc  *prometheus.Desc
	field func(*client.Balance) *decimal.Decimal
}{
	{balanceGauge("holding", "The account's holding of the token, in token units."),
		func(b *client.Balance) *decimal.Decimal { return b.Holding }},
	{balanceGauge("frozen", "The part of the holding frozen by open orders or withdrawals, in token units."),
		func(b *client.Balance) *decimal.Decimal { return b.Frozen }},
	{balanceGauge("available", "The part of the holding available to trade or withdraw, in token units."),
		func(b *client.Balance) *decimal.Decimal { return b.Available }},
	{balanceGauge("staked", "The part of the holding staked, in token units."),
		func(b *client.Balance) *decimal.Decimal { return b.Staked }},
	{balanceGauge("mark_price", "The exchange's mark price of the token in USDT: holding * mark_price is the holding's value."),
		func(b *client.Balance) *decimal.Decimal { return b.MarkPrice }},
}

func balanceGauge(name, help string) *prometheus.Desc {
	return prometheus.NewDesc(prometheus.BuildFQName(namespace, "balance", name),
		help+" Absent when the exchange does not send it."+refreshed, []string{"account", "token"}, nil)
}

// BalancesCollector exports each account's token balances as last polled.
// A token the exchange stops listing disappears with the next poll.
type BalancesCollector struct {
	accounts []*latest[[]client.Balance]
	changes  atomic.Uint64
}

var _ prometheus.Collector = (*BalancesCollector)(nil)

// buildBalances polls each account's balances.
func buildBalances(b *builder) (prometheus.Collector, error) {
	c := &BalancesCollector{}
	for _, a := range b.cfg.Accounts {
		l := &latest[[]client.Balance]{account: a.Name, changes: &c.changes}
		c.accounts = append(c.accounts, l)
		api := a.API
		b.poll(c, a.Name, func(ctx context.Context, _ func()) error { return l.set(api.Balances(ctx)) })
	}
	return collectorOrNil(c, len(c.accounts)), nil
}

// generation changes when an account's answer does.
func (c *BalancesCollector) generation() uint64 { return c.changes.Load() }

// Describe implements prometheus.Collector.
func (c *BalancesCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, g := range balanceGauges {
		ch <- g.desc
	}
}

// Collect implements prometheus.Collector.
func (c *BalancesCollector) Collect(ch chan<- prometheus.Metric) {
	for _, a := range c.accounts {
		balances := a.load()
		if balances == nil {
			continue
		}
		for i := range *balances {
			b := &(*balances)[i]
			for _, g := range balanceGauges {
				if v := g.field(b); v != nil {
					ch <- prometheus.MustNewConstMetric(g.desc, prometheus.GaugeValue, v.InexactFloat64(), a.account, b.Token)
				}
			}
		}
	}
}
