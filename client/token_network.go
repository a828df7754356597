package client

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// TokenNetworks returns every token network listed, and the rows not read (a public endpoint).
func (c *Client) TokenNetworks(ctx context.Context) ([]TokenNetwork, []RejectedRow, error) {
	l, err := getData(ctx, c, request{op: "get token networks", endpoint: endpoint.TokenNetwork}, decodeTokenNetworks)
	return l.rows, c.onPage(l.rejected, 1), err
}

// TokenNetwork is one row of GET /v3/public/tokenNetwork: a token's network.
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

// decodeTokenNetworks reads data.rows[]. A row without a field a metric
// needs is rejected: as 0 or false it would read as a free withdrawal or a
// disabled network.
func decodeTokenNetworks(data json.RawMessage) (list[TokenNetwork], error) {
	return decodeDataList(data, "token networks", "rows", decodeTokenNetwork, TokenNetwork.rowName)
}

// rowName names a row by what of it was read.
func (n TokenNetwork) rowName() string {
	switch {
	case n.Token != "" && n.Network != "":
		return fmt.Sprintf("token %s network %s", n.Token, n.Network)
	case n.Token != "":
		return "token " + n.Token
	}
	return ""
}

func decodeTokenNetwork(f fields) (n TokenNetwork, err error) {
	err = f.read(need("token", &n.Token), need("network", &n.Network), may("protocol", &n.Protocol), may("name", &n.Name),
		need("minimumWithdrawal", &n.MinimumWithdrawal), need("withdrawalFee", &n.WithdrawalFee),
		need("allowDeposit", &n.AllowDeposit), need("allowWithdraw", &n.AllowWithdraw))
	return n, err
}
