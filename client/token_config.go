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
	Token                     string
	CollateralRatio           decimal.Decimal // the share of the value counted: 0.85 counts 85 %
	Collateral, CanCollateral bool            // whether collateral now, whether it may be
	CanShort                  *bool           // nil when not sent, as the three below
	// MarginFactor is what the margin formula applies to the token;
	// MarginMaxLeverage and MarginMaxPosition the most spot margin allows.
	MarginFactor, MarginMaxLeverage, MarginMaxPosition *decimal.Decimal
}

// TokenConfigs returns the account's token configurations, and the rows not read (getMetaList).
func (c *Client) TokenConfigs(ctx context.Context) ([]TokenConfig, []RejectedRow, error) {
	rows, rejected, err := getMetaList(ctx, c, "get token config", endpoint.TokenConfig, nil, decodeTokenConfigPage, tokenConfigKey)
	if err != nil {
		return nil, nil, err
	}
	return rows, rejected, nil
}

func tokenConfigKey(t TokenConfig) string { return t.Token }

// decodeTokenConfigPage reads one answer: data.rows[] and data.meta if one came.
func decodeTokenConfigPage(data json.RawMessage) (list[TokenConfig], *PageMeta, error) {
	l, meta, err := decodeMetaList(data, "token config", decodeTokenConfig, func(t TokenConfig) string { return prefixed("token ", t.Token) })
	if l, err = listedOnce(l, err, "token config: token", tokenConfigKey); err != nil {
		return l, nil, err
	}
	return l, meta, nil
}

// decodeTokenConfig reads one row. Token, ratio and both flags are required:
// read as 0 or false they would page for a haircut never made.
func decodeTokenConfig(f fields) (t TokenConfig, err error) {
	err = f.read(need("token", &t.Token), need("collateralRatio", &t.CollateralRatio),
		need("collateral", &t.Collateral), need("canCollateral", &t.CanCollateral), may("canShort", &t.CanShort),
		may("marginFactor", &t.MarginFactor), may("marginMaxLeverage", &t.MarginMaxLeverage), may("marginMaxPosition", &t.MarginMaxPosition))
	return t, err
}
