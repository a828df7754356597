package fakeexchange

import (
	"strconv"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

func init() { addRoute(endpoint.TokenNetwork, tokenNetworks.route()) }

// tokenNetworks answer data.rows in the docs' camelCase, or in the v1
// snake_case (allow_withdraw, withdrawal_fee) that public clients read when
// the scenario spells bodies so; numbers are strings unless the scenario
// sends JSON numbers. An event replaces a row, adds one or removes one; the
// unreadable row, token UNREADABLE on network NET1, 2, ..., has no
// allowWithdraw.
var tokenNetworks = &rowsEndpoint[TokenNetworkRow]{name: endpoint.TokenNetwork, section: "token_networks", event: "token_network",
	under: "rows", change: replace,
	scenario: func(s *Scenario, _ Account) []TokenNetworkRow { return s.TokenNetworks },
	unreadable: func(e *Exchange, i int) any {
		return without(e.render(TokenNetworkRow{Token: "UNREADABLE", Network: "NET" + strconv.Itoa(i+1), MinimumWithdrawal: "1", WithdrawalFee: "0"}), "allowWithdraw")
	},
	demo: demoTokenNetworks,
}

// TokenNetworkRow is one row of the token network endpoint. Decimal fields
// hold exact text; flags are 0 or 1.
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
	if r.AllowDeposit != 0 && r.AllowDeposit != 1 {
		return fieldErr("allow_deposit", "must be 0 or 1")
	}
	if r.AllowWithdraw != 0 && r.AllowWithdraw != 1 {
		return fieldErr("allow_withdraw", "must be 0 or 1")
	}
	return nil
}

// SetTokenNetworks replaces every token network row; unlike a scenario's,
// they may repeat a row, as the exchange does.
func (e *Exchange) SetTokenNetworks(rows []TokenNetworkRow) {
	_ = tokenNetworks.withRows(e, "set token networks", "", func(s *[]stored[TokenNetworkRow]) error {
		*s = nil
		for _, r := range rows {
			*s = append(*s, stored[TokenNetworkRow]{row: r})
		}
		return nil
	})
}

// demoTokenNetworks are ten token networks, WOO on BSC with withdrawals
// disabled and SOL on SOL with deposits disabled.
func demoTokenNetworks(s *Scenario) {
	tn := func(token, network, protocol, name, minW, fee string, dep, wd int) TokenNetworkRow {
		return TokenNetworkRow{Token: token, Network: network, Protocol: protocol, Name: name,
			MinimumWithdrawal: minW, WithdrawalFee: fee, AllowDeposit: dep, AllowWithdraw: wd}
	}
	s.TokenNetworks = []TokenNetworkRow{
		tn("USDT", "ETH", "ERC20", "Ethereum", "10.00000000", "1.50000000", 1, 1),
		tn("USDT", "TRON", "TRC20", "Tron", "2.00000000", "1.00000000", 1, 1),
		tn("USDT", "BSC", "BEP20", "BNB Smart Chain", "2.00000000", "0.30000000", 1, 1),
		tn("USDT", "SOL", "SPL", "Solana", "2.00000000", "0.50000000", 1, 1),
		tn("BTC", "BTC", "BTC", "Bitcoin", "0.00100000", "0.00020000", 1, 1),
		tn("ETH", "ETH", "ERC20", "Ethereum", "0.01000000", "0.00150000", 1, 1),
		tn("ETH", "ARB", "ERC20", "Arbitrum One", "0.00500000", "0.00010000", 1, 1),
		tn("WOO", "ETH", "ERC20", "Ethereum", "50.00000000", "20.00000000", 1, 1),
		tn("WOO", "BSC", "BEP20", "BNB Smart Chain", "10.00000000", "1.00000000", 1, 0),
		tn("SOL", "SOL", "SOL", "Solana", "0.10000000", "0.01000000", 0, 1),
	}
}
