package fakeexchange

import "strconv"

// PathTokenNetwork is the public list of networks each token moves on.
const PathTokenNetwork = "/v3/public/tokenNetwork"

// EndpointTokenNetwork names the token network endpoint in faults and the
// request log.
const EndpointTokenNetwork = "token_network"

var tokenNetworkRoute = route{path: PathTokenNetwork, name: EndpointTokenNetwork, public: true,
	serve: func(e *Exchange, _, rawQuery string) (any, *apiError) { return e.serveTokenNetwork(rawQuery) }}

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
