package fakeexchange

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// EndpointTokenConfig is the endpoint's name in the endpoint table (endpoint.All).
const EndpointTokenConfig = endpoint.TokenConfig

// PathTokenConfig is the endpoint's path in the endpoint table.
var PathTokenConfig = endpoint.PathOf(endpoint.TokenConfig)

func init() {
	addRoute(endpoint.TokenConfig, route{serve: (*Exchange).serveTokenConfig,
		validateAccount: func(_ *Scenario, a Account) error { return validateTokenConfigs(a.TokenConfig) },
		validateEvent:   validateTokenConfigEvent,
		seedAccount:     seedTokenConfigAccount,
		apply:           func(e *Exchange, ev Event) error { return e.applyTokenConfigEvent(ev.TokenConfig) },
		unreadable:      (*Exchange).unreadableTokenConfig,
		demo:            func(s *Scenario) { s.account("main").TokenConfig = defaultTokenConfig() },
	})
}

// TokenConfig is one token's row: how the exchange counts it in the
// account's margin. Decimals are exact text; an empty one, or a nil flag,
// is left out of the answer (a row without collateral_ratio, collateral or
// can_collateral is one the client rejects).
type TokenConfig struct {
	Token string `yaml:"token"`
	// CollateralRatio is the share of the token's value counted as
	// collateral ("0.85").
	CollateralRatio string `yaml:"collateral_ratio"`
	MarginFactor    string `yaml:"margin_factor"`
	// Collateral: used as collateral now; CanCollateral: may be.
	Collateral    *bool `yaml:"collateral"`
	CanCollateral *bool `yaml:"can_collateral"`
	CanShort      *bool `yaml:"can_short"`
	// MarginMaxLeverage and MarginMaxPosition are sent as JSON numbers,
	// as the docs show them.
	MarginMaxLeverage string `yaml:"margin_max_leverage"`
	MarginMaxPosition string `yaml:"margin_max_position"`
}

func (c TokenConfig) validate() error {
	if c.Token == "" {
		return fieldErr("token", "must not be empty")
	}
	for name, v := range c.decimalFields() {
		if *v != "" && !decimalText.MatchString(*v) {
			return fieldErr(name, "not a decimal: %q", *v)
		}
	}
	return nil
}

// decimalFields are the decimal fields by name, for validation and patches.
func (c *TokenConfig) decimalFields() map[string]*string {
	return map[string]*string{"collateral_ratio": &c.CollateralRatio, "margin_factor": &c.MarginFactor,
		"margin_max_leverage": &c.MarginMaxLeverage, "margin_max_position": &c.MarginMaxPosition}
}

// patch replaces the fields of c that d sets.
func (c *TokenConfig) patch(d TokenConfig) {
	patchText(c.decimalFields(), d.decimalFields())
	for _, f := range []struct{ dst, src **bool }{
		{&c.Collateral, &d.Collateral}, {&c.CanCollateral, &d.CanCollateral}, {&c.CanShort, &d.CanShort},
	} {
		if *f.src != nil {
			v := **f.src
			*f.dst = &v
		}
	}
}

// TokenConfigEvent changes the fields it sets of one token's row of an
// account (a token not listed yet is added); Remove drops the row.
type TokenConfigEvent struct {
	Account     string `yaml:"account"`
	TokenConfig `yaml:",inline"`
	Remove      bool `yaml:"remove"`
}

// SetTokenConfig adds the token's row to account, or replaces the row of
// its token.
func (e *Exchange) SetTokenConfig(account string, c TokenConfig) error {
	if err := c.validate(); err != nil {
		return fmt.Errorf("set token config: %w", err)
	}
	return e.withAccount("set token config", account, func(a *accountState) error {
		a.setTokenConfig(c)
		return nil
	})
}

// applyTokenConfigEvent patches, adds or removes a token's row.
func (e *Exchange) applyTokenConfigEvent(ev *TokenConfigEvent) error {
	if ev == nil {
		return nil
	}
	return e.withAccount("token config event", ev.Account, func(a *accountState) error {
		i, found := a.findTokenConfig(ev.Token)
		switch {
		case ev.Remove && !found:
			return fmt.Errorf("token config event: account %q lists no token %s", ev.Account, ev.Token)
		case ev.Remove:
			a.tokenConfigs = slices.Delete(a.tokenConfigs, i, i+1)
		case found:
			a.tokenConfigs[i].patch(ev.TokenConfig)
		default:
			a.setTokenConfig(ev.TokenConfig)
		}
		return nil
	})
}

func (a *accountState) findTokenConfig(token string) (int, bool) {
	return slices.BinarySearchFunc(a.tokenConfigs, token, func(c TokenConfig, t string) int { return strings.Compare(c.Token, t) })
}

