package fakeexchange

import (
	"fmt"
	"slices"
	"strings"
)

// PathBalances lists the token balances of the account that signs the
// request.
const PathBalances = "/v3/asset/balances"

// EndpointBalances names the balances endpoint in faults and the request
// log.
const EndpointBalances = "balances"

var balancesRoute = route{path: PathBalances, name: EndpointBalances, serve: (*Exchange).serveBalances}

// Balance is one token of the balances endpoint. Amounts are exact decimal
// text; an empty one is left out of the answer.
type Balance struct {
	Token            string `yaml:"token"`
	Holding          string `yaml:"holding"`
	Frozen           string `yaml:"frozen"`
	Staked           string `yaml:"staked"`
	AvailableBalance string `yaml:"available_balance"`
	MarkPrice        string `yaml:"mark_price"`
}

func (b Balance) validate() error {
	if b.Token == "" {
		return fieldErr("token", "must not be empty")
	}
	for name, v := range map[string]string{"holding": b.Holding, "frozen": b.Frozen, "staked": b.Staked,
		"available_balance": b.AvailableBalance, "mark_price": b.MarkPrice} {
		if err := validateDecimal(name, v); err != nil {
			return err
		}
	}
	return nil
}

// BalanceEvent sets one token's balance of an account.
type BalanceEvent struct {
	Account string `yaml:"account"`
	Balance `yaml:",inline"`
}

// SetBalance adds the token's balance to the account, or replaces it.
func (e *Exchange) SetBalance(account string, b Balance) error {
	if err := b.validate(); err != nil {
		return fmt.Errorf("set balance: %w", err)
	}
	return e.withAccount("set balance", account, func(a *accountState) error {
		a.setBalance(b)
		return nil
	})
}

// RemoveBalance takes the token out of the account's balances, as when the
// account no longer holds it; it reports whether the token was listed.
func (e *Exchange) RemoveBalance(account, token string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	a, ok := e.accounts[account]
	if !ok {
		return false
	}
	n := len(a.balances)
	a.balances = slices.DeleteFunc(a.balances, func(b Balance) bool { return b.Token == token })
	return len(a.balances) < n
}

func (a *accountState) setBalance(b Balance) {
	i, found := slices.BinarySearchFunc(a.balances, b.Token, func(x Balance, token string) int { return strings.Compare(x.Token, token) })
	if found {
		a.balances[i] = b
		return
	}
	a.balances = slices.Insert(a.balances, i, b)
}

func (e *Exchange) serveBalances(account, rawQuery string) (any, *apiError) {
	q, aerr := parseQuery(rawQuery, "token")
	if aerr != nil {
		return nil, aerr
	}
	token, hasToken := q["token"]
	now := e.now().UnixMilli()
	e.mu.Lock()
	defer e.mu.Unlock()
	a := e.accounts[account]
	rows := make([]object, 0, len(a.balances))
	for _, b := range a.balances {
		if hasToken && b.Token != token {
			continue
		}
		o := object{"token": b.Token}
		for _, f := range []struct{ name, text string }{
			{"holding", b.Holding}, {"frozen", b.Frozen}, {"staked", b.Staked},
			{"availableBalance", b.AvailableBalance}, {"markPrice", b.MarkPrice},
		} {
			e.set(o, f.name, e.decimalField(f.text))
		}
		e.set(o, "timestamp", e.rowTime(now))
		rows = append(rows, o)
	}
	o := object{"holding": rows}
	e.set(o, "userId", e.integer(a.userID))
	return o, nil
}
