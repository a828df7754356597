package fakeexchange

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// EndpointBalances is the endpoint's name in the endpoint table (endpoint.All).
const EndpointBalances = endpoint.Balances

// PathBalances is the endpoint's path in the endpoint table.
var PathBalances = endpoint.PathOf(endpoint.Balances)

func init() {
	addRoute(endpoint.Balances, route{serve: (*Exchange).serveBalances,
		validateAccount: func(_ *Scenario, a Account) error { return balanceRows.validateRows(a.Balances) },
		validateEvent:   validateBalancesEvent,
		seedAccount:     seedBalancesAccount,
		apply:           applyBalancesEvent,
		unreadable:      (*Exchange).unreadableBalance,
		demo:            demoBalances,
	})
}

// balanceRows checks a scenario's balances. Balances keep their own state,
// which the token history moves: every record appended moves its token's
// holding in the same step.
var balanceRows = &rowsEndpoint[Balance]{name: endpoint.Balances, section: "balances"}

// Balance is one token of the balances endpoint. Amounts are exact decimal
// text; an empty one is left out of the answer.
type Balance struct {
	Token            string `yaml:"token" wire:"token,key"`
	Holding          string `yaml:"holding" wire:"holding,decimal"`
	Frozen           string `yaml:"frozen" wire:"frozen,decimal"`
	Staked           string `yaml:"staked" wire:"staked,decimal"`
	AvailableBalance string `yaml:"available_balance" wire:"availableBalance,decimal"`
	MarkPrice        string `yaml:"mark_price" wire:"markPrice,decimal"`
	// timestamp is when the answer read it (Unix ms).
	timestamp int64 `wire:"timestamp,row_time"`
}

// setBalance adds b to the balances, or replaces the row of its token;
// remove takes that row out instead.
func (a *accountState) setBalance(b Balance, remove bool) error {
	i, found := a.balanceIndex(b.Token)
	switch {
	case remove && !found:
		return fmt.Errorf("no balance of token %s", b.Token)
	case remove:
		a.balances = slices.Delete(a.balances, i, i+1)
	case found:
		a.balances[i] = b
	default:
		a.balances = slices.Insert(a.balances, i, b)
	}
	return nil
}

// balanceIndex is where token's row is, or would be inserted, in the
// balances sorted by token.
func (a *accountState) balanceIndex(token string) (int, bool) {
	return slices.BinarySearchFunc(a.balances, token, func(x Balance, token string) int { return strings.Compare(x.Token, token) })
}

// BalanceMoveEvent moves one token's balance of an account with no history
// record.
type BalanceMoveEvent struct {
	Account string `yaml:"account"`
	Token   string `yaml:"token"`
	// Amount is the signed exact decimal added to the balance.
	Amount string `yaml:"amount"`
}

func (m BalanceMoveEvent) validate() error {
	if m.Token == "" {
		return fieldErr("token", "must not be empty")
	}
	if _, err := parseAmount(m.Amount); err != nil {
		return err
	}
	return nil
}

// parseAmount reads a signed exact decimal, as history amounts are written.
func parseAmount(text string) (decimal.Decimal, error) {
	if !decimalText.MatchString(text) {
		return decimal.Decimal{}, fieldErr("amount", "not a decimal: %q", text)
	}
	d, err := decimal.NewFromString(text)
	if err != nil {
		return decimal.Decimal{}, fieldErr("amount", "not a decimal: %q", text)
	}
	return d, nil
}

// moveBalance adds d exactly to token's holding (an empty one counts as 0)
// and, when the row has one, its available balance; a token without a row
// gets one holding d, all of it available. The caller holds mu.
func (a *accountState) moveBalance(token string, d decimal.Decimal) {
	i, found := a.balanceIndex(token)
	if !found {
		a.balances = slices.Insert(a.balances, i, Balance{Token: token, Holding: d.String(), AvailableBalance: d.String()})
		return
	}
	b := &a.balances[i]
	b.Holding = addDecimal(b.Holding, d)
	if b.AvailableBalance != "" {
		b.AvailableBalance = addDecimal(b.AvailableBalance, d)
	}
}

