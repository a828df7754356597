package fakeexchange

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// EndpointTransferHistory is the endpoint's name in the endpoint table (endpoint.All).
const EndpointTransferHistory = endpoint.TransferHistory

// PathTransferHistory is the endpoint's path in the endpoint table.
var PathTransferHistory = endpoint.PathOf(endpoint.TransferHistory)

func init() {
	addRoute(endpoint.TransferHistory, route{serve: (*Exchange).serveTransferHistory,
		validateAccount: validateAccountTransfers,
		validateEvent:   validateAccountTransferEvent,
		seedAccount:     (*Exchange).seedAccountTransfers,
		apply:           applyAccountTransferEvent,
		unreadable:      (*Exchange).unreadableAccountTransfer,
		demo:            demoAccountTransfers,
	})
}

// AccountTransfer is a transfer of an account to or from another account
// of the same owner, as the account lists it. A transfer with a scenario
// account is listed by both, and once COMPLETED writes the matching
// SUB_ACCOUNT_TRANSFER token history record of each (negative on the
// sending side).
type AccountTransfer struct {
	ID     int64  `yaml:"id"`
	Token  string `yaml:"token"`
	Amount string `yaml:"amount"`
	// Status is COMPLETED (the default) or any other value, served as
	// given.
	Status string `yaml:"status"`
	// Direction is out (the default: from this account) or in.
	Direction string `yaml:"direction"`
	// Counterparty is the other account when it is one of the scenario's;
	// otherwise CounterpartyApplicationID (and CounterpartyAccountName,
	// when it has one) describe an account the exporter does not watch.
	Counterparty              string `yaml:"counterparty"`
	CounterpartyApplicationID string `yaml:"counterparty_application_id"`
	CounterpartyAccountName   string `yaml:"counterparty_account_name"`
	// CreatedTime is Unix milliseconds; CreatedAgo, when set instead,
	// places the transfer this long before New was called.
	CreatedTime int64         `yaml:"created_time"`
	CreatedAgo  time.Duration `yaml:"created_ago"`
}

// party is one side of a stored transfer: a scenario account (name), or
// another.
type party struct{ name, applicationID, accountName string }

// storedTransfer is a transfer as both its sides list it.
type storedTransfer struct {
	id                   int64
	token, amount        string
	status               string
	from, to             party
	createdMs, updatedMs int64
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
	if t := ev.AccountTransfer; t != nil {
		return validateEventAccount("account_transfer", t.Account, accounts, cmp.Or(t.rowOnly(), t.Row.validate(accounts)))
	}
	return nil
}

// resolved is p as the exchange names it: a scenario account by its
// application id and account name, known once every account is added.
// The caller holds mu.
func (e *Exchange) resolved(p party) party {
	if p.name == "" {
		return p
	}
	p.applicationID, p.accountName = "app-"+p.name, p.name
	if a, ok := e.accounts[p.name]; ok && a.accountName != "" {
		p.accountName = a.accountName
	}
	return p
}

// stored is t of account as both sides list it, created at created.
func (e *Exchange) stored(account string, t AccountTransfer, created time.Time) storedTransfer {
	other := party{applicationID: t.CounterpartyApplicationID, accountName: t.CounterpartyAccountName}
	if t.Counterparty != "" {
		other = party{name: t.Counterparty}
	}
	s := storedTransfer{id: t.ID, token: t.Token, amount: t.Amount, status: cmp.Or(t.Status, "COMPLETED"),
		from: party{name: account}, to: other, createdMs: t.CreatedTime}
	if t.Direction == "in" {
		s.from, s.to = s.to, s.from
	}
	if t.CreatedAgo != 0 {
		s.createdMs = created.Add(-t.CreatedAgo).UnixMilli()
	}
	if s.createdMs == 0 {
		s.createdMs = created.UnixMilli()
	}
	s.updatedMs = s.createdMs
	return s
}

// legs writes the SUB_ACCOUNT_TRANSFER token history records of a
// completed transfer for each side that is a scenario account already
// added (only; the other side writes its own when added), at its update
// time, moving balances when move. The caller holds mu or owns e.
func (e *Exchange) legs(t storedTransfer, only string, move bool) error {
	for i, p := range []party{t.from, t.to} {
		a, ok := e.accounts[p.name]
		if !ok || (only != "" && p.name != only) {
			continue
		}
		amount := t.amount
		if i == 0 {
			amount = "-" + amount
		}
		// Ids of their own, far above any scenario's, one per side.
		rec := HistoryRecord{ID: 7_000_000_000_000 + 2*t.id + int64(i), Type: "SUB_ACCOUNT_TRANSFER", Token: t.token,
			Amount: amount, Timestamp: t.updatedMs}
		if err := e.appendLocked("transfer "+strconv.FormatInt(t.id, 10), a, []HistoryRecord{rec}, move, time.Time{}); err != nil {
			return err
		}
	}
	return nil
}

