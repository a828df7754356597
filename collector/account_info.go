package collector

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
)

var (
	accountInfoDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "account", "info"),
		"The account's mode and position mode (ONE_WAY or HEDGE_MODE) as the exchange reports them; always 1."+refreshed,
		[]string{"account", "account_mode", "position_mode"}, nil)
	accountFeeRateDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "account", "fee_rate"),
		"The account's trading fee rate as a ratio of the traded amount (0.0005 is 0.05 %; the exchange sends basis points), "+
			"by market (spot, futures) and side (maker, taker); negative for a rebate. Absent when the exchange sends none, as "+
			"live accounts may."+refreshed,
		[]string{"account", "market", "side"}, nil)

	// accountGauges are the fields exported one gauge each.
	accountGauges = []gauge[client.AccountInfo]{
		{accountGauge("margin_ratio", "The account's margin ratio: collateral over the margin its positions need; liquidation comes at the maintenance margin ratio."),
			func(i *client.AccountInfo) *decimal.Decimal { return i.MarginRatio }},
		{accountGauge("open_margin_ratio", "The account's margin ratio counting open orders."),
			func(i *client.AccountInfo) *decimal.Decimal { return i.OpenMarginRatio }},
		{accountGauge("initial_margin_ratio", "The margin ratio the account needs to open positions."),
			func(i *client.AccountInfo) *decimal.Decimal { return i.InitialMarginRatio }},
		{accountGauge("maintenance_margin_ratio", "The margin ratio below which the account is liquidated."),
			func(i *client.AccountInfo) *decimal.Decimal { return i.MaintenanceMarginRatio }},
		{accountGauge("leverage", "The account's leverage setting."),
			func(i *client.AccountInfo) *decimal.Decimal { return i.Leverage }},
		{accountGauge("total_collateral", "The account's total collateral in the exchange's quote currency, USDT."),
			func(i *client.AccountInfo) *decimal.Decimal { return i.TotalCollateral }},
		{accountGauge("free_collateral", "The account's collateral not used by positions or orders, in USDT."),
			func(i *client.AccountInfo) *decimal.Decimal { return i.FreeCollateral }},
		{accountGauge("value", "The account's total value in the exchange's quote currency, USDT."),
			func(i *client.AccountInfo) *decimal.Decimal { return i.TotalAccountValue }},
	}

	accountFeeRates = []struct {
		market, side string
		field        func(*client.AccountInfo) *decimal.Decimal
	}{
		{"spot", "maker", func(i *client.AccountInfo) *decimal.Decimal { return i.MakerFeeRate }},
		{"spot", "taker", func(i *client.AccountInfo) *decimal.Decimal { return i.TakerFeeRate }},
		{"futures", "maker", func(i *client.AccountInfo) *decimal.Decimal { return i.FuturesMakerFeeRate }},
		{"futures", "taker", func(i *client.AccountInfo) *decimal.Decimal { return i.FuturesTakerFeeRate }},
	}
)

func accountGauge(name, help string) *prometheus.Desc {
	return prometheus.NewDesc(prometheus.BuildFQName(namespace, "account", name),
		help+" Absent when the exchange does not send it."+refreshed, []string{"account"}, nil)
}

func init() { register(endpoint.AccountInfo, buildAccountInfo) }

// buildAccountInfo polls each account's margin and fees and exports them as
// last polled; a field the exchange did not send is not exported.
func buildAccountInfo(b *builder) (prometheus.Collector, error) {
	c := &perAccount[client.AccountInfo]{descs: descsOf(accountGauges, accountInfoDesc, accountFeeRateDesc), emit: emitAccountInfo}
	settings := b.settingWatchOf()
	return c.pollEach(b, c, func(a Account) readFunc[client.AccountInfo] {
		watch := settings.accounts[a.Name]
		return func(ctx context.Context) (client.AccountInfo, []client.RejectedRow, error) {
			info, err := a.API.AccountInfo(ctx)
			if err == nil {
				watch.observeAccountInfo(info)
			}
			return info, nil, err
		}
	}), nil
}

func emitAccountInfo(ch chan<- prometheus.Metric, account string, info *client.AccountInfo) {
	if info.AccountMode != "" || info.PositionMode != "" {
		ch <- prometheus.MustNewConstMetric(accountInfoDesc, prometheus.GaugeValue, 1, account, info.AccountMode, info.PositionMode)
	}
	emitGauges(ch, accountGauges, info, account)
	for _, f := range accountFeeRates {
		if v := f.field(info); v != nil {
			ch <- prometheus.MustNewConstMetric(accountFeeRateDesc, prometheus.GaugeValue, v.InexactFloat64(), account, f.market, f.side)
		}
	}
}
