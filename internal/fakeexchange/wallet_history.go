package fakeexchange

import (
	"cmp"
	"fmt"
	"slices"
	"time"
)

// PathWalletHistory lists the deposits and withdrawals of the account that
// signs the request.
const PathWalletHistory = "/v3/asset/wallet/history"

// EndpointWallet names the wallet history endpoint in faults and the
// request log.
const EndpointWallet = "wallet"

var walletHistoryRoute = route{path: PathWalletHistory, name: EndpointWallet, serve: (*Exchange).serveWalletHistory}

// Transfer is one deposit or withdrawal of the wallet history endpoint.
type Transfer struct {
	ID    string `yaml:"id"`
	Token string `yaml:"token"`
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

// TransferEvent adds a transfer to an account, or replaces the one with its
// id (a status change).
type TransferEvent struct {
	Account  string `yaml:"account"`
	Transfer `yaml:",inline"`
}

// PutTransfer adds t to the account's wallet history, or replaces the
// transfer with its id; a replacement keeps the creation time unless t
// sets one, and is updated now.
func (e *Exchange) PutTransfer(account string, t Transfer) error {
	if err := t.validate(); err != nil {
		return fmt.Errorf("put transfer: %w", err)
	}
	now := e.now()
	e.mu.Lock()
	defer e.mu.Unlock()
	a, ok := e.accounts[account]
	if !ok {
		return fmt.Errorf("put transfer: unknown account %q", account)
	}
	a.putTransfer(t, now, now)
	return nil
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

func (e *Exchange) serveWalletHistory(account, rawQuery string) (any, *apiError) {
	q, aerr := parseQuery(rawQuery, "token", "type", "tokenSide", "status", "startTime", "endTime", "page", "size")
	if aerr != nil {
		return nil, aerr
	}
	page, size, aerr := paging(q)
	if aerr != nil {
		return nil, aerr
	}
	window, aerr := readTimeWindow(q)
	if aerr != nil {
		return nil, aerr
	}
	if e.walletIgnoresTime {
		window = timeWindow{}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	var all []Transfer
	for _, t := range e.accounts[account].transfers {
		if !window.contains(t.CreatedTime) ||
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
	from, to, served := e.pageRange(len(all), page, size)
	rows := make([]object, 0, to-from)
	for _, t := range all[from:to] {
		updated := t.UpdatedTime
		if updated == 0 {
			updated = t.CreatedTime
		}
		o := object{"id": t.ID, "token": t.Token, "status": t.Status}
		e.set(o, "tokenSide", t.Side)
		e.set(o, "amount", e.decimalField(t.Amount))
		e.set(o, "createdTime", e.rowTime(t.CreatedTime))
		e.set(o, "updatedTime", e.rowTime(updated))
		e.set(o, "feeToken", t.FeeToken)
		e.set(o, "feeAmount", e.decimalField(t.FeeAmount))
		e.set(o, "txId", "")
		rows = append(rows, o)
	}
	return pageData{Rows: rows, Meta: e.meta(len(all), served, size)}, nil
}