// seedAccountTransfers stores the account's transfers and writes the
// history of each completed one: the account's own leg, and its
// counterparty's when that account was added before; the legs of
// transfers stored by accounts added before this one are written too.
func (e *Exchange) seedAccountTransfers(st *accountState, a Account, created time.Time) error {
	for _, t := range e.accountTransfers {
		if t.status == "COMPLETED" && (t.from.name == st.name || t.to.name == st.name) {
			if err := e.legs(t, st.name, false); err != nil {
				return err
			}
		}
	}
	for _, at := range a.AccountTransfers {
		t := e.stored(a.Name, at, created)
		e.accountTransfers = append(e.accountTransfers, t)
		if t.status == "COMPLETED" {
			if err := e.legs(t, "", false); err != nil {
				return err
			}
		}
	}
	return nil
}

// applyAccountTransferEvent adds the event's transfer to its account's,
// or replaces the transfer with its id (keeping its creation time unless
// the event sets one), updated now; a transfer that becomes COMPLETED
// writes its token history records and moves the balances of its scenario
// accounts.
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
	s.updatedMs = now.UnixMilli()
	i := slices.IndexFunc(e.accountTransfers, func(o storedTransfer) bool { return o.id == t.ID })
	wasCompleted := false
	if i >= 0 {
		old := e.accountTransfers[i]
		wasCompleted = old.status == "COMPLETED"
		if t.CreatedTime == 0 && t.CreatedAgo == 0 {
			s.createdMs = old.createdMs
		}
		e.accountTransfers[i] = s
	} else {
		e.accountTransfers = append(e.accountTransfers, s)
	}
	if s.status == "COMPLETED" && !wasCompleted {
		return e.legs(s, "", true)
	}
	return nil
}

// serveTransferHistory answers as the docs example: id a number, amount a
// string, times strings of seconds with a fraction (wallet_time_unit),
// from and to objects; camelCase meta unless snake_case_meta.
func (e *Exchange) serveTransferHistory(account, rawQuery string) (any, *apiError) {
	hq, aerr := readHistoryQuery(rawQuery)
	if aerr != nil {
		return nil, aerr
	}
	page, size, window := hq.page, hq.size, hq.window
	now := e.now()
	e.mu.Lock()
	defer e.mu.Unlock()
	var all []storedTransfer
	for _, t := range e.accountTransfers {
		if (t.from.name != account && t.to.name != account) || !window.contains(t.createdMs) {
			continue
		}
		// Late listing holds a share of transfers back as it does history
		// records, counted from their creation.
		if e.s.LateListing.Selects(t.id) && now.Before(time.UnixMilli(t.createdMs).Add(e.s.LateListing.Delay)) {
			continue
		}
		all = append(all, t)
	}
	slices.SortFunc(all, func(x, y storedTransfer) int {
		return cmp.Or(cmp.Compare(y.createdMs, x.createdMs), cmp.Compare(y.id, x.id))
	})
	total := e.listLength(EndpointTransferHistory, len(all))
	from, to, served := e.pageRange(total, page, size)
	rows := e.listRows(EndpointTransferHistory, len(all), from, to, func(i int) any {
		return e.accountTransferRow(all[i], e.walletTime(all[i].createdMs))
	})
	return pageData{Rows: rows, Meta: e.meta(total, served, size)}, nil
}

// accountTransferRow is t with the fields of the docs example, created at
// the time given.
func (e *Exchange) accountTransferRow(t storedTransfer, created any) object {
	side := func(p party) object {
		p = e.resolved(p)
		o := object{}
		e.set(o, "applicationId", p.applicationID)
		e.set(o, "accountName", p.accountName)
		return o
	}
	o := object{}
	e.set(o, "id", e.integer(t.id))
	e.set(o, "token", t.token)
	e.set(o, "amount", e.decimalField(t.amount))
	e.set(o, "status", t.status)
	e.set(o, "from", side(t.from))
	e.set(o, "to", side(t.to))
	e.set(o, "createdTime", created)
	e.set(o, "updatedTime", e.walletTime(t.updatedMs))
	return o
}

// unreadableAccountTransfer is a transfer out, id 900000001, 2, ...,
// whose createdTime is not a time.
func (e *Exchange) unreadableAccountTransfer(i int) any {
	t := storedTransfer{id: 900_000_001 + int64(i), token: "USDT", amount: "1", status: "COMPLETED",
		from: party{applicationID: "app-unreadable"}, to: party{applicationID: "app-elsewhere"}, updatedMs: e.now().UnixMilli()}
	return e.accountTransferRow(t, "yesterday")
}

// demoAccountTransfers are transfers of "main": 250 USDT to "sub" half an
// hour ago, 0.01 BTC back from it, and 100 USDT to an account the demo
// does not watch (Treasury) pending for five minutes.
func demoAccountTransfers(s *Scenario) {
	s.account("main").AccountTransfers = []AccountTransfer{
		{ID: 5001, Token: "USDT", Amount: "250", Counterparty: "sub", CreatedAgo: 30 * time.Minute},
		{ID: 5002, Token: "BTC", Amount: "0.01", Direction: "in", Counterparty: "sub", CreatedAgo: 20 * time.Minute},
		{ID: 5003, Token: "USDT", Amount: "100", Status: "PENDING", CounterpartyApplicationID: "app-treasury",
			CounterpartyAccountName: "Treasury", CreatedAgo: 5 * time.Minute},
	}
}
