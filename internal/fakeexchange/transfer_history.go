package fakeexchange

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

func init() {
	r := accountTransfers.route()
	r.validateAccount, r.validateEvent = validateAccountTransfers, validateAccountTransferEvent
	r.seedAccount, r.apply = (*Exchange).seedAccountTransfers, applyAccountTransferEvent
	addRoute(endpoint.TransferHistory, r)
}

// accountTransfers answer as the docs example: a paged history listed by both
// sides, newest first, held back by late listing; times in wallet_time_unit.
// The unreadable row (id 900000001, 2, ...) has a createdTime that is not a
// time.
var accountTransfers = &rowsEndpoint[storedTransfer]{name: endpoint.TransferHistory, paged: true, late: true,
	history: func(t storedTransfer) int64 { return t.Created },
	source: func(e *Exchange, a *accountState, _ time.Time) []storedTransfer {
		return slices.DeleteFunc(slices.Clone(e.accountTransfers), func(t storedTransfer) bool { return t.From.name != a.name && t.To.name != a.name })
	},
	live: func(e *Exchange, _ *accountState, t storedTransfer, _, _ time.Time) storedTransfer {
		t.From, t.To = e.resolved(t.From), e.resolved(t.To)
		return t
	},
	unreadable: func(e *Exchange, i int) any {
		t := storedTransfer{ID: 900_000_001 + int64(i), Token: "USDT", Amount: "1", Status: "COMPLETED",
			From: party{ApplicationID: "app-unreadable"}, To: party{ApplicationID: "app-elsewhere"}, Updated: e.now().UnixMilli()}
		return e.with(e.render(t), "createdTime", "yesterday")
	},
}

// AccountTransfer is a transfer to or from another account of the owner; once
// COMPLETED it writes the SUB_ACCOUNT_TRANSFER record of each scenario side
// (negative when sending).
type AccountTransfer struct {
	ID     int64  `yaml:"id"`
	Token  string `yaml:"token"`
	Amount string `yaml:"amount"`
	// Status is COMPLETED by default; any value is served as given.
	Status string `yaml:"status"`
	// Direction is out (the default: from this account) or in.
	Direction string `yaml:"direction"`
	// Counterparty is the other account when it is the scenario's; otherwise
	// the counterparty fields describe an account not watched.
	Counterparty              string `yaml:"counterparty"`
	CounterpartyApplicationID string `yaml:"counterparty_application_id"`
	CounterpartyAccountName   string `yaml:"counterparty_account_name"`
	// CreatedTime is Unix ms; CreatedAgo, set instead, is before New.
	CreatedTime int64         `yaml:"created_time"`
	CreatedAgo  time.Duration `yaml:"created_ago"`
}

// party is a side of a transfer: a scenario account (name), or another.
type party struct {
	name          string
	ApplicationID string `wire:"applicationId"`
	AccountName   string `wire:"accountName"`
}

// storedTransfer is a transfer as both its sides list it.
type storedTransfer struct {
	ID      int64  `wire:"id,integer,key"`
	Token   string `wire:"token"`
	Amount  string `wire:"amount,decimal"`
	Status  string `wire:"status"`
	From    party  `wire:"from"`
	To      party  `wire:"to"`
	Created int64  `wire:"createdTime,wallet_time"`
	Updated int64  `wire:"updatedTime,wallet_time"`
}

func (t AccountTransfer) validate(accounts map[string]bool) error {
	switch {
	case t.ID <= 0:
		return fieldErr("id", "must be positive")
	case t.Token == "":
		return fieldErr("token", "must not be empty")
	case t.Direction != "" && t.Direction != "out" && t.Direction != "in":
		return fieldErr("direction", "must be out or in, got %q", t.Direction)
	case (t.Counterparty == "") == (t.CounterpartyApplicationID == ""):
		return fieldErr("counterparty", "set either counterparty (a scenario account) or counterparty_application_id")
	case t.Counterparty != "" && !accounts[t.Counterparty]:
		return fieldErr("counterparty", "unknown account %q", t.Counterparty)
	case t.CreatedTime < 0 || t.CreatedAgo < 0:
		return fieldErr("created_time", "must not be negative")
	case t.CreatedTime != 0 && t.CreatedAgo != 0:
		return fieldErr("created_ago", "set either created_time or created_ago")
	}
	d, err := parseAmount(t.Amount)
	if err == nil && !d.IsPositive() {
		err = fieldErr("amount", "must be positive, got %q", t.Amount)
	}
	return err
}

// scenarioAccounts are the names of the scenario's accounts.
func scenarioAccounts(s *Scenario) map[string]bool {
	names := map[string]bool{}
	for _, a := range s.Accounts {
		names[a.Name] = true
	}
	return names
}

