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

// Defaults of the zero Config.WalletLookback and WalletLookbackInterval:
// how far back a wallet poll of the whole lookback reads transfers, and how
// often one does.
const (
	DefaultWalletLookback         = 7 * 24 * time.Hour
	DefaultWalletLookbackInterval = 5 * time.Minute
)

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

// walletSnapshot is what the last read of the whole lookback found in
// flight, and the withdrawals counted.
type walletSnapshot struct {
	// read is false until the whole lookback was read: nothing is known
	// in flight then.
	read   bool
	counts []inFlight
	// oldestMs is the creation time of the oldest transfer in flight, by
	// side.
	oldestMs    map[string]int64
	withdrawals withdrawalSnapshot
}

// WalletCollector exports each account's deposits and withdrawals in flight
// as last polled, and its withdrawals counted by destination.
type WalletCollector struct {
	perAccount[walletSnapshot]
	// networks split the exchange's network-token ids.
	networks *tokenNetworkIndex
	// reads are what each account's polls read, by account index.
	reads []*walletAccount
}

var _ prometheus.Collector = (*WalletCollector)(nil)

func init() { register(endpoint.Wallet, buildWallet) }

// buildWallet polls the transfers of each account (walletAccount says
// what each poll reads) and counts its withdrawals, resumed from a
// reload's handoff or the state file when either holds the account.
func buildWallet(b *builder) (prometheus.Collector, error) {
	c := &WalletCollector{networks: &b.e.networks, perAccount: perAccount[walletSnapshot]{descs: []*prometheus.Desc{
		walletInFlightDesc, walletInFlightBySideDesc, walletOldestInFlightDesc, withdrawalsDesc, withdrawalDestinationDesc}}}
	c.emit = c.emitAccount
	// The token network endpoint is on unless Collectors turns it off; when
	// it is off, a shard other than 0 still reads the list for its wallets.
	on, set := b.cfg.Collectors[endpoint.TokenNetwork]
	selfNetworks := len(b.cfg.Accounts) > 0 && b.cfg.WalletNetworks != nil && set && !on
	counters, err := newWithdrawalCounters(b, (b.cfg.Public != nil && (on || !set)) || selfNetworks)
	if err != nil {
		return nil, err
	}
	if selfNetworks {
		api := b.cfg.WalletNetworks
		b.pollEndpoint(endpoint.TokenNetwork, b.every[endpoint.TokenNetwork], c, "", func(ctx context.Context, _ func()) (leftOut, error) {
			networks, rejected, err := api.TokenNetworks(ctx)
			if err == nil {
				c.networks.store(dedupeTokenNetworks(networks))
			}
			c.networks.polled()
			return leftOutOf(rejected, err)
		})
	}
	for _, a := range b.cfg.Accounts {
		l := c.add(a.Name)
		wa := &walletAccount{api: a.API, lookback: b.cfg.WalletLookback, lookbackEvery: b.cfg.WalletLookbackInterval, interval: b.interval,
			cap: b.seriesCap(a.Name), networksWait: walletNetworksWait}
		c.reads = append(c.reads, wa)
		if wa.withdrawals, err = counters(a.Name); err != nil {
			return nil, err
		}
		// The counters restored from the state file are shown before the
		// first poll.
		_ = l.set(wa.snapshot(b.cfg.Now().UnixMilli()), nil)
		b.pollList(c, a.Name, func(ctx context.Context, _ func()) (leftOut, error) {
			v, rejected, err := wa.read(ctx)
			return leftOutOf(rejected, l.set(v, err))
		})
	}
	return collectorOrNil(c, len(c.accounts)), nil
}

// walletInFlight counts the transfers not in a final status.
func walletInFlight(transfers []client.Transfer) walletSnapshot {
	snap := walletSnapshot{read: true, oldestMs: map[string]int64{}}
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

// emitAccount exports one account's transfers in flight and withdrawals.
func (c *WalletCollector) emitAccount(ch chan<- prometheus.Metric, account string, snap *walletSnapshot) {
	emitWithdrawals(ch, account, &snap.withdrawals)
	if !snap.read {
		return
	}
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
