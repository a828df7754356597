package fakeexchange

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// EndpointWallet is the endpoint's name in the endpoint table (endpoint.All).
const EndpointWallet = endpoint.Wallet

// PathWalletHistory is the endpoint's path in the endpoint table.
var PathWalletHistory = endpoint.PathOf(endpoint.Wallet)

func init() {
	addRoute(endpoint.Wallet, route{serve: (*Exchange).serveWalletHistory,
		validateAccount: validateWalletAccount,
		validateEvent:   validateWalletEvent,
		seedAccount:     seedWalletAccount,
		apply:           applyWalletEvent,
		unreadable:      (*Exchange).unreadableTransfer,
		demo:            demoWallet,
	})
}

// Transfer is one deposit or withdrawal of the wallet history endpoint.
type Transfer struct {
	ID string `yaml:"id"`
	// Token is what the live exchange sends: a network-token id such as
	// TRON_USDT (USDT on TRON), or a plain token.
	Token string `yaml:"token"`
	// Type is BALANCE (the default when empty: funds in or out of the
	// account) or COLLATERAL (funds moved between portfolios).
	Type string `yaml:"type"`
	// Side is DEPOSIT or WITHDRAW.
	Side   string `yaml:"side"`
	Amount string `yaml:"amount"`
	// Status is NEW, CONFIRMING, PROCESSING, COMPLETED, CANCELED, FAILED,
	// or any other value, served as given.
	Status string `yaml:"status"`
	// CreatedTime is Unix milliseconds; CreatedAgo, when set instead,
	// places the transfer this long before New was called.
	CreatedTime int64         `yaml:"created_time"`
	CreatedAgo  time.Duration `yaml:"created_ago"`
	// UpdatedTime is Unix milliseconds; 0 serves CreatedTime.
	UpdatedTime int64  `yaml:"updated_time"`
	FeeToken    string `yaml:"fee_token"`
	FeeAmount   string `yaml:"fee_amount"`
	// Address is served as targetAddress: a withdrawal's destination, a
	// deposit's own address. Tag is served as extra: the memo or
	// destination tag of the chains that use one.
	Address string `yaml:"address"`
	Tag     string `yaml:"tag"`
}

func (t Transfer) validate() error {
	switch {
	case t.ID == "":
		return fieldErr("id", "must not be empty")
	case t.Token == "":
		return fieldErr("token", "must not be empty")
	case t.Side != "DEPOSIT" && t.Side != "WITHDRAW":
		return fieldErr("side", "must be DEPOSIT or WITHDRAW, got %q", t.Side)
	case t.Status == "":
		return fieldErr("status", "must not be empty")
	case t.Type != "" && t.Type != "BALANCE" && t.Type != "COLLATERAL":
		return fieldErr("type", "must be BALANCE or COLLATERAL, got %q", t.Type)
	case t.CreatedTime < 0 || t.CreatedAgo < 0:
		return fieldErr("created_time", "must not be negative")
	case t.CreatedTime != 0 && t.CreatedAgo != 0:
		return fieldErr("created_ago", "set either created_time or created_ago")
	}
	if err := validateDecimal("amount", t.Amount); err != nil {
		return err
	}
	return validateDecimal("fee_amount", t.FeeAmount)
}

// putTransfer stores t, its relative creation time taken from created.
func (a *accountState) putTransfer(t Transfer, created, now time.Time) {
	if t.CreatedAgo != 0 {
		t.CreatedTime, t.CreatedAgo = created.Add(-t.CreatedAgo).UnixMilli(), 0
	}
	for i, old := range a.transfers {
		if old.ID == t.ID {
			if t.CreatedTime == 0 {
				t.CreatedTime = old.CreatedTime
			}
			t.UpdatedTime = now.UnixMilli()
			a.transfers[i] = t
			return
		}
	}
	if t.CreatedTime == 0 {
		t.CreatedTime = now.UnixMilli()
	}
	a.transfers = append(a.transfers, t)
}

