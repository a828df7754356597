package fakeexchange

import (
	"fmt"
	"slices"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

func init() {
	r := credentials.route()
	r.validateEvent, r.apply = validateCredentialsEvent, applyCredentialsEvent
	addRoute(endpoint.Credentials, r)
}

// credentials answer data.rows of the account's keys, or of the rows
// ListCredentials set, a page at a time, camelCase whatever the scenario's
// spelling; an event changes a key's permissions or allowed IPs. The
// unreadable row has no apiKey.
var credentials = &rowsEndpoint[credential]{name: endpoint.Credentials, paged: true,
	source: func(e *Exchange, a *accountState, _ time.Time) []credential {
		keys := a.listed
		if keys == nil {
			for _, k := range a.keyOrder {
				keys = append(keys, e.keys[k].key)
			}
		}
		rows := make([]credential, 0, len(keys))
		for _, k := range keys {
			rows = append(rows, credential{AccountName: a.accountName, UserID: a.userID, APIKey: k.APIKey,
				Permissions: append([]string{}, k.Permissions...), AllowedIPs: slices.Clone(k.AllowedIPs)})
		}
		return rows
	},
	unreadable: func(e *Exchange, i int) any {
		return e.render(credential{AccountName: "unreadable", UserID: int64(i + 1), Permissions: []string{"READ"}})
	},
}

// credential is one row of the credentials endpoint: a key as listed, in
// camelCase whatever the scenario's spelling.
type credential struct {
	AccountName string   `wire:"accountName,always,snake=accountName"`
	UserID      int64    `wire:"userId,integer,always,snake=userId"`
	APIKey      string   `wire:"apiKey,snake=apiKey"`
	Permissions []string `wire:"permissions"`
	// AllowedIPs is left out for a key without a list, and [] for a key
	// whose list is empty, as the exchange may send it.
	AllowedIPs []string `wire:"allowedIPs,snake=allowedIPs"`
}

// KeyEvent changes an API key's permissions or allowed IPs, as its owner
// does in the exchange's console; the key keeps its secret and still signs.
// A field left out stays as it was; allowed_ips: [] lifts the restriction.
type KeyEvent struct {
	APIKey      string    `yaml:"api_key"`
	Permissions *[]string `yaml:"permissions"`
	AllowedIPs  *[]string `yaml:"allowed_ips"`
}

func (k KeyEvent) validate() error {
	if k.Permissions == nil && k.AllowedIPs == nil {
		return fieldErr("api_key", "sets neither permissions nor allowed_ips")
	}
	if k.AllowedIPs != nil {
		return validateIPs(*k.AllowedIPs)
	}
	return nil
}

func validateCredentialsEvent(s *Scenario, ev Event, _ map[string]bool) error {
	k := ev.UpdateKey
	if k == nil {
		return nil
	}
	known := false
	for _, a := range s.Accounts {
		known = known || slices.ContainsFunc(a.Keys, func(key Key) bool { return key.APIKey == k.APIKey })
	}
	if !known {
		return fieldErr("update_key.api_key", "not a key of the scenario") // the value may be secret-like: not echoed
	}
	if err := k.validate(); err != nil {
		return fmt.Errorf("update_key.%w", err)
	}
	return nil
}

func applyCredentialsEvent(e *Exchange, ev Event) error {
	k := ev.UpdateKey
	if k == nil {
		return nil
	}
	if err := k.validate(); err != nil {
		return fmt.Errorf("update key event: %w", err)
	}
	return e.UpdateKey(k.APIKey, func(key *Key) {
		if k.Permissions != nil {
			key.Permissions = append([]string{}, *k.Permissions...)
		}
		if k.AllowedIPs != nil {
			key.AllowedIPs = append([]string{}, *k.AllowedIPs...)
		}
	})
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
