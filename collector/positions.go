package collector

import (
	"context"
	"slices"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
)

var positionLabels = []string{"account", "symbol", "position_side", "margin_mode"}

func positionDesc(name, help string) *prometheus.Desc {
	return prometheus.NewDesc(prometheus.BuildFQName(namespace, "position", name), help+refreshed, positionLabels, nil)
}

// positionGauges are the position fields exported, one gauge each; a field
// whose value is nil is not exported.
var positionGauges = []gauge[client.Position]{
	{positionDesc("holding", "The position's signed size in the symbol's base currency: negative for a short."),
		func(p *client.Position) *decimal.Decimal { return &p.Holding }},
	{positionDesc("average_open_price", "The position's average open price, in the symbol's quote currency."),
		func(p *client.Position) *decimal.Decimal { return p.AverageOpenPrice }},
	{positionDesc("mark_price", "The symbol's mark price, in its quote currency."),
		func(p *client.Position) *decimal.Decimal { return p.MarkPrice }},
	{positionDesc("estimated_liquidation_price", "The exchange's estimated liquidation price of the position, in the quote currency; absent while the exchange gives none (0)."),
		func(p *client.Position) *decimal.Decimal { return nonZero(p.EstLiqPrice) }},
	{positionDesc("leverage", "The position's leverage."),
		func(p *client.Position) *decimal.Decimal { return p.Leverage }},
	{positionDesc("adl_quantile", "The position's auto-deleverage rank, 1 (last to be closed) to 5 (first)."),
		func(p *client.Position) *decimal.Decimal { return p.AdlQuantile }},
	{positionDesc("isolated_margin", "The margin held by an ISOLATED position, in its isolated margin token; absent for CROSS positions."),
		func(p *client.Position) *decimal.Decimal {
			if p.MarginMode != "ISOLATED" {
				return nil
			}
			return p.IsolatedMarginAmount
		}},
	{positionDesc("pnl_24h", "The position's profit and loss over the last 24 hours, in the quote currency."),
		func(p *client.Position) *decimal.Decimal { return p.Pnl24H }},
	{positionDesc("fee_24h", "The position's trading fees over the last 24 hours, in the quote currency."),
		func(p *client.Position) *decimal.Decimal { return p.Fee24H }},
}

// nonZero is d, or nil when d is 0: the exchange's "no value".
func nonZero(d *decimal.Decimal) *decimal.Decimal {
	if d == nil || d.IsZero() {
		return nil
	}
	return d
}

func init() { register(endpoint.Positions, buildPositions) }

// buildPositions polls each account's positions and exports the open ones
// as last polled. A closed position (nothing held, nothing pending)
// disappears with the next poll, whether the exchange lists it with zeros or
// not.
func buildPositions(b *builder) (prometheus.Collector, error) {
	c := &perAccount[[]client.Position]{descs: descsOf(positionGauges), emit: emitPositions}
	settings := b.settingWatchOf()
	return c.pollEach(b, c, func(a Account) readFunc[[]client.Position] {
		sc, watch := b.seriesCap(a.Name), settings.accounts[a.Name]
		return func(ctx context.Context) ([]client.Position, []client.RejectedRow, error) {
			ps, rejected, err := a.API.Positions(ctx)
			open := capRows(sc, openPositions(ps))
			if err == nil {
				watch.observePositions(open, len(rejected) == 0)
			}
			return open, rejected, err
		}
	}), nil
}

// openPositions drops the closed positions.
func openPositions(ps []client.Position) []client.Position {
	return slices.DeleteFunc(ps, func(p client.Position) bool { return p.Closed() })
}

func emitPositions(ch chan<- prometheus.Metric, account string, positions *[]client.Position) {
	for i := range *positions {
		p := &(*positions)[i]
		emitGauges(ch, positionGauges, p, account, p.Symbol, p.Side, p.MarginMode)
	}
}
