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

type tokenNetworkData struct {
	Rows []tokenNetworkRow `json:"rows"`
}

type tokenNetworkRow struct {
	Protocol          string      `json:"protocol"`
	Network           string      `json:"network"`
	Token             string      `json:"token"`
	Name              string      `json:"name"`
	MinimumWithdrawal flexDecimal `json:"minimumWithdrawal"`
	WithdrawalFee     flexDecimal `json:"withdrawalFee"`
	AllowDeposit      flexBool    `json:"allowDeposit"`
	AllowWithdraw     flexBool    `json:"allowWithdraw"`
}

// decodeTokenNetworks decodes the data of GET /v3/public/tokenNetwork.
func decodeTokenNetworks(data json.RawMessage) ([]TokenNetwork, error) {
	var d tokenNetworkData
	if err := decodeData(data, &d); err != nil {
		return nil, err
	}
	out := make([]TokenNetwork, 0, len(d.Rows))
	for i, r := range d.Rows {
		if r.Token == "" || r.Network == "" {
			return nil, fmt.Errorf("row %d: missing token or network", i)
		}
		out = append(out, TokenNetwork{
			Token: r.Token, Network: r.Network, Protocol: r.Protocol, Name: r.Name,
			MinimumWithdrawal: r.MinimumWithdrawal.Decimal, WithdrawalFee: r.WithdrawalFee.Decimal,
			AllowDeposit: bool(r.AllowDeposit), AllowWithdraw: bool(r.AllowWithdraw),
		})
	}
	return out, nil
}
