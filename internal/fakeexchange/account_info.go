package fakeexchange

import (
	"cmp"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

func init() { addRoute(endpoint.AccountInfo, accountInfos.route()) }

// accountInfos answer with the captured answer's fields: leverage a JSON number,
// the other decimals strings, the account's names and type. An event patches
// the fields it sets.
var accountInfos = &rowsEndpoint[AccountInfo]{name: endpoint.AccountInfo, section: "account_info", event: "account_info",
	one: true, recorded: defaultAccountInfo, change: patch,
	defaults: func(a AccountInfo) AccountInfo {
		a.PositionMode = cmp.Or(a.PositionMode, "ONE_WAY")
		return a
	},
	scenario: func(_ *Scenario, a Account) []AccountInfo {
		if a.AccountInfo == nil {
			return nil
		}
		return []AccountInfo{*a.AccountInfo}
	},
	servedAt: func(_ *Exchange, _ *accountState, a AccountInfo, since, now time.Time) AccountInfo {
		a.MarginRatio = a.MarginRatioWalk.at(a.MarginRatio, a.MaintenanceMarginRatio, since, now)
		return a
	},
	answer: func(e *Exchange, a *accountState, set []AccountInfo, rows []any) any {
		o := e.with(wireObject{}, "applicationId", "app-"+a.name)
		o = e.with(o, "account", a.accountName)
		o = e.with(e.with(o, "alias", a.accountName), "otpauth", true)
		o = append(o, rows[0].(wireObject)...)
		o = e.with(o, "totalTradingValue", e.decimalField(set[0].TotalAccountValue))
		for _, name := range []string{"totalVaultValue", "totalStakingValue", "totalLaunchpadValue", "totalEarnValue"} {
			o = e.with(o, name, e.decimalField("0"))
		}
		accountType := "Main"
		if a.isSubAccount {
			accountType = "Sub"
		}
		return e.with(e.with(o, "referrerID", nil), "accountType", accountType)
	},
}

// AccountInfo is what the account info endpoint reports: exact decimal text,
// empty left out. Fee rates are in basis points, sent only when set (the captured
// answer has none).
type AccountInfo struct {
	AccountMode string `yaml:"account_mode" wire:"accountMode"`
	// PositionMode is ONE_WAY (the default) or HEDGE_MODE.
	PositionMode           string `yaml:"position_mode" wire:"positionMode"`
	Leverage               string `yaml:"leverage" wire:"leverage,number"`
	MarginRatio            string `yaml:"margin_ratio" wire:"marginRatio,decimal"`
	OpenMarginRatio        string `yaml:"open_margin_ratio" wire:"openMarginRatio,decimal"`
	InitialMarginRatio     string `yaml:"initial_margin_ratio" wire:"initialMarginRatio,decimal"`
	MaintenanceMarginRatio string `yaml:"maintenance_margin_ratio" wire:"maintenanceMarginRatio,decimal"`
	TotalCollateral        string `yaml:"total_collateral" wire:"totalCollateral,decimal"`
	FreeCollateral         string `yaml:"free_collateral" wire:"freeCollateral,decimal"`
	TotalAccountValue      string `yaml:"total_account_value" wire:"totalAccountValue,decimal"`
	TakerFeeRate           string `yaml:"taker_fee_rate" wire:"takerFeeRate,decimal"`
	MakerFeeRate           string `yaml:"maker_fee_rate" wire:"makerFeeRate,decimal"`
	FuturesTakerFeeRate    string `yaml:"futures_taker_fee_rate" wire:"futuresTakerFeeRate,decimal"`
	FuturesMakerFeeRate    string `yaml:"futures_maker_fee_rate" wire:"futuresMakerFeeRate,decimal"`
	// MarginRatioWalk walks MarginRatio towards MaintenanceMarginRatio.
	MarginRatioWalk *Walk `yaml:"margin_ratio_walk"`
}

// defaultAccountInfo is a spot account far from any margin call, as captured.
var defaultAccountInfo = AccountInfo{
	AccountMode: "PURE_SPOT", PositionMode: "ONE_WAY", Leverage: "0", MarginRatio: "10", OpenMarginRatio: "10",
	InitialMarginRatio: "10", MaintenanceMarginRatio: "0.03", TotalCollateral: "0", FreeCollateral: "0",
	TotalAccountValue: "0",
}

func (a AccountInfo) check() error {
	return a.MarginRatioWalk.validate("margin_ratio_walk", a.MarginRatio != "" && a.MaintenanceMarginRatio != "",
		"margin_ratio and maintenance_margin_ratio")
}
