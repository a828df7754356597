package fakeexchange

import (
	"cmp"
	"strconv"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

func init() { addRoute(endpoint.Wallet, wallet.route()) }

// wallet answers as captured: a paged history, newest first, times in
// wallet_time_unit, meta in snake_case, token, type, tokenSide and status
// filters. The unreadable row (unreadable-1, ...) has a createdTime that is not
// a time.
var wallet = &rowsEndpoint[Transfer]{name: endpoint.Wallet, section: "transfers", event: "transfer",
	change: replace, paged: true, filters: []string{"token", "type", "tokenSide", "status"},
	history:  func(t Transfer) int64 { return t.CreatedTime },
	scenario: func(_ *Scenario, a Account) []Transfer { return a.Transfers },
	defaults: func(t Transfer) Transfer { t.Type = cmp.Or(t.Type, "BALANCE"); return t },
	query: func(e *Exchange, _ string, q *historyQuery) *apiError {
		if typ, ok := q.params["type"]; ok && typ != "BALANCE" && typ != "COLLATERAL" {
			return errInvalidParam("invalid type: %q", typ)
		}
		if e.s.WalletIgnoresTimeFilter {
			q.window = timeWindow{}
		}
		return nil
	},
	// The real wallet history spells its meta in snake_case.
	snakeMeta: func(e *Exchange) bool { return !e.s.CamelCaseWalletMeta },
	// A replacement keeps the creation time unless it sets one and is updated
	// then; a new transfer without one is created then.
	place: func(old *Transfer, t Transfer, at time.Time) Transfer {
		if t.CreatedAgo != 0 {
			t.CreatedTime, t.CreatedAgo = at.Add(-t.CreatedAgo).UnixMilli(), 0
		}
		if old != nil {
			t.CreatedTime, t.UpdatedTime = cmp.Or(t.CreatedTime, old.CreatedTime), at.UnixMilli()
		}
		t.CreatedTime = cmp.Or(t.CreatedTime, at.UnixMilli())
		return t
	},
	servedAt: func(_ *Exchange, a *accountState, t Transfer, _, _ time.Time) Transfer {
		t.externalID, t.applicationID = t.ID, "app-"+a.name
		t.UpdatedTime = cmp.Or(t.UpdatedTime, t.CreatedTime)
		t.FeeAmount = cmp.Or(t.FeeAmount, "0")
		return t
	},
	unreadable: func(e *Exchange, i int) any {
		t := Transfer{ID: "unreadable-" + strconv.Itoa(i+1), applicationID: "app-", Token: "USDT", Type: "BALANCE", Side: "WITHDRAW",
			Amount: "1", FeeAmount: "0", Status: "PROCESSING"}
		t.externalID = t.ID
		return e.with(e.render(t), "createdTime", "yesterday")
	},
}

// Transfer is a deposit or withdrawal, its fields in the captured answer's order.
type Transfer struct {
	// CreatedTime is Unix ms; CreatedAgo, set instead, is before New.
	CreatedTime int64 `yaml:"created_time" wire:"createdTime,wallet_time"`
	// UpdatedTime is Unix milliseconds; 0 serves CreatedTime.
	UpdatedTime   int64  `yaml:"updated_time" wire:"updatedTime,wallet_time"`
	ID            string `yaml:"id" wire:"id,key"`
	externalID    string `wire:"externalId"`
	applicationID string `wire:"applicationId"`
	// Token is a network-token id (TRON_USDT) or a plain token, as the real exchange sends it.
	Token string `yaml:"token" wire:"token,required"`
	// Address is served as targetAddress, Tag (memo) as extra.
	Address string `yaml:"address" wire:"targetAddress,always"`
	_       string `wire:"sourceAddress,always"` // "" in every answer seen
	Tag     string `yaml:"tag" wire:"extra,always"`
	// Type is BALANCE (the default) or COLLATERAL.
	Type string `yaml:"type" wire:"type"`
	// Side is DEPOSIT or WITHDRAW.
	Side      string `yaml:"side" wire:"tokenSide"`
	Amount    string `yaml:"amount" wire:"amount,decimal"`
	_         string `wire:"txId,always"` // "" in every answer seen
	FeeToken  string `yaml:"fee_token" wire:"feeToken,always"`
	FeeAmount string `yaml:"fee_amount" wire:"feeAmount,decimal,always"`
	// Status is NEW, CONFIRMING, PROCESSING, COMPLETED, CANCELED, FAILED, or
	// other.
	Status string `yaml:"status" wire:"status,required"`
	// null in every answer seen
	_          *bool         `wire:"confirmingThreshold,always"`
	_          *bool         `wire:"confirmedNumber,always"`
	CreatedAgo time.Duration `yaml:"created_ago"`
}

func (t Transfer) check() error {
	return cmp.Or(fieldErrIf(t.Side != "DEPOSIT" && t.Side != "WITHDRAW", "side", "must be DEPOSIT or WITHDRAW, got %q", t.Side),
		fieldErrIf(t.Type != "BALANCE" && t.Type != "COLLATERAL", "type", "must be BALANCE or COLLATERAL, got %q", t.Type),
		createdErr(t.CreatedTime, t.CreatedAgo))
}

// createdErr checks a creation time set as a time or (ago) before New.
func createdErr(created int64, ago time.Duration) error {
	return cmp.Or(fieldErrIf(created < 0 || ago < 0, "created_time", "must not be negative"),
		fieldErrIf(created != 0 && ago != 0, "created_ago", "set either created_time or created_ago"))
}
