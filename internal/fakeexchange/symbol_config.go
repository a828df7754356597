package fakeexchange

import "github.com/woox-exporter/woox_exporter/endpoint"

// EndpointSymbolConfig is the endpoint's name in the endpoint table (endpoint.All).
const EndpointSymbolConfig = endpoint.SymbolConfig

// PathSymbolConfig is the endpoint's path in the endpoint table.
var PathSymbolConfig = endpoint.PathOf(endpoint.SymbolConfig)

func init() { addRoute(endpoint.SymbolConfig, symbolConfigs.route()) }

// symbolConfigs answer as the docs show: data.rows in symbol order, no
// meta, no query parameter taken, margin_factor in snake_case beside
// camelCase numbers. An event changes a symbol's limits, adds one or
// removes one; the unreadable row has no symbol.
var symbolConfigs = &rowsEndpoint[SymbolConfig]{name: endpoint.SymbolConfig, section: "symbol_config", event: "symbol_config",
	under: "rows", sorted: true, change: patch,
	scenario:   func(_ *Scenario, a Account) []SymbolConfig { return a.SymbolConfig },
	unreadable: func(e *Exchange, _ int) any { return e.render(SymbolConfig{MaxLeverage: "10"}) },
	demo: func(s *Scenario) {
		s.account("main").SymbolConfig = []SymbolConfig{
			{Symbol: "PERP_BTC_USDT", MarginFactor: "0.00000023", MaxLeverage: "50", MaxPosition: "100000000000"},
			{Symbol: "PERP_ETH_USDT", MarginFactor: "0.00000023", MaxLeverage: "50", MaxPosition: "100000000000"},
			{Symbol: "PERP_WOO_USDT", MarginFactor: "0.00000023", MaxLeverage: "20", MaxPosition: "100000000000"},
		}
	},
}

// SymbolConfig is one symbol's limits for the account: exact decimal text,
// left out when empty.
type SymbolConfig struct {
	Symbol       string `yaml:"symbol" wire:"symbol,key"`
	MarginFactor string `yaml:"margin_factor" wire:"margin_factor,decimal"`
	MaxLeverage  string `yaml:"max_leverage" wire:"maxLeverage,number"`
	MaxPosition  string `yaml:"max_position" wire:"maxPosition,number"`
}
