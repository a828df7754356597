package fakeexchange

import (
	"fmt"
	"slices"
)

// PathCredentials lists the API keys of the account that signs the request.
const PathCredentials = "/v3/account/credentials"

// EndpointCredentials names the credentials endpoint in faults and the
// request log.
const EndpointCredentials = "credentials"

var credentialsEndpoint = endpoint{path: PathCredentials, name: EndpointCredentials, serve: (*Exchange).serveCredentials,
	unreadable: (*Exchange).unreadableCredential}

type credentialJSON struct {
	AccountName string   `json:"accountName"`
	UserID      any      `json:"userId"`
	APIKey      string   `json:"apiKey"`
	Permissions []string `json:"permissions"`
	AllowedIPs  []string `json:"allowedIPs,omitempty"`
}

// ListCredentials makes the credentials endpoint list rows for the account,
// in order, instead of its keys, which sign as before: a list that
// disagrees with the keys the exchange accepts, repeating a key or leaving
// out the one that signs, for clients that must not trust it blindly. Only
// the rows' keys, permissions and allowed IPs are used. nil lists the
// account's keys again.
func (e *Exchange) ListCredentials(account string, rows []Key) error {
	for i, k := range rows {
		if k.APIKey == "" {
			return fmt.Errorf("list credentials: rows[%d]: empty api key", i)
		}
	}
	return e.withAccount("list credentials", account, func(a *accountState) error {
		a.listed = nil
		for _, k := range rows {
			a.listed = append(a.listed, cloneKey(k))
		}
		if rows != nil && a.listed == nil {
			a.listed = []Key{}
		}
		return nil
	})
}

// listedKeys are the keys the credentials endpoint lists for a.
func (e *Exchange) listedKeys(a *accountState) []Key {
	if a.listed != nil {
		return a.listed
	}
	keys := make([]Key, 0, len(a.keyOrder))
	for _, k := range a.keyOrder {
		keys = append(keys, e.keys[k].key)
	}
	return keys
}

func (e *Exchange) serveCredentials(account, rawQuery string) (any, *apiError) {
	q, aerr := parseQuery(rawQuery, "page", "size")
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
	listed := e.listedKeys(a)
	total := e.listLength(EndpointCredentials, len(listed))
	from, to, served := e.pageRange(total, page, size)
	rows := e.listRows(EndpointCredentials, len(listed), from, to, func(i int) any {
		key := listed[i]
		return credentialJSON{
			AccountName: a.accountName, UserID: e.integer(a.userID), APIKey: key.APIKey,
			Permissions: append(make([]string, 0, len(key.Permissions)), key.Permissions...),
			AllowedIPs:  slices.Clone(key.AllowedIPs),
		}
	})
	return pageData{Rows: rows, Meta: e.meta(total, served, size)}, nil
}

// unreadableCredential is a key row without apiKey.
func (e *Exchange) unreadableCredential(i int) any {
	return object{"accountName": "unreadable", "userId": e.integer(int64(i + 1)), "permissions": []string{"READ"}}
}
