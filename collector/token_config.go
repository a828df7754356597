package collector

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
)

func tokenConfigDesc(name, help string) *prometheus.Desc {
	return prometheus.NewDesc(prometheus.BuildFQName(namespace, "token", name), help+refreshed, []string{"account", "token"}, nil)
}

// tokenConfigGauges are the token config fields exported, one gauge each;
// a field the exchange did not send is not exported.
var tokenConfigGauges = []gauge[client.TokenConfig]{
	{tokenConfigDesc("collateral_ratio", "The share of the token's value the exchange counts as the account's collateral (0.85 counts 85 %). "+
		"The exchange may lower it at any time: the account's free collateral then falls with no price move."),
		func(c *client.TokenConfig) *decimal.Decimal { return &c.CollateralRatio }},
	{tokenConfigDesc("collateral", "1 while the exchange uses the token as the account's collateral, else 0."),
		func(c *client.TokenConfig) *decimal.Decimal { return flagGauge(&c.Collateral) }},
	{tokenConfigDesc("can_collateral", "1 while the token may be used as collateral, else 0."),
		func(c *client.TokenConfig) *decimal.Decimal { return flagGauge(&c.CanCollateral) }},
	{tokenConfigDesc("can_short", "1 while the token may be sold short, else 0; absent when the exchange does not say."),
		func(c *client.TokenConfig) *decimal.Decimal { return flagGauge(c.CanShort) }},
	{tokenConfigDesc("margin_factor", "The margin factor the exchange applies to the token (marginFactor); absent when not sent."),
		func(c *client.TokenConfig) *decimal.Decimal { return c.MarginFactor }},
	{tokenConfigDesc("margin_max_leverage", "The largest margin leverage the exchange allows on the token; absent when not sent."),
		func(c *client.TokenConfig) *decimal.Decimal { return c.MarginMaxLeverage }},
	{tokenConfigDesc("margin_max_position", "The largest margin position the exchange allows in the token, as it sends it (marginMaxPosition); absent when not sent."),
		func(c *client.TokenConfig) *decimal.Decimal { return c.MarginMaxPosition }},
}

// flagGauge is 1 or 0, or nil for a flag not sent.
func flagGauge(b *bool) *decimal.Decimal {
	if b == nil {
		return nil
	}
	v := decimal.Zero
	if *b {
		v = decimal.NewFromInt(1)
	}
	return &v
}

func init() { register(endpoint.TokenConfig, buildTokenConfig) }

// buildTokenConfig polls each account's token config and exports it as last
// polled, within the series cap. A token the exchange stops listing
// disappears with the next poll.
func buildTokenConfig(b *builder) (prometheus.Collector, error) {
	c := &perAccount[[]client.TokenConfig]{descs: descsOf(tokenConfigGauges), emit: emitTokenConfig}
	return c.pollEach(b, c, func(a Account) readFunc[[]client.TokenConfig] {
		sc := b.seriesCap(a.Name)
		return func(ctx context.Context) ([]client.TokenConfig, []client.RejectedRow, error) {
			rows, rejected, err := a.API.TokenConfigs(ctx)
			return capRows(sc, rows), rejected, err
		}
	}), nil
}

func emitTokenConfig(ch chan<- prometheus.Metric, account string, rows *[]client.TokenConfig) {
	for i := range *rows {
		c := &(*rows)[i]
		emitGauges(ch, tokenConfigGauges, c, account, c.Token)
	}
}
