package fakeexchange

import (
	"cmp"
	"strconv"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

func init() { addRoute(endpoint.TokenNetwork, tokenNetworks.route()) }

// tokenNetworks answer data.rows in the docs' camelCase or the v1 snake_case.
// The unreadable row (UNREADABLE on NET1, ...) has no allowWithdraw.
var tokenNetworks = &rowsEndpoint[TokenNetworkRow]{name: endpoint.TokenNetwork, section: "token_networks", event: "token_network",
	under: "rows", change: replace,
	scenario: func(s *Scenario, _ Account) []TokenNetworkRow { return s.TokenNetworks },
	unreadable: func(e *Exchange, i int) any {
		row := e.render(TokenNetworkRow{Token: "UNREADABLE", Network: "NET" + strconv.Itoa(i+1), MinimumWithdrawal: "1", WithdrawalFee: "0"})
		return row[:len(row)-1] // allowWithdraw, the last field
	},
}

// TokenNetworkRow is a token network: exact decimals, flags 0 or 1.
type TokenNetworkRow struct {
	Protocol          string `yaml:"protocol" wire:"protocol"`
	Network           string `yaml:"network" wire:"network,key"`
	Token             string `yaml:"token" wire:"token,key"`
	Name              string `yaml:"name" wire:"name"`
	MinimumWithdrawal string `yaml:"minimum_withdrawal" wire:"minimumWithdrawal,decimal,required"`
	WithdrawalFee     string `yaml:"withdrawal_fee" wire:"withdrawalFee,decimal,required"`
	AllowDeposit      int    `yaml:"allow_deposit" wire:"allowDeposit,decimal,always"`
	AllowWithdraw     int    `yaml:"allow_withdraw" wire:"allowWithdraw,decimal,always"`
}

func (r TokenNetworkRow) check() error {
	return cmp.Or(fieldErrIf(r.AllowDeposit != 0 && r.AllowDeposit != 1, "allow_deposit", "must be 0 or 1"),
		fieldErrIf(r.AllowWithdraw != 0 && r.AllowWithdraw != 1, "allow_withdraw", "must be 0 or 1"))
}
