package fakeexchange

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

func init() {
	r := credentials.route()
	r.validateEvent = func(s *Scenario, ev Event, accounts map[string]bool) error {
		if c := ev.Credentials; c != nil {
			if err := validateEventAccount("credentials", c.Account, accounts, listedErr(c)); err != nil {
				return err
			}
		}
		return validateKeyEvent(s, ev, accounts)
	}
	r.apply = func(e *Exchange, ev Event) error { return errors.Join(applyListedEvent(e, ev), applyKeyEvent(e, ev)) }
	addRoute(endpoint.Credentials, r)
}

// credentials answer data.rows of the account's keys (or a credentials event's)
// a page at a time, in camelCase. The unreadable row has no apiKey.
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

// credential is a key as listed, in camelCase whatever the scenario's spelling.
type credential struct {
	AccountName string   `wire:"accountName,always,snake=accountName"`
	UserID      int64    `wire:"userId,integer,always,snake=userId"`
	APIKey      string   `wire:"apiKey,snake=apiKey"`
	Permissions []string `wire:"permissions"`
	// AllowedIPs is left out without a list, [] for an empty one.
	AllowedIPs []string `wire:"allowedIPs,snake=allowedIPs"`
}

// validateKeyEvent checks a key event: a key, a change, a secret for a new key.
func validateKeyEvent(s *Scenario, ev Event, accounts map[string]bool) error {
	c := ev.Key
	if c == nil {
		return nil
	}
	known := false
	for _, a := range s.Accounts {
		known = known || slices.ContainsFunc(a.Keys, func(k Key) bool { return k.APIKey == c.Row.APIKey })
	}
	err := keyChangeErr(c)
	if err == nil && !known && !c.Remove && c.Row.APISecret == "" {
		err = fieldErr("api_secret", "must not be empty for a key the scenario does not have")
	}
	return validateEventAccount("key", c.Account, accounts, err)
}

func keyChangeErr(c *Change[Key]) error {
	switch {
	case c.Row.APIKey == "":
		return fieldErr("api_key", "must not be empty")
	case c.Remove:
		return nil
	case c.Row.APISecret == "" && c.Row.Permissions == nil && c.Row.AllowedIPs == nil:
		return fieldErr("api_key", "sets neither api_secret, permissions nor allowed_ips")
	}
	return validateIPs(c.Row.AllowedIPs)
}

// applyKeyEvent adds a key, changes what the event sets of it (allowed_ips: []
// lifts the restriction) or with replace all of it, or revokes it.
func applyKeyEvent(e *Exchange, ev Event) error {
	c := ev.Key
	if c == nil {
		return nil
	}
	if err := keyChangeErr(c); err != nil {
		return fmt.Errorf("key event: %w", err)
	}
	return e.withAccount("key event", c.Account, func(a *accountState) error {
		ref, listed := e.keys[c.Row.APIKey]
		switch {
		case listed && ref.account != a.name:
			return fmt.Errorf("key event: the key is another account's")
		case c.Remove && !listed:
			return fmt.Errorf("key event: account %q has no such key", a.name)
		case c.Remove:
			delete(e.keys, c.Row.APIKey)
			a.keyOrder = slices.DeleteFunc(a.keyOrder, func(k string) bool { return k == c.Row.APIKey })
			return nil
		}
		k := c.Row
		if listed && !c.Replace {
			k = ref.key
			patchRow(&k, c.Row)
		}
		if err := validateKey(k, map[string]bool{}); err != nil {
			return fmt.Errorf("key event: %w", err)
		}
		if !listed {
			a.keyOrder = append(a.keyOrder, k.APIKey)
		}
		e.keys[k.APIKey] = keyRef{account: a.name, key: cloneKey(k)}
		return nil
	})
}

func listedErr(c *Change[Key]) error {
	if c.All == c.Remove {
		return fieldErr("all", "set either all (with rows) or remove")
	}
	for i, k := range c.Rows {
		if k.APIKey == "" {
			return fieldErr(fmt.Sprintf("rows[%d].api_key", i), "must not be empty")
		}
	}
	return nil
}

// applyListedEvent sets what the credentials endpoint lists: the event's rows,
// or with Remove the account's keys again.
func applyListedEvent(e *Exchange, ev Event) error {
	c := ev.Credentials
	if c == nil {
		return nil
	}
	if err := listedErr(c); err != nil {
		return fmt.Errorf("credentials event: %w", err)
	}
	return e.withAccount("credentials event", c.Account, func(a *accountState) error {
		a.listed = nil
		if c.All {
			a.listed = append([]Key{}, c.Rows...) // none listed is not nil
		}
		return nil
	})
}
