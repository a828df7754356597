package fakeexchange

import "github.com/woox-exporter/woox_exporter/endpoint"

func init() { addRoute(endpoint.TokenConfig, tokenConfigs.route()) }

// tokenConfigs answer as the docs show: data.rows in token order, no meta, no
// query parameter. The unreadable row has no token.
var tokenConfigs = &rowsEndpoint[TokenConfig]{name: endpoint.TokenConfig, section: "token_config", event: "token_config",
	under: "rows", sorted: true, change: patch,
	scenario:   func(_ *Scenario, a Account) []TokenConfig { return a.TokenConfig },
	unreadable: func(e *Exchange, _ int) any { return e.render(TokenConfigRow("", "0.5", true)) },
}

// TokenConfig is how the exchange counts a token in the margin: exact decimals;
// an empty one or a nil flag is left out.
type TokenConfig struct {
	Token string `yaml:"token" wire:"token,key"`
	// CollateralRatio is the share of the value counted as collateral.
	CollateralRatio string `yaml:"collateral_ratio" wire:"collateralRatio,decimal"`
	MarginFactor    string `yaml:"margin_factor" wire:"marginFactor,decimal"`
	// Collateral: used as collateral now; CanCollateral: may be.
	Collateral    *bool `yaml:"collateral" wire:"collateral,flag"`
	CanCollateral *bool `yaml:"can_collateral" wire:"canCollateral,flag"`
	CanShort      *bool `yaml:"can_short" wire:"canShort,flag"`
	// JSON numbers, as the docs show them.
	MarginMaxLeverage string `yaml:"margin_max_leverage" wire:"marginMaxLeverage,number"`
	MarginMaxPosition string `yaml:"margin_max_position" wire:"marginMaxPosition,number"`
}

// TokenConfigRow is a row with both collateral flags set to collateral.
func TokenConfigRow(token, ratio string, collateral bool) TokenConfig {
	c, can := collateral, collateral
	return TokenConfig{Token: token, CollateralRatio: ratio, Collateral: &c, CanCollateral: &can}
}
