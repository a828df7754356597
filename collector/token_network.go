package collector

import (
	"context"
	"slices"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
)

var (
	tokenNetworkLabels = []string{"token", "network", "protocol"}

	tokenNetworkInfoDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "token_network", "info"),
		"A network a token can be deposited and withdrawn on, with its display name; always 1."+refreshed,
		[]string{"token", "network", "protocol", "name"}, nil)

	// tokenNetworkMetrics are the numeric fields of a token network row.
	tokenNetworkMetrics = []struct {
		desc  *prometheus.Desc
		value func(client.TokenNetwork) float64
	}{
		{
			prometheus.NewDesc(prometheus.BuildFQName(namespace, "token_network", "withdrawal_fee"),
				"Fee of a withdrawal on the network, in token units."+refreshed, tokenNetworkLabels, nil),
			func(n client.TokenNetwork) float64 { return n.WithdrawalFee.InexactFloat64() },
		},
		{
			prometheus.NewDesc(prometheus.BuildFQName(namespace, "token_network", "minimum_withdrawal"),
				"Smallest withdrawal on the network, in token units."+refreshed, tokenNetworkLabels, nil),
			func(n client.TokenNetwork) float64 { return n.MinimumWithdrawal.InexactFloat64() },
		},
		{
			prometheus.NewDesc(prometheus.BuildFQName(namespace, "token_network", "deposit_enabled"),
				"Whether deposits on the network are enabled (1) or not (0)."+refreshed, tokenNetworkLabels, nil),
			func(n client.TokenNetwork) float64 { return boolFloat(n.AllowDeposit) },
		},
		{
			prometheus.NewDesc(prometheus.BuildFQName(namespace, "token_network", "withdrawal_enabled"),
				"Whether withdrawals on the network are enabled (1) or not (0)."+refreshed, tokenNetworkLabels, nil),
			func(n client.TokenNetwork) float64 { return boolFloat(n.AllowWithdraw) },
		},
	}
)

// TokenNetworkAPI reads the public token network list, the rows read and
// the rows that could not be.
type TokenNetworkAPI interface {
	TokenNetworks(ctx context.Context) ([]client.TokenNetwork, []client.RejectedRow, error)
}

// TokenNetworkCollector exports the exchange's public token network list as
// last polled.
type TokenNetworkCollector struct {
	api  TokenNetworkAPI
	rows atomic.Pointer[[]client.TokenNetwork]
	// index, when set, is given every new list.
	index *tokenNetworkIndex
	cap   *seriesCap
	// changes counts the polls whose rows differed from the previous ones.
	changes atomic.Uint64
}

var _ prometheus.Collector = (*TokenNetworkCollector)(nil)

func newTokenNetworkCollector(api TokenNetworkAPI, index *tokenNetworkIndex, sc *seriesCap) *TokenNetworkCollector {
	return &TokenNetworkCollector{api: api, index: index, cap: sc}
}

func (c *TokenNetworkCollector) poll(ctx context.Context, _ func()) (leftOut, error) {
	rows, rejected, err := c.api.TokenNetworks(ctx)
	if err != nil {
		if c.index != nil {
			// The wallets waiting for a first list wait no longer.
			c.index.polled()
		}
		return leftOut{}, err
	}
	rows = capRows(c.cap, dedupeTokenNetworks(rows))
	if old := c.rows.Load(); old == nil || !slices.EqualFunc(*old, rows, sameTokenNetwork) {
		c.rows.Store(&rows)
		if c.index != nil {
			c.index.store(rows)
		}
		c.changes.Add(1)
	}
	return leftOut{rows: rejected}, nil
}

// generation changes when a poll brought different rows: the list rarely
// changes, and regathering its ~5,000 series after every poll would compete
// with scrapes for the CPU.
func (c *TokenNetworkCollector) generation() uint64 { return c.changes.Load() }

func sameTokenNetwork(a, b client.TokenNetwork) bool {
	return a.Token == b.Token && a.Network == b.Network && a.Protocol == b.Protocol && a.Name == b.Name &&
		a.MinimumWithdrawal.Equal(b.MinimumWithdrawal) && a.WithdrawalFee.Equal(b.WithdrawalFee) &&
		a.AllowDeposit == b.AllowDeposit && a.AllowWithdraw == b.AllowWithdraw
}

// dedupeTokenNetworks keeps the first row of each (token, network, protocol):
// the exchange has been seen to repeat rows, and two rows with the same
// labels would fail the whole scrape.
func dedupeTokenNetworks(rows []client.TokenNetwork) []client.TokenNetwork {
	type id struct{ token, network, protocol string }
	seen := make(map[id]bool, len(rows))
	out := make([]client.TokenNetwork, 0, len(rows))
	for _, r := range rows {
		k := id{r.Token, r.Network, r.Protocol}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, r)
	}
	return out
}

// Describe implements prometheus.Collector.
func (c *TokenNetworkCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- tokenNetworkInfoDesc
	for _, m := range tokenNetworkMetrics {
		ch <- m.desc
	}
}

// Collect implements prometheus.Collector.
func (c *TokenNetworkCollector) Collect(ch chan<- prometheus.Metric) {
	rows := c.rows.Load()
	if rows == nil {
		return
	}
	for _, r := range *rows {
		ch <- prometheus.MustNewConstMetric(tokenNetworkInfoDesc, prometheus.GaugeValue, 1, r.Token, r.Network, r.Protocol, r.Name)
		for _, m := range tokenNetworkMetrics {
			ch <- prometheus.MustNewConstMetric(m.desc, prometheus.GaugeValue, m.value(r), r.Token, r.Network, r.Protocol)
		}
	}
}

func init() { register(endpoint.TokenNetwork, buildTokenNetwork) }

// buildTokenNetwork polls the public token networks once per exporter.
func buildTokenNetwork(b *builder) (prometheus.Collector, error) {
	if b.cfg.Public == nil {
		return nil, nil
	}
	c := newTokenNetworkCollector(b.cfg.Public, &b.e.networks, b.seriesCap(""))
	b.pollList(c, "", c.poll)
	return c, nil
}
