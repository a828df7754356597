package fakeexchange

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

func init() {
	p := accountTransfers
	p.source = func(e *Exchange, a *accountState, _ time.Time) []AccountTransfer {
		rows := e.transfersOf(a.name)
		for i := range rows {
			rows[i].from, rows[i].to = e.resolved(rows[i].from), e.resolved(rows[i].to)
		}
		return rows
	}
	// A transfer an event made COMPLETED writes its legs, moving balances.
	p.changed = func(e *Exchange, a *accountState, s stored[AccountTransfer]) { e.legs(sides(a.name, s), true) }
	r := p.route()
	validateAccount, validateEvent, seedAccount := r.validateAccount, r.validateEvent, r.seedAccount
	r.validateAccount = func(s *Scenario, a Account) error {
		names := scenarioAccounts(s)
		for i, t := range a.AccountTransfers {
			if err := t.counterpartyErr(a.Name, names); err != nil {
				return fmt.Errorf("account_transfers[%d].%w", i, err)
			}
		}
		return validateAccount(s, a)
	}
	r.validateEvent = func(s *Scenario, ev Event, accounts map[string]bool) error {
		if c := ev.AccountTransfer; c != nil {
			if err := c.Row.counterpartyErr(c.Account, accounts); err != nil {
				return validateEventAccount("account_transfer", c.Account, accounts, err)
			}
		}
		return validateEvent(s, ev, accounts)
	}
	// The legs of a completed transfer are written, without moving balances,
	// for each side once it is added.
	r.seedAccount = func(e *Exchange, st *accountState, a Account, created time.Time) {
		seedAccount(e, st, a, created)
		for _, t := range e.transfersOf(st.name) {
			e.legs(t, false)
		}
	}
	addRoute(endpoint.TransferHistory, r)
}

// accountTransfers answer as the docs example: a paged history listed by both
// sides, newest first, held back by late listing; times in wallet_time_unit.
// An event adds a transfer to its account's or replaces the one of its id
// (keeping its creation time unless set), updated then. The unreadable row
// (id 900000001, 2, ...) has a createdTime that is not a time.
var accountTransfers = &rowsEndpoint[AccountTransfer]{name: endpoint.TransferHistory, section: "account_transfers",
	event: "account_transfer", change: replace, paged: true, late: true,
	history:  func(t AccountTransfer) int64 { return t.CreatedTime },
	scenario: func(_ *Scenario, a Account) []AccountTransfer { return a.AccountTransfers },
	defaults: func(t AccountTransfer) AccountTransfer { t.Status = cmp.Or(t.Status, "COMPLETED"); return t },
	place: func(old *AccountTransfer, t AccountTransfer, at time.Time) AccountTransfer {
		if t.CreatedAgo != 0 {
			t.CreatedTime, t.CreatedAgo = at.Add(-t.CreatedAgo).UnixMilli(), 0
		}
		if old != nil {
			t.CreatedTime = cmp.Or(t.CreatedTime, old.CreatedTime)
		}
		t.CreatedTime = cmp.Or(t.CreatedTime, at.UnixMilli())
		return t
	},
	unreadable: func(e *Exchange, i int) any {
		t := AccountTransfer{ID: 900_000_001 + int64(i), Token: "USDT", Amount: "1", Status: "COMPLETED",
			from: party{ApplicationID: "app-unreadable"}, to: party{ApplicationID: "app-elsewhere"}, updated: e.now().UnixMilli()}
		return e.with(e.render(t), "createdTime", "yesterday")
	},
}

// AccountTransfer is a transfer to or from another account of the owner; once
// COMPLETED it writes the SUB_ACCOUNT_TRANSFER record of each scenario side
// (negative when sending).
type AccountTransfer struct {
	ID     int64  `yaml:"id" wire:"id,integer,key"`
	Token  string `yaml:"token" wire:"token,required"`
	Amount string `yaml:"amount" wire:"amount,decimal,required"`
	// Status is COMPLETED by default; any value is served as given.
	Status string `yaml:"status" wire:"status"`
	// from and to are the sides as listed.
	from party `wire:"from"`
	to   party `wire:"to"`
	// Direction is out (the default: from this account) or in.
	Direction string `yaml:"direction"`
	// Counterparty is the other account when it is the scenario's; otherwise
	// the counterparty fields describe an account not watched.
	Counterparty              string `yaml:"counterparty"`
	CounterpartyApplicationID string `yaml:"counterparty_application_id"`
	CounterpartyAccountName   string `yaml:"counterparty_account_name"`
	// CreatedTime is Unix ms; CreatedAgo, set instead, is before New.
	CreatedTime int64         `yaml:"created_time" wire:"createdTime,wallet_time"`
	CreatedAgo  time.Duration `yaml:"created_ago"`
	updated     int64         `wire:"updatedTime,wallet_time"`
}

