package fakeexchange

import "github.com/woox-exporter/woox_exporter/endpoint"

func init() { addRoute(endpoint.SymbolConfig, symbolConfigs.route()) }

// symbolConfigs answer as the docs show: data.rows in symbol order, no
// meta, no query parameter taken, margin_factor in snake_case beside
// camelCase numbers. An event changes a symbol's limits, adds one or
// removes one; the unreadable row has no symbol.
var symbolConfigs = &rowsEndpoint[SymbolConfig]{name: endpoint.SymbolConfig, section: "symbol_config", event: "symbol_config",
	under: "rows", sorted: true, change: patch,
	scenario:   func(_ *Scenario, a Account) []SymbolConfig { return a.SymbolConfig },
	unreadable: func(e *Exchange, _ int) any { return e.render(SymbolConfig{MaxLeverage: "10"}) },
}

// SymbolConfig is one symbol's limits for the account: exact decimal text,
// left out when empty.
type SymbolConfig struct {
	Symbol       string `yaml:"symbol" wire:"symbol,key"`
	MarginFactor string `yaml:"margin_factor" wire:"margin_factor,decimal"`
	MaxLeverage  string `yaml:"max_leverage" wire:"maxLeverage,number"`
	MaxPosition  string `yaml:"max_position" wire:"maxPosition,number"`
}
