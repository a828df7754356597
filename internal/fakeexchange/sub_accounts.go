package fakeexchange

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// EndpointSubAccounts is the endpoint's name in the endpoint table (endpoint.All).
const EndpointSubAccounts = endpoint.SubAccounts

// PathSubAccounts is the endpoint's path in the endpoint table.
var PathSubAccounts = endpoint.PathOf(endpoint.SubAccounts)

func init() {
	addRoute(endpoint.SubAccounts, route{serve: (*Exchange).serveSubAccounts,
		validateAccount: validateSubAccountsAccount,
		validateEvent:   validateSubAccountsEvent,
		seedAccount:     seedSubAccountsAccount,
		apply:           applySubAccountsEvent,
		unreadable:      (*Exchange).unreadableSubAccount,
		demo:            demoSubAccounts,
	})
}

// SubAccount is one row of the sub-accounts endpoint.
type SubAccount struct {
	ApplicationID string `yaml:"application_id"`
	Name          string `yaml:"name"`
	// CreatedTime is Unix milliseconds; 0 leaves the field out.
	CreatedTime int64 `yaml:"created_time"`
}

func (s SubAccount) validate() error {
	if s.ApplicationID == "" {
		return fieldErr("application_id", "must not be empty")
	}
	if s.CreatedTime < 0 {
		return fieldErr("created_time", "must not be negative")
	}
	return nil
}

// SubAccountEvent adds a sub-account to an account.
type SubAccountEvent struct {
	Account    string `yaml:"account"`
	SubAccount `yaml:",inline"`
}

// errSubAccountKey is the answer to a sub-account's key: only a main
// account may list sub-accounts.
var errSubAccountKey = &apiError{status: http.StatusUnauthorized, code: -1002, message: "the API key of a sub-account may not read sub-accounts"}

// AddSubAccount adds a sub-account to account; its application id must be
// new.
func (e *Exchange) AddSubAccount(account string, s SubAccount) error {
	if err := s.validate(); err != nil {
		return fmt.Errorf("add sub-account: %w", err)
	}
	return e.withAccount("add sub-account", account, func(a *accountState) error {
		for _, old := range a.subAccounts {
			if old.ApplicationID == s.ApplicationID {
				return fmt.Errorf("add sub-account: account %q already has %s", account, s.ApplicationID)
			}
		}
		a.subAccounts = append(a.subAccounts, s)
		return nil
	})
}

// serveSubAccounts answers as the docs show: data.rows of applicationId,
// name and createdTime, no meta, no query parameter taken. The scenario's
// PagedSubAccounts takes page and size and adds meta instead.
func (e *Exchange) serveSubAccounts(account, rawQuery string) (any, *apiError) {
	var allowed []string
	if e.pagedSubAccounts {
		allowed = []string{"page", "size"}
	}
	q, aerr := parseQuery(rawQuery, allowed...)
	if aerr != nil {
		return nil, aerr
	}
	page, size, aerr := paging(q)
	if aerr != nil {
		return nil, aerr
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	a := e.accounts[account]
	if a.isSubAccount {
		return nil, errSubAccountKey
	}
	total := e.listLength(EndpointSubAccounts, len(a.subAccounts))
	from, to, served := 0, total, page
	if e.pagedSubAccounts {
		from, to, served = e.pageRange(total, page, size)
	}
	rows := e.listRows(EndpointSubAccounts, len(a.subAccounts), from, to, func(i int) any { return e.subAccountRow(a.subAccounts[i]) })
	if e.pagedSubAccounts {
		return pageData{Rows: rows, Meta: e.meta(total, served, size)}, nil
	}
	return rowsData{Rows: rows}, nil
}

func (e *Exchange) subAccountRow(s SubAccount) object {
	o := object{}
	e.set(o, "applicationId", s.ApplicationID)
	// The v1 answer names the sub-account "account".
	if e.snakeBodies {
		e.set(o, "account", s.Name)
	} else {
		e.set(o, "name", s.Name)
	}
	if s.CreatedTime != 0 {
		e.set(o, "createdTime", e.walletTime(s.CreatedTime))
	}
	return o
}

// unreadableSubAccount is a sub-account row without applicationId, named
// unreadable-1, 2, ...
func (e *Exchange) unreadableSubAccount(i int) any {
	return e.subAccountRow(SubAccount{Name: "unreadable-" + strconv.Itoa(i+1)})
}

// validateSubAccountsAccount checks an account's sub-accounts: each valid,
// and no application id twice.
func validateSubAccountsAccount(_ *Scenario, a Account) error {
	apps := map[string]bool{}
	for i, s := range a.SubAccounts {
		if err := s.validate(); err != nil {
			return fmt.Errorf("sub_accounts[%d].%w", i, err)
		}
		if apps[s.ApplicationID] {
			return fieldErr(fmt.Sprintf("sub_accounts[%d].application_id", i), "duplicate %q", s.ApplicationID)
		}
		apps[s.ApplicationID] = true
	}
	return nil
}

func validateSubAccountsEvent(_ *Scenario, ev Event, accounts map[string]bool) error {
	if s := ev.AddSubAccount; s != nil {
		return validateEventAccount("add_sub_account", s.Account, accounts, s.validate())
	}
	return nil
}

func seedSubAccountsAccount(_ *Exchange, st *accountState, a Account, _ time.Time) error {
	st.isSubAccount, st.subAccounts = a.IsSubAccount, append([]SubAccount(nil), a.SubAccounts...)
	return nil
}

func applySubAccountsEvent(e *Exchange, ev Event) error {
	if s := ev.AddSubAccount; s != nil {
		return e.AddSubAccount(s.Account, s.SubAccount)
	}
	return nil
}

// demoSubAccounts gives "main" one sub-account and makes "sub" one, whose
// key may not list sub-accounts.
func demoSubAccounts(s *Scenario) {
	s.account("main").SubAccounts = []SubAccount{{ApplicationID: "6b43de5c-0955-4887-9862-d84e4689f9fe", Name: "Sub-1", CreatedTime: 1700000000000}}
	s.account("sub").IsSubAccount = true
}