// party is a side of a transfer: a scenario account (name), or another.
type party struct {
	name          string
	ApplicationID string `wire:"applicationId"`
	AccountName   string `wire:"accountName"`
}

func (t AccountTransfer) check() error {
	d, _ := parseAmount(t.Amount) // a decimal: validated first
	return cmp.Or(fieldErrIf(t.ID < 0, "id", "must be positive"),
		fieldErrIf(t.Direction != "" && t.Direction != "out" && t.Direction != "in", "direction", "must be out or in, got %q", t.Direction),
		fieldErrIf((t.Counterparty == "") == (t.CounterpartyApplicationID == ""), "counterparty",
			"set either counterparty (a scenario account) or counterparty_application_id"),
		createdErr(t.CreatedTime, t.CreatedAgo),
		fieldErrIf(!d.IsPositive(), "amount", "must be positive, got %q", t.Amount))
}

// counterpartyErr checks that account's transfer is to another of accounts.
func (t AccountTransfer) counterpartyErr(account string, accounts map[string]bool) error {
	switch {
	case t.Counterparty != "" && !accounts[t.Counterparty]:
		return fieldErr("counterparty", "unknown account %q", t.Counterparty)
	case t.Counterparty == account:
		return fieldErr("counterparty", "an account does not transfer to itself")
	}
	return nil
}

// scenarioAccounts are the names of the scenario's accounts.
func scenarioAccounts(s *Scenario) map[string]bool {
	names := map[string]bool{}
	for _, a := range s.Accounts {
		names[a.Name] = true
	}
	return names
}

// sides is owner's stored transfer with its sides named and its update time:
// its event's, or its creation when set by New.
func sides(owner string, s stored[AccountTransfer]) AccountTransfer {
	t := s.row
	t.updated = t.CreatedTime
	if !s.since.IsZero() {
		t.updated = s.since.UnixMilli()
	}
	t.from = party{name: owner}
	t.to = party{name: t.Counterparty, ApplicationID: t.CounterpartyApplicationID, AccountName: t.CounterpartyAccountName}
	if t.Direction == "in" {
		t.from, t.to = t.to, t.from
	}
	return t
}

// transfersOf are the transfers account is a side of, of every account added;
// mu held or e owned.
func (e *Exchange) transfersOf(account string) []AccountTransfer {
	var out []AccountTransfer
	for _, owner := range slices.Sorted(maps.Keys(e.accounts)) {
		for _, s := range *accountTransfers.rowsOf(e, e.accounts[owner]) {
			if t := sides(owner, s); t.from.name == account || t.to.name == account {
				out = append(out, t)
			}
		}
	}
	return out
}

// resolved is p as the exchange names it, once accounts are added; mu held.
func (e *Exchange) resolved(p party) party {
	if p.name == "" {
		return p
	}
	p.ApplicationID, p.AccountName = "app-"+p.name, p.name
	if a, ok := e.accounts[p.name]; ok && a.accountName != "" {
		p.AccountName = a.accountName
	}
	return p
}

// legs writes the history records of a completed transfer for each side that
// is an account added, once, moving balances when move; mu held or e owned.
func (e *Exchange) legs(t AccountTransfer, move bool) {
	for i, p := range []party{t.from, t.to} {
		amount := t.Amount
		if i == 0 {
			amount = "-" + amount
		}
		// Ids of their own, far above any scenario's, one per side.
		rec := HistoryRecord{ID: 7_000_000_000_000 + 2*t.ID + int64(i), Type: "SUB_ACCOUNT_TRANSFER", Token: t.Token,
			Amount: amount, Timestamp: t.updated}
		if a, ok := e.accounts[p.name]; ok && t.Status == "COMPLETED" && !a.keys[recordKey(rec, e.s.SharedIDs)] {
			_ = e.appendLocked("transfer "+strconv.FormatInt(t.ID, 10), a, []HistoryRecord{rec}, move, time.Time{}) // valid, new
		}
	}
}
