package client

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/shopspring/decimal"
)

// EndpointTokenNetwork names the token network endpoint in the endpoint
// label and as a budget key; PathTokenNetwork is its path.
const (
	EndpointTokenNetwork = "token_network"
	PathTokenNetwork     = "/v3/public/tokenNetwork"
)

// TokenNetworks returns every token network. The endpoint is public.
func (c *Client) TokenNetworks(ctx context.Context) ([]TokenNetwork, error) {
	var rows []TokenNetwork
	err := c.get(ctx, request{op: "get token networks", endpoint: EndpointTokenNetwork, path: PathTokenNetwork,
		decode: func(data json.RawMessage, _ int64) (err error) {
			rows, err = decodeTokenNetworks(data)
			return err
		}})
	return rows, err
}

// TokenNetwork is one row of GET /v3/public/tokenNetwork: one network a token
// can be deposited and withdrawn on.
type TokenNetwork struct {
	Token             string
	Network           string
	Protocol          string
	Name              string
	MinimumWithdrawal decimal.Decimal
	WithdrawalFee     decimal.Decimal
	AllowDeposit      bool
	AllowWithdraw     bool
}

// decodeTokenNetworks decodes the data of GET /v3/public/tokenNetwork: rows
// in the v3 camelCase (allowWithdraw, withdrawalFee) or the v1 snake_case
// (allow_withdraw, withdrawal_fee), numbers as JSON numbers or strings. A
// field a metric needs that a row lacks is an error naming the row and the
// field: exported as 0 or false it would read as a free withdrawal or a
// disabled network.
func decodeTokenNetworks(data json.RawMessage) ([]TokenNetwork, error) {
	_, rows, err := decodeDataRows(data, "token networks", "rows")
	if err != nil {
		return nil, err
	}
	out := make([]TokenNetwork, 0, len(rows))
	for i, raw := range rows {
		r, err := rowFields("rows", i, raw)
		if err != nil {
			return nil, err
		}
		n, err := decodeTokenNetwork(r)
		if err != nil {
			return nil, fmt.Errorf("row %d%s: %w", i, n.rowName(), err)
		}
		out = append(out, n)
	}
	return out, nil
}

// rowName names a row in errors by what of it was read.
func (n TokenNetwork) rowName() string {
	switch {
	case n.Token != "" && n.Network != "":
		return fmt.Sprintf(" (token %s, network %s)", n.Token, n.Network)
	case n.Token != "":
		return fmt.Sprintf(" (token %s)", n.Token)
	}
	return ""
}

func decodeTokenNetwork(f fields) (TokenNetwork, error) {
	var n TokenNetwork
	var err error
	if n.Token, err = f.requiredText("token"); err != nil {
		return n, err
	}
	if n.Network, err = f.requiredText("network"); err != nil {
		return n, err
	}
	if n.Protocol, _, err = f.text("protocol"); err != nil {
		return n, err
	}
	if n.Name, _, err = f.text("name"); err != nil {
		return n, err
	}
	for _, d := range []struct {
		name string
		dst  *decimal.Decimal
	}{{"minimumWithdrawal", &n.MinimumWithdrawal}, {"withdrawalFee", &n.WithdrawalFee}} {
		v, err := f.requiredDecimal(d.name)
		if err != nil {
			return n, err
		}
		*d.dst = v
	}
	for _, b := range []struct {
		name string
		dst  *bool
	}{{"allowDeposit", &n.AllowDeposit}, {"allowWithdraw", &n.AllowWithdraw}} {
		if *b.dst, err = f.requiredFlag(b.name); err != nil {
			return n, err
		}
	}
	return n, nil
}
