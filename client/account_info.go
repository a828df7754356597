package client

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/shopspring/decimal"
)

// EndpointAccountInfo names the account info endpoint in the endpoint label
// and as a budget key; PathAccountInfo is its path.
const (
	EndpointAccountInfo = "account_info"
	PathAccountInfo     = "/v3/account/info"
)

// AccountInfo is the answer of GET /v3/account/info: the account's margin
// and fees. A field the exchange did not send is nil. Amounts are in the
// exchange's quote currency, USDT; fee rates are as the exchange sends
// them.
type AccountInfo struct {
	AccountMode            string
	Leverage               *decimal.Decimal
	MarginRatio            *decimal.Decimal
	OpenMarginRatio        *decimal.Decimal
	InitialMarginRatio     *decimal.Decimal
	MaintenanceMarginRatio *decimal.Decimal
	TotalCollateral        *decimal.Decimal
	FreeCollateral         *decimal.Decimal
	TotalAccountValue      *decimal.Decimal
	TakerFeeRate           *decimal.Decimal
	MakerFeeRate           *decimal.Decimal
	FuturesTakerFeeRate    *decimal.Decimal
	FuturesMakerFeeRate    *decimal.Decimal
}

// AccountInfo returns the account's margin and fees.
func (c *Client) AccountInfo(ctx context.Context) (AccountInfo, error) {
	var info AccountInfo
	err := c.get(ctx, request{op: "get account info", endpoint: EndpointAccountInfo, path: PathAccountInfo, signed: true,
		decode: func(data json.RawMessage, _ int64) (err error) {
			info, err = decodeAccountInfo(data)
			return err
		}})
	return info, err
}

// decodeAccountInfo reads the v3 camelCase and the v1 snake_case answer.
func decodeAccountInfo(data json.RawMessage) (AccountInfo, error) {
	if err := decodeData(data, new(json.RawMessage)); err != nil {
		return AccountInfo{}, err
	}
	f, err := decodeFields(data)
	if err != nil {
		return AccountInfo{}, fmt.Errorf("account info: %w", err)
	}
	var out AccountInfo
	if out.AccountMode, _, err = f.text("accountMode"); err != nil {
		return AccountInfo{}, fmt.Errorf("account info: %w", err)
	}
	for _, d := range []struct {
		name string
		dst  **decimal.Decimal
	}{
		{"leverage", &out.Leverage},
		{"marginRatio", &out.MarginRatio},
		{"openMarginRatio", &out.OpenMarginRatio},
		{"initialMarginRatio", &out.InitialMarginRatio},
		{"maintenanceMarginRatio", &out.MaintenanceMarginRatio},
		{"totalCollateral", &out.TotalCollateral},
		{"freeCollateral", &out.FreeCollateral},
		{"totalAccountValue", &out.TotalAccountValue},
		{"takerFeeRate", &out.TakerFeeRate},
		{"makerFeeRate", &out.MakerFeeRate},
		{"futuresTakerFeeRate", &out.FuturesTakerFeeRate},
		{"futuresMakerFeeRate", &out.FuturesMakerFeeRate},
	} {
		if *d.dst, err = f.decimal(d.name); err != nil {
			return AccountInfo{}, fmt.Errorf("account info: %w", err)
		}
	}
	return out, nil
}