func (a *accountState) setTokenConfig(c TokenConfig) {
	var fresh TokenConfig
	fresh.patch(c) // its own copy of the flags
	fresh.Token = c.Token
	if i, found := a.findTokenConfig(c.Token); found {
		a.tokenConfigs[i] = fresh
	} else {
		a.tokenConfigs = slices.Insert(a.tokenConfigs, i, fresh)
	}
}

// serveTokenConfig answers as the docs show: data.rows in token order, no
// meta, no query parameter taken.
func (e *Exchange) serveTokenConfig(account, rawQuery string) (any, *apiError) {
	if _, aerr := parseQuery(rawQuery); aerr != nil {
		return nil, aerr
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	a := e.accounts[account]
	n := len(a.tokenConfigs)
	return rowsData{Rows: e.listRows(EndpointTokenConfig, n, 0, e.listLength(EndpointTokenConfig, n), func(i int) any {
		return e.tokenConfigRow(a.tokenConfigs[i])
	})}, nil
}

func (e *Exchange) tokenConfigRow(c TokenConfig) object {
	o := object{}
	e.set(o, "token", c.Token)
	e.set(o, "collateralRatio", e.decimalField(c.CollateralRatio))
	e.set(o, "marginFactor", e.decimalField(c.MarginFactor))
	e.set(o, "collateral", e.flag(c.Collateral))
	e.set(o, "canCollateral", e.flag(c.CanCollateral))
	e.set(o, "canShort", e.flag(c.CanShort))
	e.set(o, "marginMaxLeverage", e.numberField(c.MarginMaxLeverage))
	e.set(o, "marginMaxPosition", e.numberField(c.MarginMaxPosition))
	return o
}

// flag renders a flag in each reading public sources leave open: true and
// false as the docs show them, 1 and 0 as v1 answers and the scenario's
// JSON numbers send flags, and as strings when every number is one ("1"
// and "0" in snake_case, "true" and "false" otherwise). nil is "", which
// set leaves out.
func (e *Exchange) flag(b *bool) any {
	if b == nil {
		return ""
	}
	n, word := "0", "false"
	if *b {
		n, word = "1", "true"
	}
	switch {
	case e.allStrings && e.snakeBodies:
		return n
	case e.allStrings:
		return word
	case e.snakeBodies || e.numbersAsJSON:
		return json.Number(n)
	}
	return *b
}

// unreadableTokenConfig is a token config row without token.
func (e *Exchange) unreadableTokenConfig(int) any {
	yes := true
	o := e.tokenConfigRow(TokenConfig{CollateralRatio: "0.5", Collateral: &yes, CanCollateral: &yes})
	delete(o, "token")
	return o
}

// validateTokenConfigs checks a scenario account's rows: each valid, and
// no token twice.
func validateTokenConfigs(cs []TokenConfig) error {
	seen := map[string]bool{}
	for i, c := range cs {
		if err := c.validate(); err != nil {
			return fmt.Errorf("token_config[%d].%w", i, err)
		}
		if seen[c.Token] {
			return fieldErr(fmt.Sprintf("token_config[%d].token", i), "duplicate %q", c.Token)
		}
		seen[c.Token] = true
	}
	return nil
}

func validateTokenConfigEvent(_ *Scenario, ev Event, accounts map[string]bool) error {
	if c := ev.TokenConfig; c != nil {
		err := c.validate()
		if c.Remove && c.Token != "" {
			err = nil
		}
		return validateEventAccount("token_config", c.Account, accounts, err)
	}
	return nil
}

func seedTokenConfigAccount(_ *Exchange, st *accountState, a Account, _ time.Time) error {
	for _, c := range a.TokenConfig {
		st.setTokenConfig(c)
	}
	return nil
}

// TokenConfigRow is a token's row with both collateral flags set to
// collateral, for tests and scenarios written in Go.
func TokenConfigRow(token, ratio string, collateral bool) TokenConfig {
	c, can := collateral, collateral
	return TokenConfig{Token: token, CollateralRatio: ratio, Collateral: &c, CanCollateral: &can}
}

// defaultTokenConfig is the docs example's rows (BTC, ETH, WOO), and USDT
// counted in full.
func defaultTokenConfig() []TokenConfig {
	row := func(token, ratio, factor string, collateral bool, leverage string) TokenConfig {
		c := TokenConfigRow(token, ratio, collateral)
		short := collateral
		c.CanShort, c.MarginFactor, c.MarginMaxLeverage, c.MarginMaxPosition = &short, factor, leverage, "100000000000"
		return c
	}
	return []TokenConfig{
		row("BTC", "0.85", "0.00000023", true, "10"),
		row("ETH", "0.85", "0.00000025", true, "10"),
		row("USDT", "1", "0", true, "10"),
		row("WOO", "0.6", "0.00000025", false, "5"),
	}
}