// serveWalletHistory answers as captured live: times strings of seconds
// with a fraction (wallet_time_unit), meta in snake_case
// (camel_case_wallet_meta).
func (e *Exchange) serveWalletHistory(account, rawQuery string) (any, *apiError) {
	hq, aerr := readHistoryQuery(rawQuery, "token", "type", "tokenSide", "status")
	if aerr != nil {
		return nil, aerr
	}
	q, page, size, window := hq.params, hq.page, hq.size, hq.window
	if typ, ok := q["type"]; ok && typ != "BALANCE" && typ != "COLLATERAL" {
		return nil, errInvalidParam("invalid type: %q", typ)
	}
	if e.s.WalletIgnoresTimeFilter {
		window = timeWindow{}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	var all []Transfer
	for _, t := range e.accounts[account].transfers {
		if !window.contains(t.CreatedTime) || (q["type"] != "" && t.typeOrBalance() != q["type"]) ||
			(q["token"] != "" && t.Token != q["token"]) || (q["tokenSide"] != "" && t.Side != q["tokenSide"]) ||
			(q["status"] != "" && t.Status != q["status"]) {
			continue
		}
		all = append(all, t)
	}
	// Newest first, as the history endpoints serve.
	slices.SortFunc(all, func(x, y Transfer) int {
		return cmp.Or(cmp.Compare(y.CreatedTime, x.CreatedTime), cmp.Compare(y.ID, x.ID))
	})
	total := e.listLength(EndpointWallet, len(all))
	from, to, served := e.pageRange(total, page, size)
	rows := e.listRows(EndpointWallet, len(all), from, to, func(i int) any {
		t := all[i]
		return e.transferRow(account, t, e.walletTime(t.CreatedTime))
	})
	// The live wallet history spells its meta in snake_case.
	return pageData{Rows: rows, Meta: e.metaSpelt(e.s.SnakeCaseMeta || !e.s.CamelCaseWalletMeta, total, served, size)}, nil
}

// transferRow is t with the fields and their order of the live answer,
// created at the time given.
func (e *Exchange) transferRow(account string, t Transfer, created any) object {
	updated := t.UpdatedTime
	if updated == 0 {
		updated = t.CreatedTime
	}
	o := object{}
	e.set(o, "createdTime", created)
	e.set(o, "updatedTime", e.walletTime(updated))
	e.set(o, "id", t.ID)
	e.set(o, "externalId", t.ID)
	e.set(o, "applicationId", "app-"+account)
	e.set(o, "token", t.Token)
	e.setAlways(o, "targetAddress", t.Address)
	e.setAlways(o, "sourceAddress", "")
	e.setAlways(o, "extra", t.Tag)
	e.set(o, "type", t.typeOrBalance())
	e.set(o, "tokenSide", t.Side)
	e.set(o, "amount", e.decimalField(t.Amount))
	e.setAlways(o, "txId", "")
	e.setAlways(o, "feeToken", t.FeeToken)
	e.setAlways(o, "feeAmount", e.decimalField(cmp.Or(t.FeeAmount, "0")))
	e.set(o, "status", t.Status)
	e.setAlways(o, "confirmingThreshold", nil)
	e.setAlways(o, "confirmedNumber", nil)
	return o
}

// unreadableTransfer is a withdrawal in flight, id unreadable-1, 2, ...,
// whose createdTime is not a time.
func (e *Exchange) unreadableTransfer(i int) any {
	t := Transfer{ID: "unreadable-" + strconv.Itoa(i+1), Token: "USDT", Side: "WITHDRAW", Amount: "1", Status: "PROCESSING",
		CreatedTime: e.now().UnixMilli()}
	return e.transferRow("", t, "yesterday")
}

// typeOrBalance is the transfer's type, BALANCE when the scenario set none.
func (t Transfer) typeOrBalance() string { return cmp.Or(t.Type, "BALANCE") }

// validateWalletAccount checks an account's transfers: each valid, and no
// id twice.
func validateWalletAccount(_ *Scenario, a Account) error {
	ids := map[string]bool{}
	for i, t := range a.Transfers {
		if err := t.validate(); err != nil {
			return fmt.Errorf("transfers[%d].%w", i, err)
		}
		if ids[t.ID] {
			return fieldErr(fmt.Sprintf("transfers[%d].id", i), "duplicate id %q", t.ID)
		}
		ids[t.ID] = true
	}
	return nil
}

func validateWalletEvent(_ *Scenario, ev Event, accounts map[string]bool) error {
	if t := ev.Transfer; t != nil {
		return validateEventAccount("transfer", t.Account, accounts, cmp.Or(t.rowOnly(), t.Row.validate()))
	}
	return nil
}

// seedWalletAccount stores the account's transfers, created_ago counted
// from created.
func seedWalletAccount(_ *Exchange, st *accountState, a Account, created time.Time) error {
	for _, t := range a.Transfers {
		st.putTransfer(t, created, created)
	}
	return nil
}

// applyWalletEvent adds the event's transfer, or replaces the one with
// its id; a replacement keeps the creation time unless the event sets one,
// and is updated now. A new transfer without a creation time is created
// now: a test appends a withdrawal row at runtime this way.
func applyWalletEvent(e *Exchange, ev Event) error {
	t := ev.Transfer
	if t == nil {
		return nil
	}
	if err := t.Row.validate(); err != nil {
		return fmt.Errorf("transfer event: %w", err)
	}
	now := e.now()
	return e.withAccount("transfer event", t.Account, func(a *accountState) error {
		a.putTransfer(t.Row, now, now)
		return nil
	})
}

// demoWallet are three transfers of "main", their tokens network-token ids
// as the exchange sends them: a withdrawal stuck in PROCESSING for two
// hours, a deposit confirming and a withdrawal completed, each with its
// address.
func demoWallet(s *Scenario) {
	s.account("main").Transfers = []Transfer{
		{ID: "wd-1001", Token: "TRON_USDT", Side: "WITHDRAW", Amount: "300", Status: "PROCESSING", CreatedAgo: 2 * time.Hour, FeeToken: "USDT", FeeAmount: "1",
			Address: "TTsY9uu2Y3aBH1vSir1md7oRqZe7DscA4v"},
		{ID: "dp-1002", Token: "ARB_ETH", Side: "DEPOSIT", Amount: "0.05", Status: "CONFIRMING", CreatedAgo: 10 * time.Minute,
			Address: "0x31d64B3230f8baDD91dE1710A65DF536aF8f7cDa"},
		{ID: "wd-1003", Token: "BTC", Side: "WITHDRAW", Amount: "0.01", Status: "COMPLETED", CreatedAgo: 3 * time.Hour,
			Address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"},
	}
}
