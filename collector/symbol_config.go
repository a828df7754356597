package collector

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
)

func symbolConfigDesc(name, help string) *prometheus.Desc {
	return prometheus.NewDesc(prometheus.BuildFQName(namespace, "symbol", name), help+refreshed, []string{"account", "symbol"}, nil)
}

// symbolConfigGauges are the limits of a symbol exported; a limit the
// exchange did not send is left out.
var symbolConfigGauges = []gauge[client.SymbolConfig]{
	{symbolConfigDesc("max_leverage", "The largest leverage the exchange allows the account on the symbol: "+
		"a lower one raises the maintenance margin of a position on it with no trade."),
		func(s *client.SymbolConfig) *decimal.Decimal { return s.MaxLeverage }},
	{symbolConfigDesc("margin_factor", "The margin factor the exchange applies to the account's position on the symbol: "+
		"a higher one raises its maintenance margin with no trade."),
		func(s *client.SymbolConfig) *decimal.Decimal { return s.MarginFactor }},
	{symbolConfigDesc("max_position", "The largest position the exchange allows the account on the symbol, as it sends it."),
		func(s *client.SymbolConfig) *decimal.Decimal { return s.MaxPosition }},
}

func init() { register(endpoint.SymbolConfig, buildSymbolConfig) }

// buildSymbolConfig polls each account's symbol limits and exports them as
// last polled, within the series cap.
func buildSymbolConfig(b *builder) (prometheus.Collector, error) {
	c := &perAccount[[]client.SymbolConfig]{descs: descsOf(symbolConfigGauges), emit: func(ch chan<- prometheus.Metric, account string, rows *[]client.SymbolConfig) {
		for i := range *rows {
			emitGauges(ch, symbolConfigGauges, &(*rows)[i], account, (*rows)[i].Symbol)
		}
	}}
	return c.pollEach(b, c, func(a Account) readFunc[[]client.SymbolConfig] {
		sc := b.seriesCap(a.Name)
		return func(ctx context.Context) ([]client.SymbolConfig, []client.RejectedRow, error) {
			rows, rejected, err := a.API.SymbolConfigs(ctx)
			return capRows(sc, rows), rejected, err
		}
	}), nil
}
