package fakeexchange

import (
	"net/http"
	"strconv"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

func init() {
	r := subAccounts.route()
	// As the docs show: no meta, no query; PagedSubAccounts pages instead.
	r.serve = func(e *Exchange, account, rawQuery string) (any, *apiError) {
		if e.s.PagedSubAccounts {
			return subAccounts.servePage(e, account, rawQuery)
		}
		return subAccounts.serve(e, account, rawQuery)
	}
	addRoute(endpoint.SubAccounts, r)
}

// subAccounts are a main account's, in the order added. The unreadable row
// (unreadable-1, ...) has no applicationId.
var subAccounts = &rowsEndpoint[SubAccount]{name: endpoint.SubAccounts, section: "sub_accounts", event: "add_sub_account",
	under: "rows", change: add,
	query: func(e *Exchange, account string, _ *historyQuery) *apiError {
		if e.accounts[account].isSubAccount { // set by New alone: read without mu
			return errSubAccountKey
		}
		return nil
	},
	scenario:   func(_ *Scenario, a Account) []SubAccount { return a.SubAccounts },
	unreadable: func(e *Exchange, i int) any { return e.render(SubAccount{Name: "unreadable-" + strconv.Itoa(i+1)}) },
}

// SubAccount is a sub-account; the v1 answer names it "account".
type SubAccount struct {
	ApplicationID string `yaml:"application_id" wire:"applicationId,key"`
	Name          string `yaml:"name" wire:"name,snake=account"`
	// CreatedTime is Unix milliseconds; 0 leaves the field out.
	CreatedTime int64 `yaml:"created_time" wire:"createdTime,wallet_time"`
}

func (s SubAccount) check() error {
	return fieldErrIf(s.CreatedTime < 0, "created_time", "must not be negative")
}

// errSubAccountKey answers a sub-account's key: only a main account lists them.
var errSubAccountKey = &apiError{status: http.StatusUnauthorized, code: -1002, message: "the API key of a sub-account may not read sub-accounts"}
