package client

import (
	"context"
	"encoding/json"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// SymbolConfig is one row of GET /v3/account/symbolConfig: the limits the
// exchange sets the account on one symbol. A lower MaxLeverage or a higher
// MarginFactor raises the maintenance margin with no trade at all. A field
// not sent is nil.
type SymbolConfig struct {
	Symbol                                 string
	MaxLeverage, MarginFactor, MaxPosition *decimal.Decimal
}

// SymbolConfigs returns the account's symbol configurations, and the rows not read.
func (c *Client) SymbolConfigs(ctx context.Context) ([]SymbolConfig, []RejectedRow, error) {
	l, err := getData(ctx, c, request{op: "get symbol config", endpoint: endpoint.SymbolConfig, signed: true}, decodeSymbolConfigs)
	return l.rows, c.onPage(l.rejected, 1), err
}

// decodeSymbolConfigs reads data.rows[] (the docs mix margin_factor with maxLeverage).
func decodeSymbolConfigs(data json.RawMessage) (list[SymbolConfig], error) {
	l, err := decodeDataList(data, "symbol config", "rows", func(f fields) (s SymbolConfig, err error) {
		err = f.read(need("symbol", &s.Symbol), may("maxLeverage", &s.MaxLeverage), may("marginFactor", &s.MarginFactor),
			may("maxPosition", &s.MaxPosition))
		return s, err
	}, func(s SymbolConfig) string { return prefixed("symbol ", s.Symbol) })
	return listedOnce(l, err, "symbol config: symbol", func(s SymbolConfig) string { return s.Symbol })
}
