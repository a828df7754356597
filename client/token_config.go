package client

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// EndpointTokenConfig is the endpoint's name in the endpoint table (endpoint.All).
const EndpointTokenConfig = endpoint.TokenConfig

// PathTokenConfig is the endpoint's path in the endpoint table.
var PathTokenConfig = endpoint.PathOf(endpoint.TokenConfig)

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

// tokenConfigPage is one answer: its rows, and its meta when it sent one.
type tokenConfigPage struct {
	list[TokenConfig]
	meta *PageMeta
}

// TokenConfigs returns the account's token configurations, each token once,
// and the rows that could not be read.
//
// The endpoint documents no query parameters, and an exchange that refuses
// unknown ones (-1004) would fail every poll that sent page or size: the
// first request sends none. Only an answer whose meta counts more rows than
// were read is followed by page=2, 3, ...
func (c *Client) TokenConfigs(ctx context.Context) ([]TokenConfig, []RejectedRow, error) {
	all := newPagedList[TokenConfig]()
	for page := 1; page <= maxPages; page++ {
		query, op := "", "get token config"
		if page > 1 {
			query, op = encodeQuery([]param{{"page", strconv.Itoa(page)}}), fmt.Sprintf("get token config page %d", page)
		}
		var p tokenConfigPage
		err := c.get(ctx, request{op: op, endpoint: EndpointTokenConfig, path: PathTokenConfig, query: query, signed: true,
			decode: func(data json.RawMessage, _ int64) (err error) {
				p, err = decodeTokenConfigPage(data)
				return err
			}})
		if err != nil {
			return nil, nil, err
		}
		fresh := all.add(list[TokenConfig]{rows: p.rows, rejected: c.onPage(p.rejected, page)}, tokenConfigKey, nil)
		// No meta, a total reached, or a page that brings nothing new (an
		// exchange answering any page with the first) ends the list.
		if p.meta == nil || len(all.rows)+len(all.rejected) >= p.meta.Total || fresh == 0 {
			return all.rows, all.rejected, nil
		}
	}
	return nil, nil, &Error{Op: "get token config", Kind: KindBadResponse, Err: fmt.Errorf("more than %d pages", maxPages)}
}

func tokenConfigKey(t TokenConfig) string { return t.Token }

// decodeTokenConfigs reads the rows of one answer.
func decodeTokenConfigs(data json.RawMessage) (list[TokenConfig], error) {
	p, err := decodeTokenConfigPage(data)
	return p.list, err
}

// decodeTokenConfigPage reads one answer: data.rows[] in camelCase or
// snake_case, and data.meta if one came. A token listed twice fails the
// answer: which row holds its ratio is unknown.
func decodeTokenConfigPage(data json.RawMessage) (tokenConfigPage, error) {
	f, rows, err := decodeDataRows(data, "token config", "rows")
	if err != nil {
		return tokenConfigPage{}, err
	}
	var out tokenConfigPage
	if out.meta, err = f.meta("token config"); err != nil {
		return tokenConfigPage{}, err
	}
	out.list = decodeList(rows, decodeTokenConfig, func(t TokenConfig) string { return prefixed("token ", t.Token) })
	seen := make(map[string]bool, len(out.rows))
	for _, t := range out.rows {
		if seen[t.Token] {
			return tokenConfigPage{}, fmt.Errorf("token config: token %s listed twice", t.Token)
		}
		seen[t.Token] = true
	}
	return out, nil
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
