package client

import (
	"context"
	"encoding/json"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// TokenConfig is one row of GET /v3/account/tokenConfig: how the exchange
// counts one token in the account's margin. The exchange may lower a ratio,
// or stop taking a token as collateral, at any time: the account's free
// collateral falls with no price move.
type TokenConfig struct {
	Token string
	// CollateralRatio is the share of the token's value counted as
	// collateral: 0.85 counts 85 %.
	CollateralRatio decimal.Decimal
	// Collateral is whether the token is used as collateral now;
	// CanCollateral whether it may be.
	Collateral, CanCollateral bool
	// CanShort is whether the token may be sold short; nil when not sent.
	CanShort *bool
	// MarginFactor is the factor the exchange's margin formula applies to
	// the token; MarginMaxLeverage and MarginMaxPosition the largest
	// leverage and position it allows in spot margin. nil when not sent.
	MarginFactor, MarginMaxLeverage, MarginMaxPosition *decimal.Decimal
}

// TokenConfigs returns the account's token configurations, each token once,
// and the rows that could not be read. The endpoint documents no paging:
// see getMetaList.
func (c *Client) TokenConfigs(ctx context.Context) ([]TokenConfig, []RejectedRow, error) {
	rows, rejected, err := getMetaList(ctx, c, "get token config", endpoint.TokenConfig, decodeTokenConfigPage, tokenConfigKey)
	if err != nil {
		return nil, nil, err
	}
	return rows, rejected, nil
}

func tokenConfigKey(t TokenConfig) string { return t.Token }

// decodeTokenConfigs reads the rows of one answer.
func decodeTokenConfigs(data json.RawMessage) (list[TokenConfig], error) {
	l, _, err := decodeTokenConfigPage(data)
	return l, err
}

// decodeTokenConfigPage reads one answer: data.rows[] in camelCase or
// snake_case, and data.meta if one came. A token listed twice fails the
// answer: which row holds its ratio is unknown.
func decodeTokenConfigPage(data json.RawMessage) (list[TokenConfig], *PageMeta, error) {
	l, meta, err := decodeMetaList(data, "token config", decodeTokenConfig, func(t TokenConfig) string { return prefixed("token ", t.Token) })
	if l, err = listedOnce(l, err, "token config: token", tokenConfigKey); err != nil {
		return l, nil, err
	}
	return l, meta, nil
}

// decodeTokenConfig reads one row. The token, its ratio and both collateral
// flags are required: read as 0 or false they would page someone for a
// haircut the exchange never made.
func decodeTokenConfig(f fields) (t TokenConfig, err error) {
	err = f.read(need("token", &t.Token), need("collateralRatio", &t.CollateralRatio),
		need("collateral", &t.Collateral), need("canCollateral", &t.CanCollateral), may("canShort", &t.CanShort),
		may("marginFactor", &t.MarginFactor), may("marginMaxLeverage", &t.MarginMaxLeverage), may("marginMaxPosition", &t.MarginMaxPosition))
	return t, err
}
