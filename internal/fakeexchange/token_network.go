package fakeexchange

import (
	"fmt"
	"strconv"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// EndpointTokenNetwork is the endpoint's name in the endpoint table (endpoint.All).
const EndpointTokenNetwork = endpoint.TokenNetwork

// PathTokenNetwork is the endpoint's path in the endpoint table.
var PathTokenNetwork = endpoint.PathOf(endpoint.TokenNetwork)

func init() {
	addRoute(endpoint.TokenNetwork, route{
		serve:         func(e *Exchange, _, rawQuery string) (any, *apiError) { return e.serveTokenNetwork(rawQuery) },
		validate:      validateTokenNetworks,
		validateEvent: validateTokenNetworkEvent,
		seed:          func(e *Exchange, s *Scenario) { e.networks = append([]TokenNetworkRow(nil), s.TokenNetworks...) },
		apply:         applyTokenNetworkEvent,
		unreadable:    (*Exchange).unreadableTokenNetwork,
		demo:          demoTokenNetworks,
	})
}

// TokenNetworkRow is one row of the token network endpoint. Decimal fields
// hold exact text; flags are 0 or 1.
type TokenNetworkRow struct {
	Token             string `yaml:"token"`
	Network           string `yaml:"network"`
	Protocol          string `yaml:"protocol"`
	Name              string `yaml:"name"`
	MinimumWithdrawal string `yaml:"minimum_withdrawal"`
	WithdrawalFee     string `yaml:"withdrawal_fee"`
	AllowDeposit      int    `yaml:"allow_deposit"`
	AllowWithdraw     int    `yaml:"allow_withdraw"`
}

// TokenNetworkPatch changes the fields that are set of the row matching
// Token and Network.
type TokenNetworkPatch struct {
	Token             string  `yaml:"token"`
	Network           string  `yaml:"network"`
	Protocol          *string `yaml:"protocol"`
	Name              *string `yaml:"name"`
	MinimumWithdrawal *string `yaml:"minimum_withdrawal"`
	WithdrawalFee     *string `yaml:"withdrawal_fee"`
	AllowDeposit      *int    `yaml:"allow_deposit"`
	AllowWithdraw     *int    `yaml:"allow_withdraw"`
}

// TokenNetworkRef names one token network row.
type TokenNetworkRef struct {
	Token   string `yaml:"token"`
	Network string `yaml:"network"`
}

// serveTokenNetwork answers data.rows in the docs' camelCase, or in the v1
// snake_case (allow_withdraw, withdrawal_fee) that public clients read when
// the scenario spells bodies so.
func (e *Exchange) serveTokenNetwork(rawQuery string) (any, *apiError) {
	if _, aerr := parseQuery(rawQuery); aerr != nil {
		return nil, aerr
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	n := len(e.networks)
	return rowsData{Rows: e.listRows(EndpointTokenNetwork, n, 0, e.listLength(EndpointTokenNetwork, n), func(i int) any {
		return e.tokenNetworkRow(e.networks[i])
	})}, nil
}

func (e *Exchange) tokenNetworkRow(n TokenNetworkRow) object {
	o := object{}
	e.set(o, "protocol", n.Protocol)
	e.set(o, "network", n.Network)
	e.set(o, "token", n.Token)
	e.set(o, "name", n.Name)
	e.set(o, "minimumWithdrawal", e.number(n.MinimumWithdrawal))
	e.set(o, "withdrawalFee", e.number(n.WithdrawalFee))
	e.set(o, "allowDeposit", e.number(strconv.Itoa(n.AllowDeposit)))
	e.set(o, "allowWithdraw", e.number(strconv.Itoa(n.AllowWithdraw)))
	return o
}

// unreadableTokenNetwork is a network row without allowWithdraw: token
// UNREADABLE on network NET1, NET2, ...
func (e *Exchange) unreadableTokenNetwork(i int) any {
	o := e.tokenNetworkRow(TokenNetworkRow{Token: "UNREADABLE", Network: "NET" + strconv.Itoa(i+1), MinimumWithdrawal: "1", WithdrawalFee: "0"})
	delete(o, "allowWithdraw")
	delete(o, "allow_withdraw")
	return o
}

func validateTokenNetwork(r TokenNetworkRow) error {
	if r.Token == "" {
		return fieldErr("token", "must not be empty")
	}
	if r.Network == "" {
		return fieldErr("network", "must not be empty")
	}
	if !decimalText.MatchString(r.MinimumWithdrawal) {
		return fieldErr("minimum_withdrawal", "not a decimal: %q", r.MinimumWithdrawal)
	}
	if !decimalText.MatchString(r.WithdrawalFee) {
		return fieldErr("withdrawal_fee", "not a decimal: %q", r.WithdrawalFee)
	}
	if r.AllowDeposit != 0 && r.AllowDeposit != 1 {
		return fieldErr("allow_deposit", "must be 0 or 1")
	}
	if r.AllowWithdraw != 0 && r.AllowWithdraw != 1 {
		return fieldErr("allow_withdraw", "must be 0 or 1")
	}
	return nil
}

func validatePatch(p TokenNetworkPatch) error {
	if p.Token == "" || p.Network == "" {
		return fieldErr("token", "token and network must be set")
	}
	var r TokenNetworkRow
	r.Token, r.Network, r.MinimumWithdrawal, r.WithdrawalFee = p.Token, p.Network, "0", "0"
	p.apply(&r)
	return validateTokenNetwork(r)
}

func (p TokenNetworkPatch) apply(r *TokenNetworkRow) {
	if p.Protocol != nil {
		r.Protocol = *p.Protocol
	}
	if p.Name != nil {
		r.Name = *p.Name
	}
	if p.MinimumWithdrawal != nil {
		r.MinimumWithdrawal = *p.MinimumWithdrawal
	}
	if p.WithdrawalFee != nil {
		r.WithdrawalFee = *p.WithdrawalFee
	}
	if p.AllowDeposit != nil {
		r.AllowDeposit = *p.AllowDeposit
	}
	if p.AllowWithdraw != nil {
		r.AllowWithdraw = *p.AllowWithdraw
	}
}

// validateTokenNetworks checks the scenario's token network rows and that
// no token network appears twice.
func validateTokenNetworks(s *Scenario) error {
	rows := map[TokenNetworkRef]bool{}
	for i, r := range s.TokenNetworks {
		if err := validateTokenNetwork(r); err != nil {
			return fmt.Errorf("token_networks[%d].%w", i, err)
		}
		ref := TokenNetworkRef{r.Token, r.Network}
		if rows[ref] {
			return fieldErr(fmt.Sprintf("token_networks[%d]", i), "duplicate token %s network %s", r.Token, r.Network)
		}
		rows[ref] = true
	}
	return nil
}

func validateTokenNetworkEvent(_ *Scenario, ev Event, _ map[string]bool) error {
	if tn := ev.TokenNetwork; tn != nil {
		if err := validatePatch(*tn); err != nil {
			return fmt.Errorf("token_network.%w", err)
		}
	}
	if tn := ev.AddTokenNetwork; tn != nil {
		if err := validateTokenNetwork(*tn); err != nil {
			return fmt.Errorf("add_token_network.%w", err)
		}
	}
	if tn := ev.RemoveTokenNetwork; tn != nil && (tn.Token == "" || tn.Network == "") {
		return fieldErr("remove_token_network", "token and network must be set")
	}
	return nil
}

func applyTokenNetworkEvent(e *Exchange, ev Event) error {
	if p := ev.TokenNetwork; p != nil {
		e.UpdateTokenNetwork(p.Token, p.Network, p.apply)
	}
	if r := ev.AddTokenNetwork; r != nil {
		row := *r
		e.UpdateTokenNetwork(r.Token, r.Network, func(t *TokenNetworkRow) { *t = row })
	}
	if r := ev.RemoveTokenNetwork; r != nil {
		e.RemoveTokenNetwork(r.Token, r.Network)
	}
	return nil
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
