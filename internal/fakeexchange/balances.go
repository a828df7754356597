package fakeexchange

import (
	"cmp"
	"errors"
	"slices"
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

func init() {
	r := balances.route()
	validate, apply := r.validateEvent, r.apply
	r.serve = serveBalances
	r.validateEvent = func(s *Scenario, ev Event, accounts map[string]bool) error {
		if err := validate(s, ev, accounts); err != nil || ev.UnrecordedBalanceMove == nil {
			return err
		}
		m := ev.UnrecordedBalanceMove
		return validateEventAccount("unrecorded_balance_move", m.Account, accounts, m.validate())
	}
	// An event sets or removes a balance, then moves one with no record: money
	// a reconciliation with the history must notice.
	r.apply = func(e *Exchange, ev Event) error {
		err := apply(e, ev)
		if m := ev.UnrecordedBalanceMove; m != nil {
			err = errors.Join(err, e.withAccount("unrecorded balance move", m.Account, func(a *accountState) error {
				if err := m.validate(); err != nil {
					return err
				}
				d, _ := parseAmount(m.Amount) // validated
				a.moveBalance(m.Token, d)
				return nil
			}))
		}
		return err
	}
	addRoute(endpoint.Balances, r)
}

// balances answer data.holding in token order with the userId, stamped when
// read; a token filter serves its row alone. Appended records move holdings in
// the same step. The unreadable row (UNREADABLE1, ...) has a holding that is
// not a number.
var balances = &rowsEndpoint[Balance]{name: endpoint.Balances, section: "balances", event: "balance",
	sorted: true, change: replace,
	scenario: func(_ *Scenario, a Account) []Balance { return a.Balances },
	servedAt: func(_ *Exchange, _ *accountState, b Balance, _, now time.Time) Balance {
		b.timestamp = now.UnixMilli()
		return b
	},
	unreadable: func(e *Exchange, i int) any {
		return e.with(wireObject{{"token", "UNREADABLE" + strconv.Itoa(i+1)}}, "holding", "1.2.3")
	},
}

// Balance is one token's balance: exact decimal text, empty left out.
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

// BalanceMoveEvent moves a balance by a signed Amount with no history record.
type BalanceMoveEvent struct {
	Account string `yaml:"account"`
	Token   string `yaml:"token"`
	// Amount is the signed exact decimal added to the balance.
	Amount string `yaml:"amount"`
}

func (m BalanceMoveEvent) validate() error {
	return cmp.Or(fieldErrIf(m.Token == "", "token", "must not be empty"), amountErr(m.Amount))
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

func amountErr(text string) error {
	_, err := parseAmount(text)
	return err
}

// moveBalance adds d to token's holding and available balance, if set; a new
// token gets a row of d. The caller holds mu.
func (a *accountState) moveBalance(token string, d decimal.Decimal) {
	rows := balances.rowsOf(nil, a)
	i, found := balances.find(*rows, Balance{Token: token})
	if !found {
		*rows = slices.Insert(*rows, i, stored[Balance]{row: Balance{Token: token, Holding: d.String(), AvailableBalance: d.String()}})
		return
	}
	b := &(*rows)[i].row
	b.Holding = addDecimal(b.Holding, d)
	if b.AvailableBalance != "" {
		b.AvailableBalance = addDecimal(b.AvailableBalance, d)
	}
}

// addDecimal is text (decimal, or empty for 0) plus d.
func addDecimal(text string, d decimal.Decimal) string {
	v, _ := decimal.NewFromString(cmp.Or(text, "0"))
	return v.Add(d).String()
}

func serveBalances(e *Exchange, account, rawQuery string) (any, *apiError) {
	q, aerr := parseQuery(rawQuery, "token")
	if aerr != nil {
		return nil, aerr
	}
	token, hasToken := q["token"]
	e.mu.Lock()
	defer e.mu.Unlock()
	a := e.accounts[account]
	// Read with the balances, so the answer holds what is dated up to its
	// stamp.
	now := e.now()
	a.balancesAt = max(a.balancesAt, now.UnixMilli())
	listed := slices.DeleteFunc(balances.rowsNow(e, a, now), func(b Balance) bool { return hasToken && b.Token != token })
	total := e.listLength(endpoint.Balances, len(listed))
	if hasToken {
		total = len(listed) // its one row at most: no unreadable row
	}
	rows := e.listRows(endpoint.Balances, len(listed), 0, total, func(i int) any { return e.render(listed[i]) })
	return stamped{data: e.with(wireObject{{"holding", rows}}, "userId", e.integer(a.userID)), ms: now.UnixMilli()}, nil
}
