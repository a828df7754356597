package collector

import (
	"context"
	"maps"
	"slices"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/ledger"
)

// balanceGauges are the balance fields exported, one gauge each.
var balanceGauges = []gauge[client.Balance]{
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

var unexplainedDesc = prometheus.NewDesc(prometheus.BuildFQName(namespace, "balance", "unexplained_change"),
	"The change of the account's holding of the token that its token history does not explain, in token units: "+
		"since the baseline (the first balances answer after start, or the one saved with --token-history.state-file), "+
		"the holding's change minus the signed amounts of the records dated up to the latest balances answer the token history "+
		"has been read past. 0 while every change is explained; a record listed late brings it back when it arrives. "+
		"Only while both the balances and the token history are polled."+refreshed,
	[]string{"account", "token"}, nil)

// BalancesCollector exports each account's token balances as last polled,
// and the change of each that the token history does not explain. A token
// the exchange stops listing disappears with the next poll.
type BalancesCollector struct {
	perAccount[[]client.Balance]
	// ledgers are the accounts' token history ledgers, which hold the
	// balances against the records; nil without the token history.
	ledgers []*ledgerInUse
	// limit bounds the tokens of the unexplained change exported per
	// account: the token history's tokens are the exchange's to choose.
	limit int
}

var _ prometheus.Collector = (*BalancesCollector)(nil)

func init() { register(endpoint.Balances, buildBalances) }

// buildBalances polls each account's balances, and gives them to its token
// history ledger to reconcile.
func buildBalances(b *builder) (prometheus.Collector, error) {
	c := &BalancesCollector{limit: b.cfg.SeriesPerEndpoint,
		perAccount: perAccount[[]client.Balance]{descs: descsOf(balanceGauges, unexplainedDesc), emit: emitBalances}}
	return c.pollEach(b, c, func(a Account) readFunc[[]client.Balance] {
		led, sc := b.e.ledgers[a.Name], b.seriesCap(a.Name)
		if led != nil {
			led.ReconcileBalances()
		}
		c.ledgers = append(c.ledgers, led)
		return func(ctx context.Context) ([]client.Balance, []client.RejectedRow, error) {
			s, err := a.API.BalanceSnapshot(ctx)
			if err == nil && led != nil {
				if h, ok := holdingsOf(s); ok {
					led.Load().ObserveBalances(h)
				}
			}
			return capRows(sc, s.Balances), s.Rejected, err
		}
	}), nil
}

// holdingsOf is what reconciliation needs of an answer; not ok when the
// answer has no time, a token without a holding or a row left out (its
// token would read as emptied).
func holdingsOf(s client.BalanceSnapshot) (ledger.Holdings, bool) {
	h := ledger.Holdings{TimeMs: s.TimeMs, Tokens: make(map[string]decimal.Decimal, len(s.Balances))}
	for _, b := range s.Balances {
		if b.Holding == nil {
			return h, false
		}
		h.Tokens[b.Token] = *b.Holding
	}
	return h, s.TimeMs > 0 && len(s.Rejected) == 0
}

// generation changes when an account's answer does, or what its token
// history explains of it.
func (c *BalancesCollector) generation() uint64 {
	g := c.perAccount.generation()
	for _, l := range c.ledgers {
		if l != nil {
			g += l.ReconcileGeneration()
		}
	}
	return g
}

// generationAt implements accountSplit.
func (c *BalancesCollector) generationAt(i int) uint64 {
	g := c.perAccount.generationAt(i)
	if l := c.ledgers[i]; l != nil {
		g += l.ReconcileGeneration()
	}
	return g
}

// Collect implements prometheus.Collector.
func (c *BalancesCollector) Collect(ch chan<- prometheus.Metric) {
	for i := range c.accounts {
		c.collectAt(i, ch)
	}
}

// collectAt implements accountSplit.
func (c *BalancesCollector) collectAt(i int, ch chan<- prometheus.Metric) {
	c.perAccount.collectAt(i, ch)
	l := c.ledgers[i]
	if l == nil {
		return
	}
	if by, ok := l.Load().Unexplained(); ok {
		for _, token := range firstTokens(by, c.limit) {
			ch <- prometheus.MustNewConstMetric(unexplainedDesc, prometheus.GaugeValue, by[token].InexactFloat64(), c.accounts[i].account, token)
		}
	}
}

func emitBalances(ch chan<- prometheus.Metric, account string, balances *[]client.Balance) {
	for i := range *balances {
		b := &(*balances)[i]
		emitGauges(ch, balanceGauges, b, account, b.Token)
	}
}

// firstTokens are the tokens of by, the first limit in order when there are
// more (a limit of 0 keeps all).
func firstTokens(by map[string]decimal.Decimal, limit int) []string {
	tokens := slices.Sorted(maps.Keys(by))
	if limit > 0 && len(tokens) > limit {
		tokens = tokens[:limit]
	}
	return tokens
}