// addDecimal is text (validated decimal text, or empty for 0) plus d, as
// exact decimal text.
func addDecimal(text string, d decimal.Decimal) string {
	v, _ := decimal.NewFromString(cmp.Or(text, "0"))
	return v.Add(d).String()
}

func (e *Exchange) balanceRow(b Balance, now int64) any {
	b.timestamp = now
	return e.render(b)
}

// unreadableBalance is the balance of token UNREADABLE1, 2, ... with a
// holding that is not a number, a string in every reading.
func (e *Exchange) unreadableBalance(i int) any {
	return e.with(wireObject{{"token", "UNREADABLE" + strconv.Itoa(i+1)}}, "holding", "1.2.3")
}

func (e *Exchange) serveBalances(account, rawQuery string) (any, *apiError) {
	q, aerr := parseQuery(rawQuery, "token")
	if aerr != nil {
		return nil, aerr
	}
	token, hasToken := q["token"]
	e.mu.Lock()
	defer e.mu.Unlock()
	a := e.accounts[account]
	// Read with the balances, so the answer holds exactly the money of the
	// records dated up to its timestamp (see datedLocked).
	now := e.now().UnixMilli()
	a.balancesAt = max(a.balancesAt, now)
	var listed []Balance
	for _, b := range a.balances {
		if !hasToken || b.Token == token {
			listed = append(listed, b)
		}
	}
	total := e.listLength(EndpointBalances, len(listed))
	if hasToken {
		total = len(listed) // its one row at most: no unreadable row
	}
	rows := e.listRows(EndpointBalances, len(listed), 0, total, func(i int) any { return e.balanceRow(listed[i], now) })
	return stamped{data: e.with(wireObject{{"holding", rows}}, "userId", e.integer(a.userID)), ms: now}, nil
}

func seedBalancesAccount(_ *Exchange, st *accountState, a Account, _ time.Time) error {
	for _, b := range a.Balances {
		_ = st.setBalance(b, false) // validated: no error
	}
	return nil
}

func validateBalancesEvent(_ *Scenario, ev Event, accounts map[string]bool) error {
	if b := ev.Balance; b != nil {
		check := validateRow
		if b.Remove {
			check = validateRowKey
		}
		if err := validateEventAccount("balance", b.Account, accounts, check(b.Row)); err != nil {
			return err
		}
	}
	if m := ev.UnrecordedBalanceMove; m != nil {
		return validateEventAccount("unrecorded_balance_move", m.Account, accounts, m.validate())
	}
	return nil
}

// applyBalancesEvent sets or removes a balance, then moves one. A balance
// moved with no record is money the exchange does not explain, which a
// reconciliation of balances with the history must notice.
func applyBalancesEvent(e *Exchange, ev Event) error {
	var errs []error
	if b := ev.Balance; b != nil {
		errs = append(errs, e.withAccount("balance event", b.Account, func(a *accountState) error {
			if err := validateRow(b.Row); err != nil && !b.Remove {
				return err
			}
			return a.setBalance(b.Row, b.Remove)
		}))
	}
	if m := ev.UnrecordedBalanceMove; m != nil {
		errs = append(errs, e.withAccount("unrecorded balance move", m.Account, func(a *accountState) error {
			if err := m.validate(); err != nil {
				return err
			}
			d, _ := parseAmount(m.Amount) // validated
			a.moveBalance(m.Token, d)
			return nil
		}))
	}
	return errors.Join(errs...)
}

// demoBalances are two tokens of "main" and one of "sub".
func demoBalances(s *Scenario) {
	s.account("main").Balances = []Balance{
		{Token: "BTC", Holding: "0.04", Frozen: "0.01", Staked: "0", AvailableBalance: "0.03", MarkPrice: "65000.5"},
		{Token: "USDT", Holding: "2186.25", Frozen: "300", Staked: "100", AvailableBalance: "1786.25", MarkPrice: "1"},
	}
	s.account("sub").Balances = []Balance{{Token: "ETH", Holding: "1.5", Frozen: "0", Staked: "0", AvailableBalance: "1.5", MarkPrice: "3000"}}
}