func validateAccountTransfers(s *Scenario, a Account) error {
	ids := map[int64]bool{}
	names := scenarioAccounts(s)
	for i, t := range a.AccountTransfers {
		if err := t.validate(names); err != nil {
			return fmt.Errorf("account_transfers[%d].%w", i, err)
		}
		if t.Counterparty == a.Name {
			return fieldErr(fmt.Sprintf("account_transfers[%d].counterparty", i), "an account does not transfer to itself")
		}
		if ids[t.ID] {
			return fieldErr(fmt.Sprintf("account_transfers[%d].id", i), "duplicate id %d", t.ID)
		}
		ids[t.ID] = true
	}
	return nil
}

func validateAccountTransferEvent(_ *Scenario, ev Event, accounts map[string]bool) error {
	t := ev.AccountTransfer
	switch {
	case t == nil:
		return nil
	case t.Replace || t.Remove:
		return fieldErr("account_transfer.remove", "the endpoint takes neither replace nor remove")
	}
	return validateEventAccount("account_transfer", t.Account, accounts, t.Row.validate(accounts))
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

// stored is t of account as both sides list it, created at created.
func (e *Exchange) stored(account string, t AccountTransfer, created time.Time) storedTransfer {
	other := party{ApplicationID: t.CounterpartyApplicationID, AccountName: t.CounterpartyAccountName}
	if t.Counterparty != "" {
		other = party{name: t.Counterparty}
	}
	s := storedTransfer{ID: t.ID, Token: t.Token, Amount: t.Amount, Status: cmp.Or(t.Status, "COMPLETED"),
		From: party{name: account}, To: other, Created: t.CreatedTime}
	if t.Direction == "in" {
		s.From, s.To = s.To, s.From
	}
	if t.CreatedAgo != 0 {
		s.Created = created.Add(-t.CreatedAgo).UnixMilli()
	}
	s.Created = cmp.Or(s.Created, created.UnixMilli())
	s.Updated = s.Created
	return s
}

// legs writes the history records of a completed transfer for each side that is
// an account already added (only, when set), moving balances when move. The
// caller holds mu or owns e.
func (e *Exchange) legs(t storedTransfer, only string, move bool) error {
	for i, p := range []party{t.From, t.To} {
		a, ok := e.accounts[p.name]
		if !ok || (only != "" && p.name != only) {
			continue
		}
		amount := t.Amount
		if i == 0 {
			amount = "-" + amount
		}
		// Ids of their own, far above any scenario's, one per side.
		rec := HistoryRecord{ID: 7_000_000_000_000 + 2*t.ID + int64(i), Type: "SUB_ACCOUNT_TRANSFER", Token: t.Token,
			Amount: amount, Timestamp: t.Updated}
		if err := e.appendLocked("transfer "+strconv.FormatInt(t.ID, 10), a, []HistoryRecord{rec}, move, time.Time{}); err != nil {
			return err
		}
	}
	return nil
}

// seedAccountTransfers stores the account's transfers and writes the legs of
// every completed transfer of the accounts added so far.
func (e *Exchange) seedAccountTransfers(st *accountState, a Account, created time.Time) error {
	for _, t := range e.accountTransfers {
		if t.Status == "COMPLETED" && (t.From.name == st.name || t.To.name == st.name) {
			if err := e.legs(t, st.name, false); err != nil {
				return err
			}
		}
	}
	for _, at := range a.AccountTransfers {
		t := e.stored(a.Name, at, created)
		e.accountTransfers = append(e.accountTransfers, t)
		if t.Status == "COMPLETED" {
			if err := e.legs(t, "", false); err != nil {
				return err
			}
		}
	}
	return nil
}

// applyAccountTransferEvent adds a transfer or replaces the one of its id
// (keeping its creation time unless set), updated now; one that becomes
// COMPLETED writes its legs, moving balances.
func applyAccountTransferEvent(e *Exchange, ev Event) error {
	if ev.AccountTransfer == nil {
		return nil
	}
	account, t := ev.AccountTransfer.Account, ev.AccountTransfer.Row
	e.mu.Lock()
	defer e.mu.Unlock()
	names := map[string]bool{}
	for n := range e.accounts {
		names[n] = true
	}
	if err := t.validate(names); err != nil {
		return fmt.Errorf("account transfer event: %w", err)
	}
	if _, err := e.accountLocked("account transfer event", account); err != nil {
		return err
	}
	now := e.now()
	s := e.stored(account, t, now)
	s.Updated = now.UnixMilli()
	i := slices.IndexFunc(e.accountTransfers, func(o storedTransfer) bool { return o.ID == t.ID })
	if i < 0 {
		i, e.accountTransfers = len(e.accountTransfers), append(e.accountTransfers, storedTransfer{})
	}
	old := e.accountTransfers[i]
	if old.ID != 0 && t.CreatedTime == 0 && t.CreatedAgo == 0 {
		s.Created = old.Created
	}
	e.accountTransfers[i] = s
	if s.Status == "COMPLETED" && old.Status != "COMPLETED" {
		return e.legs(s, "", true)
	}
	return nil
}
