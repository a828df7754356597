package collector

import (
	"cmp"
	"context"
	"slices"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/client"
)

// DefaultWalletLookback is how far back each wallet poll reads transfers
// when Config.WalletLookback is zero.
const DefaultWalletLookback = 7 * 24 * time.Hour

// WalletAPI reads one account's deposits and withdrawals.
type WalletAPI interface {
	WalletHistory(ctx context.Context, startMs, endMs int64) ([]client.Transfer, error)
	// ServerNow is the local clock corrected to the exchange's.
	ServerNow() time.Time
}

var (
	walletInFlightDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "wallet", "transfers_in_flight"),
		"Number of the account's deposits and withdrawals created within --wallet.lookback that are not in a final status "+
			"(COMPLETED, CANCELED, FAILED); side and status as the exchange sends them."+refreshed,
		[]string{"account", "token", "side", "status"}, nil)
	walletOldestInFlightDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "wallet", "oldest_in_flight_timestamp_seconds"),
		"Unix time the oldest deposit or withdrawal still in flight was created; only while one is."+refreshed,
		[]string{"account", "side"}, nil)
)

// inFlight is the number of transfers in flight with one token, side and
// status.
type inFlight struct {
	token, side, status string
	count               int
}

// walletSnapshot is what one wallet poll found in flight.
type walletSnapshot struct {
	counts []inFlight
	// oldestMs is the creation time of the oldest transfer in flight, by
	// side.
	oldestMs map[string]int64
}

// WalletCollector exports each account's deposits and withdrawals in flight
// as last polled.
type WalletCollector struct {
	accounts []*latest[walletSnapshot]
	changes  atomic.Uint64
}

var _ prometheus.Collector = (*WalletCollector)(nil)

// buildWallet polls the transfers of each account created within the
// lookback.
func buildWallet(b *builder) (prometheus.Collector, error) {
	lookback := b.cfg.WalletLookback
	c := &WalletCollector{}
	for _, a := range b.cfg.Accounts {
		l := &latest[walletSnapshot]{account: a.Name, changes: &c.changes}
		c.accounts = append(c.accounts, l)
		api := a.API
		b.poll(c, a.Name, func(ctx context.Context, _ func()) error {
			end := api.ServerNow()
			transfers, err := api.WalletHistory(ctx, end.Add(-lookback).UnixMilli(), end.UnixMilli())
			return l.set(walletInFlight(transfers), err)
		})
	}
	return collectorOrNil(c, len(c.accounts)), nil
}

// walletInFlight counts the transfers not in a final status.
func walletInFlight(transfers []client.Transfer) walletSnapshot {
	snap := walletSnapshot{oldestMs: map[string]int64{}}
	index := map[inFlight]int{}
	for _, t := range transfers {
		if t.Final() {
			continue
		}
		k := inFlight{token: t.Token, side: t.Side, status: t.Status}
		i, ok := index[k]
		if !ok {
			i = len(snap.counts)
			index[k] = i
			snap.counts = append(snap.counts, k)
		}
		snap.counts[i].count++
		if oldest, ok := snap.oldestMs[t.Side]; !ok || t.CreatedMs < oldest {
			snap.oldestMs[t.Side] = t.CreatedMs
		}
	}
	slices.SortFunc(snap.counts, func(a, b inFlight) int {
		return cmp.Or(cmp.Compare(a.token, b.token), cmp.Compare(a.side, b.side), cmp.Compare(a.status, b.status))
	})
	return snap
}

// generation changes when an account's answer does.
func (c *WalletCollector) generation() uint64 { return c.changes.Load() }

// Describe implements prometheus.Collector.
func (c *WalletCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- walletInFlightDesc
	ch <- walletOldestInFlightDesc
}

// Collect implements prometheus.Collector.
func (c *WalletCollector) Collect(ch chan<- prometheus.Metric) {
	for _, a := range c.accounts {
		snap := a.load()
		if snap == nil {
			continue
		}
		for _, f := range snap.counts {
			ch <- prometheus.MustNewConstMetric(walletInFlightDesc, prometheus.GaugeValue, float64(f.count), a.account, f.token, f.side, f.status)
		}
		for side, ms := range snap.oldestMs {
			ch <- prometheus.MustNewConstMetric(walletOldestInFlightDesc, prometheus.GaugeValue, float64(ms)/1000, a.account, side)
		}
	}
}
