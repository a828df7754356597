package client

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// AccountInfo is the answer of GET /v3/account/info: the account's margin
// and fees, nil when not sent. Amounts are in USDT; fee rates are ratios
// (0.0002 is 0.02 %), sent in basis points.
type AccountInfo struct {
	AccountMode            string
	PositionMode           string // ONE_WAY or HEDGE_MODE; "" when not sent
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
	return getData(ctx, c, request{op: "get account info", endpoint: endpoint.AccountInfo, signed: true}, decodeAccountInfo)
}

// decodeAccountInfo reads the v3 camelCase and the v1 snake_case answer.
func decodeAccountInfo(data json.RawMessage) (AccountInfo, error) {
	f, err := readData(data, "account info")
	if err != nil {
		return AccountInfo{}, err
	}
	var out AccountInfo
	if err = f.read(may("accountMode", &out.AccountMode), may("positionMode", &out.PositionMode), may("leverage", &out.Leverage), may("marginRatio", &out.MarginRatio),
		may("openMarginRatio", &out.OpenMarginRatio), may("initialMarginRatio", &out.InitialMarginRatio),
		may("maintenanceMarginRatio", &out.MaintenanceMarginRatio), may("totalCollateral", &out.TotalCollateral),
		may("freeCollateral", &out.FreeCollateral), may("totalAccountValue", &out.TotalAccountValue),
		may("takerFeeRate", &out.TakerFeeRate), may("makerFeeRate", &out.MakerFeeRate),
		may("futuresTakerFeeRate", &out.FuturesTakerFeeRate), may("futuresMakerFeeRate", &out.FuturesMakerFeeRate)); err != nil {
		return AccountInfo{}, fmt.Errorf("account info: %w", err)
	}
	for _, rate := range []*decimal.Decimal{out.TakerFeeRate, out.MakerFeeRate, out.FuturesTakerFeeRate, out.FuturesMakerFeeRate} {
		if rate != nil {
			*rate = rate.Shift(-4) // basis points to a ratio, exactly
		}
	}
	return out, nil
}
