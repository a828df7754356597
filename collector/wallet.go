package collector

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
)

// DefaultWalletLookback is how far back each wallet poll reads transfers
// when Config.WalletLookback is zero.
const DefaultWalletLookback = 7 * 24 * time.Hour

// walletSides are the sides every account exports a count of, 0 while
// nothing is in flight.
var walletSides = []string{"DEPOSIT", "WITHDRAW"}

var (
	walletInFlightDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "wallet", "transfers_in_flight"),
		"Number of the account's deposits and withdrawals (wallet type BALANCE) created within --wallet.lookback that are not "+
			"in a final status (COMPLETED, CANCELED, FAILED); side and status as the exchange sends them. The exchange names a "+
			"token on a network (TRON_USDT): token is the balance token (USDT) and network the network (TRON), split by the "+
			"networks the token network endpoint lists; an id that cannot be split keeps token whole and network empty."+refreshed,
		[]string{"account", "token", "network", "side", "status"}, nil)
	walletInFlightBySideDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "wallet", "transfers_in_flight_by_side"),
		"Number of the account's deposits and withdrawals in flight, by side; 0 for DEPOSIT and WITHDRAW while none is."+refreshed,
		[]string{"account", "side"}, nil)
	walletOldestInFlightDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "wallet", "oldest_in_flight_timestamp_seconds"),
		"Unix time the oldest deposit or withdrawal still in flight was created; only while one is."+refreshed,
		[]string{"account", "side"}, nil)
)

// inFlight is the number of transfers in flight with one network-token
// id, side and status.
type inFlight struct {
	token, side, status string
	count               int
}

// inFlightSeries is the labels of one woox_wallet_transfers_in_flight
// series.
type inFlightSeries struct{ token, network, side, status string }

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
	perAccount[walletSnapshot]
	// networks split the exchange's network-token ids.
	networks *tokenNetworkIndex
}

var _ prometheus.Collector = (*WalletCollector)(nil)

func init() { register(endpoint.Wallet, buildWallet) }

// buildWallet polls the transfers of each account created within the
// lookback.
func buildWallet(b *builder) (prometheus.Collector, error) {
	lookback := b.cfg.WalletLookback
	c := &WalletCollector{networks: &b.e.networks,
		perAccount: perAccount[walletSnapshot]{descs: []*prometheus.Desc{walletInFlightDesc, walletInFlightBySideDesc, walletOldestInFlightDesc}}}
	c.emit = c.emitAccount
	out := c.pollEach(b, c, func(a Account) readFunc[walletSnapshot] {
		sc := b.seriesCap(a.Name)
		return func(ctx context.Context) (walletSnapshot, []client.RejectedRow, error) {
			end := a.API.ServerNow()
			transfers, rejected, err := a.API.WalletHistory(ctx, end.Add(-lookback).UnixMilli(), end.UnixMilli())
			snap := walletInFlight(transfers)
			snap.counts = capRows(sc, snap.counts)
			return snap, rejected, err
		}
	})
	// The token network endpoint is on unless Collectors turns it off.
	if on, set := b.cfg.Collectors[client.EndpointTokenNetwork]; out != nil && b.cfg.WalletNetworks != nil && set && !on {
		api := b.cfg.WalletNetworks
		b.pollEndpoint(client.EndpointTokenNetwork, b.every[client.EndpointTokenNetwork], c, "", func(ctx context.Context, _ func()) (leftOut, error) {
			networks, rejected, err := api.TokenNetworks(ctx)
			if err == nil {
				c.networks.store(dedupeTokenNetworks(networks))
			}
			return leftOutOf(rejected, err)
		})
	}
	return out, nil
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

// generation changes when an account's answer does, or the token network
// list that splits its ids.
func (c *WalletCollector) generation() uint64 {
	return c.perAccount.generation() + c.networks.generation()
}

// generationAt implements accountSplit.
func (c *WalletCollector) generationAt(i int) uint64 {
	return c.perAccount.generationAt(i) + c.networks.generation()
}

// emitAccount exports one account's transfers in flight.
func (c *WalletCollector) emitAccount(ch chan<- prometheus.Metric, account string, snap *walletSnapshot) {
	bySide := map[string]int{}
	for _, side := range walletSides {
		bySide[side] = 0
	}
	// Two ids cannot split to the same labels, but summing keeps a
	// scrape valid whatever the exchange sends.
	series := map[inFlightSeries]int{}
	for _, f := range snap.counts {
		token, network := c.networks.split(f.token)
		series[inFlightSeries{token: token, network: network, side: f.side, status: f.status}] += f.count
		bySide[f.side] += f.count
	}
	for s, n := range series {
		ch <- prometheus.MustNewConstMetric(walletInFlightDesc, prometheus.GaugeValue, float64(n), account, s.token, s.network, s.side, s.status)
	}
	for side, n := range bySide {
		ch <- prometheus.MustNewConstMetric(walletInFlightBySideDesc, prometheus.GaugeValue, float64(n), account, side)
	}
	for side, ms := range snap.oldestMs {
		ch <- prometheus.MustNewConstMetric(walletOldestInFlightDesc, prometheus.GaugeValue, float64(ms)/1000, account, side)
	}
}
