package fakeexchange

import (
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// EndpointAccountInfo is the endpoint's name in the endpoint table (endpoint.All).
const EndpointAccountInfo = endpoint.AccountInfo

// PathAccountInfo is the endpoint's path in the endpoint table.
var PathAccountInfo = endpoint.PathOf(endpoint.AccountInfo)

func init() {
	addRoute(endpoint.AccountInfo, route{serve: (*Exchange).serveAccountInfo,
		validateAccount: validateAccountInfoAccount,
		validateEvent:   validateAccountInfoEvent,
		seedAccount:     seedAccountInfoAccount,
		apply:           applyAccountInfoEvent,
		demo:            demoAccountInfo,
	})
}

// AccountInfo is what the account info endpoint reports. Every field is
// exact decimal text; an empty one is left out of the answer, so clients
// are shown to cope with missing fields. Fee rates are in basis points (5
// is 0.05 %), as the exchange sends them; the live answer has none, so they
// are sent only when set.
type AccountInfo struct {
	AccountMode            string `yaml:"account_mode"`
	Leverage               string `yaml:"leverage"`
	MarginRatio            string `yaml:"margin_ratio"`
	OpenMarginRatio        string `yaml:"open_margin_ratio"`
	InitialMarginRatio     string `yaml:"initial_margin_ratio"`
	MaintenanceMarginRatio string `yaml:"maintenance_margin_ratio"`
	TotalCollateral        string `yaml:"total_collateral"`
	FreeCollateral         string `yaml:"free_collateral"`
	TotalAccountValue      string `yaml:"total_account_value"`
	TakerFeeRate           string `yaml:"taker_fee_rate"`
	MakerFeeRate           string `yaml:"maker_fee_rate"`
	FuturesTakerFeeRate    string `yaml:"futures_taker_fee_rate"`
	FuturesMakerFeeRate    string `yaml:"futures_maker_fee_rate"`
	// MarginRatioWalk lowers the served margin ratio over time, towards
	// the maintenance margin ratio; nil keeps it still.
	MarginRatioWalk *MarginRatioWalk `yaml:"margin_ratio_walk"`
}

// MarginRatioWalk moves the margin ratio by Step every Every of server
// time since the exchange's Start (or since SetAccountInfo) towards the
// maintenance margin ratio, never past it: an account walking towards
// liquidation.
type MarginRatioWalk = Walk

// defaultAccountInfo is served for an account whose scenario sets none: a
// spot account far from any margin call, without fee rates, as captured.
var defaultAccountInfo = AccountInfo{
	AccountMode: "PURE_SPOT", Leverage: "0", MarginRatio: "10", OpenMarginRatio: "10",
	InitialMarginRatio: "10", MaintenanceMarginRatio: "0.03", TotalCollateral: "0", FreeCollateral: "0",
	TotalAccountValue: "0",
}

// decimalFields are the decimal fields by name, for validation and
// patches.
func (a *AccountInfo) decimalFields() map[string]*string {
	return map[string]*string{
		"leverage": &a.Leverage, "margin_ratio": &a.MarginRatio, "open_margin_ratio": &a.OpenMarginRatio,
		"initial_margin_ratio": &a.InitialMarginRatio, "maintenance_margin_ratio": &a.MaintenanceMarginRatio,
		"total_collateral": &a.TotalCollateral, "free_collateral": &a.FreeCollateral,
		"total_account_value": &a.TotalAccountValue, "taker_fee_rate": &a.TakerFeeRate, "maker_fee_rate": &a.MakerFeeRate,
		"futures_taker_fee_rate": &a.FuturesTakerFeeRate, "futures_maker_fee_rate": &a.FuturesMakerFeeRate,
	}
}

func (a AccountInfo) validate() error {
	for name, v := range a.decimalFields() {
		if err := validateDecimal(name, *v); err != nil {
			return err
		}
	}
	if w := a.MarginRatioWalk; w != nil {
		if err := w.validate("margin_ratio_walk"); err != nil {
			return err
		}
		if a.MarginRatio == "" || a.MaintenanceMarginRatio == "" {
			return fieldErr("margin_ratio_walk", "needs margin_ratio and maintenance_margin_ratio")
		}
	}
	return nil
}

// patch replaces the fields of a that p sets.
func (a *AccountInfo) patch(p AccountInfo) {
	if p.AccountMode != "" {
		a.AccountMode = p.AccountMode
	}
	patchText(a.decimalFields(), p.decimalFields())
	if p.MarginRatioWalk != nil {
		w := *p.MarginRatioWalk
		a.MarginRatioWalk = &w
	}
}

// validateDecimal accepts empty text (the field is left out) or a decimal.
func validateDecimal(field, text string) error {
	if text == "" {
		return nil
	}
	if _, err := decimal.NewFromString(text); err != nil {
		return fieldErr(field, "not a decimal: %q", text)
	}
	return nil
}

// AccountInfoEvent changes the fields it sets of an account's info.
type AccountInfoEvent struct {
	Account     string `yaml:"account"`
	AccountInfo `yaml:",inline"`
}

// SetAccountInfo replaces what the account info endpoint reports for
// account; a margin ratio walk starts from now.
func (e *Exchange) SetAccountInfo(account string, info AccountInfo) error {
	if err := info.validate(); err != nil {
		return fmt.Errorf("set account info: %w", err)
	}
	return e.withAccount("set account info", account, func(a *accountState) error {
		a.info, a.walkFrom = info, e.now()
		return nil
	})
}

// patchAccountInfo applies an event; a walk keeps its start.
func (e *Exchange) patchAccountInfo(ev AccountInfoEvent) error {
	return e.withAccount("account info event", ev.Account, func(a *accountState) error {
		a.info.patch(ev.AccountInfo)
		return nil
	})
}

// marginRatio is the margin ratio served at now: the walk's steps taken
// since it started, stopped at the maintenance margin ratio.
func (a *accountState) marginRatio(now time.Time) string {
	return a.info.MarginRatioWalk.at(a.info.MarginRatio, a.info.MaintenanceMarginRatio, a.walkFrom, now)
}

// serveAccountInfo answers with the fields of the live answer, in its
// order: leverage a JSON number, the other decimals strings.
func (e *Exchange) serveAccountInfo(account, rawQuery string) (any, *apiError) {
	if _, aerr := parseQuery(rawQuery); aerr != nil {
		return nil, aerr
	}
	now := e.now()
	e.mu.Lock()
	defer e.mu.Unlock()
	a := e.accounts[account]
	info := a.info
	o := object{}
	e.set(o, "applicationId", fmt.Sprintf("app-%s", a.name))
	e.set(o, "account", a.accountName)
	e.set(o, "alias", a.accountName)
	e.setAlways(o, "otpauth", true)
	e.set(o, "accountMode", info.AccountMode)
	e.set(o, "positionMode", "ONE_WAY")
	e.set(o, "leverage", e.numberField(info.Leverage))
	for _, f := range []struct{ name, text string }{
		{"marginRatio", a.marginRatio(now)}, {"openMarginRatio", info.OpenMarginRatio},
		{"initialMarginRatio", info.InitialMarginRatio}, {"maintenanceMarginRatio", info.MaintenanceMarginRatio},
		{"totalCollateral", info.TotalCollateral}, {"freeCollateral", info.FreeCollateral},
		{"totalAccountValue", info.TotalAccountValue}, {"totalTradingValue", info.TotalAccountValue},
		{"totalVaultValue", "0"}, {"totalStakingValue", "0"}, {"totalLaunchpadValue", "0"}, {"totalEarnValue", "0"},
		{"takerFeeRate", info.TakerFeeRate}, {"makerFeeRate", info.MakerFeeRate},
		{"futuresTakerFeeRate", info.FuturesTakerFeeRate}, {"futuresMakerFeeRate", info.FuturesMakerFeeRate},
	} {
		e.set(o, f.name, e.decimalField(f.text))
	}
	e.setAlways(o, "referrerID", nil)
	accountType := "Main"
	if a.isSubAccount {
		accountType = "Sub"
	}
	e.set(o, "accountType", accountType)
	return o, nil
}

// demoAccountInfo makes "main" a futures account with fee rates.
func demoAccountInfo(s *Scenario) {
	s.account("main").AccountInfo = &AccountInfo{
		AccountMode: "FUTURES", Leverage: "10", MarginRatio: "2.5", OpenMarginRatio: "2.4", InitialMarginRatio: "0.1",
		MaintenanceMarginRatio: "0.03", TotalCollateral: "12500.5", FreeCollateral: "9000", TotalAccountValue: "12600.25",
		// Basis points, as the exchange sends fee rates.
		TakerFeeRate: "5", MakerFeeRate: "2", FuturesTakerFeeRate: "6", FuturesMakerFeeRate: "1",
	}
}

func validateAccountInfoAccount(_ *Scenario, a Account) error {
	if a.AccountInfo == nil {
		return nil
	}
	if err := a.AccountInfo.validate(); err != nil {
		return fmt.Errorf("account_info.%w", err)
	}
	return nil
}

func validateAccountInfoEvent(_ *Scenario, ev Event, accounts map[string]bool) error {
	if a := ev.AccountInfo; a != nil {
		return validateEventAccount("account_info", a.Account, accounts, a.validate())
	}
	return nil
}

// seedAccountInfoAccount sets the account's info, or a spot account's.
func seedAccountInfoAccount(_ *Exchange, st *accountState, a Account, _ time.Time) error {
	st.info = defaultAccountInfo
	if a.AccountInfo != nil {
		st.info = *a.AccountInfo
	}
	return nil
}

func applyAccountInfoEvent(e *Exchange, ev Event) error {
	if ev.AccountInfo == nil {
		return nil
	}
	return e.patchAccountInfo(*ev.AccountInfo)
}
