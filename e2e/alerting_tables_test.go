package e2e

// What TestAlertsAndDashboardEndToEnd expects of the alerts, as alert specs
// ("Alertname label=value ...", alertSpec), and of the data.

// expectedAlerts must reach Alertmanager, not inhibited.
var expectedAlerts = []string{
	"WooxApiKeyWithoutIPRestriction severity=critical account=main",
	"WooxApiKeyWithoutIPRestriction severity=warning account=main",
	"WooxApiKeyCanWithdraw account=main",
	"WooxExporterKeyOverPrivileged account=main",
	// main's keys: an allowed address swapped, a permission traded, at 15s.
	"WooxApiKeyAllowedIPsChanged severity=critical account=main api_key=e2e-...05==",
	"WooxApiKeyPermissionsChanged severity=critical account=main api_key=e2e-...06==",
	"WooxWithdrawalsDisabled token=USDT network=ETH",
	"WooxLiquidation account=main",
	// Announced at 10s, open to the end; trading maintenance, so polls go on.
	"WooxExchangeMaintenance status=trading_maintenance",
	// main's margin ratio walks down to its maintenance margin ratio.
	"WooxMarginRatioLow severity=critical account=main",
	// The risky short's mark price walks to within 5 % of its liquidation
	// price; main's critical margin alert, firing too, must not hide it.
	"WooxPositionNearLiquidation severity=critical account=main symbol=PERP_BTC_USDT position_side=SHORT margin_mode=ISOLATED",
	// main's BTC: 0.05 left with no record (rendered with for: 2m).
	"WooxBalanceUnexplainedChange account=main token=BTC",
	// ADL rank 5 from 5s, for positionAdlFor (rendered with 20s).
	"WooxPositionAutoDeleverageRisk account=main symbol=PERP_BTC_USDT position_side=SHORT",
	// main sent 75 USDT to Treasury, an account no exporter watches.
	"WooxTransferOutToUnwatchedAccount account=main counterparty=Treasury",
	// main's held SOL cut from 0.9 to 0.5 at 20s; sub's held LTC no
	// longer accepted as collateral at 20s.
	"WooxCollateralRatioCut severity=critical account=main token=SOL",
	"WooxCollateralDisabled account=sub token=LTC",
	// main withdrew to an address it never sent to (no allow-list here).
	"WooxWithdrawalToNewAddress account=main network=TRON address=TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE amount=250",
	// The venue at 20s: main's held PERP_LTC_USDT and sub's LTC pair
	// suspended, PERP_ETH_USDT's rate up (main's long pays 1200), its max
	// leverage cut.
	"WooxHeldInstrumentNotTrading severity=critical account=main symbol=PERP_LTC_USDT",
	"WooxHeldInstrumentNotTrading severity=warning account=sub token=LTC symbol=SPOT_LTC_USDT",
	"WooxFundingProjectedHigh account=main symbol=PERP_ETH_USDT",
	"WooxSymbolRiskLimitCut account=main symbol=PERP_ETH_USDT limit=max_leverage",
	// At 20s main's leverage raised, sub's position mode switched; from
	// 60s main's bot floods the book.
	"WooxAccountSettingChanged severity=critical account=main setting=leverage",
	"WooxAccountSettingChanged severity=warning account=sub setting=position_mode",
	"WooxOpenOrdersSurge account=main",
}

// inhibitedAlerts must reach Alertmanager but no one: it holds them back with
// the example's inhibition rules. WooxRateLimited needs 429s over 10+
// minutes, longer than this run, so these are posted to Alertmanager
// directly (syntheticAlerts, label e2e=synthetic) beside the real ones.
// exporter is the main exporter's address.
func inhibitedAlerts(exporter string) []string {
	return []string{
		// During the real maintenance of this exporter.
		"WooxRateLimited e2e=synthetic instance=" + exporter + " endpoint=token_network",
		// Stale data of an endpoint whose polls fail (another instance: no
		// maintenance there).
		"WooxDataStale e2e=synthetic instance=synthetic:1 endpoint=balances account=main",
		// The warning of a key that also has the critical one.
		"WooxApiKeyWithoutIPRestriction e2e=synthetic severity=warning api_key=e2e-synthetic",
		// Real: the risky position's warning, held back by its critical alert.
		"WooxPositionNearLiquidation severity=warning account=main symbol=PERP_BTC_USDT position_side=SHORT",
		// Real: the SOL cut's warning, held back by its critical alert.
		"WooxCollateralRatioCut severity=warning account=main token=SOL",
	}
}

// expectedSyntheticAlerts must not be inhibited: the sources of the
// inhibitions above.
var expectedSyntheticAlerts = []string{
	"WooxPollFailing e2e=synthetic instance=synthetic:1 endpoint=balances account=main",
	"WooxApiKeyWithoutIPRestriction e2e=synthetic severity=critical api_key=e2e-synthetic",
}

// syntheticAlerts are posted to Alertmanager, by their labels, every round.
func syntheticAlerts(exporter string) []map[string]string {
	return []map[string]string{
		{"alertname": "WooxRateLimited", "e2e": "synthetic", "job": "woox", "instance": exporter, "endpoint": "token_network", "severity": "warning"},
		{"alertname": "WooxPollFailing", "e2e": "synthetic", "job": "woox", "instance": "synthetic:1", "endpoint": "balances", "account": "main", "severity": "warning"},
		{"alertname": "WooxDataStale", "e2e": "synthetic", "job": "woox", "instance": "synthetic:1", "endpoint": "balances", "account": "main", "severity": "warning"},
		{"alertname": "WooxApiKeyWithoutIPRestriction", "e2e": "synthetic", "job": "woox", "instance": "synthetic:1", "account": "main", "api_key": "e2e-synthetic", "severity": "critical"},
		{"alertname": "WooxApiKeyWithoutIPRestriction", "e2e": "synthetic", "job": "woox", "instance": "synthetic:1", "account": "main", "api_key": "e2e-synthetic", "severity": "warning"},
	}
}

// pendingAlerts must be pending or firing in Prometheus: their `for` is
// longer than this run.
var pendingAlerts = []string{
	// A withdrawal of main in PROCESSING since 2h ago (for: 10m).
	"WooxWithdrawalStuck account=main side=WITHDRAW",
	// main's margin ratio below 1.5x maintenance (for: 5m; the critical one
	// holds it back in Alertmanager once both fire).
	"WooxMarginRatioLow severity=warning account=main",
}

// seenQueries must return data before the silent alerts are checked, so that
// their silence means something.
var seenQueries = []string{
	// ARB/ARB, listed already disabled at 40s, seen for at least 5 scrapes
	// (10s, 5 rule evaluations: a wrong alert would be pending by then).
	`count_over_time(woox_token_network_withdrawal_enabled{token="ARB"}[5m]) >= 5`,
	// main's SOL was unexplained until its late record arrived, and is
	// explained again.
	`max_over_time(woox_balance_unexplained_change{job="woox", account="main", token="SOL"}[10m]) == 25`,
	`woox_balance_unexplained_change{job="woox", account="main", token="SOL"} == 0`,
	// The fresh account scraped for 10s: its rate() and increase() queries
	// have two points.
	`count_over_time(up{job="woox-fresh"}[1m]) >= 5`,
	// main's WOO, which it does not hold, was cut.
	`woox_token_collateral_ratio{job="woox", account="main", token="WOO"} < max_over_time(woox_token_collateral_ratio{job="woox", account="main", token="WOO"}[5m])`,
	// The rate cap is on and lets the accounts' requests through: the mean
	// wait WooxExporterRateCapSaturated watches is a number.
	`sum by (job, instance) (rate(woox_api_rate_cap_wait_seconds_total{job="woox", account!=""}[1m])) / sum by (job, instance) (rate(woox_api_rate_cap_admitted_total{job="woox", account!=""}[1m])) >= 0 and on (job, instance) woox_api_rate_cap_requests_per_second{job="woox"} > 0`,
}

// silentAlerts must not be firing or pending anywhere at the end.
var silentAlerts = []string{
	"WooxWithdrawalsDisabled token=WOO",
	"WooxWithdrawalsDisabled token=ARB",
	"WooxDepositsDisabled token=ARB",
	"WooxDepositsDisabled",
	"WooxWithdrawalFeeIncreased",
	"WooxExporterKeyOverPrivileged account=sub",
	"WooxApiKeyWithoutIPRestriction account=sub",
	"WooxLiquidation account=sub",
	"WooxNewApiKey",
	// sub's key lists its addresses in another order with a repeat; the
	// swapped key's permissions in another order; the other keys of main
	// are as they were.
	"WooxApiKeyAllowedIPsChanged account=sub",
	"WooxApiKeyPermissionsChanged api_key=e2e-...05==",
	"WooxApiKeyAllowedIPsChanged api_key=e2e-...06==",
	"WooxApiKeyAllowedIPsChanged api_key=e2e-...01==",
	"WooxApiKeyAllowedIPsChanged api_key=e2e-...02==",
	"WooxApiKeyAllowedIPsChanged api_key=e2e-...03==",
	"WooxApiKeyPermissionsChanged api_key=e2e-...01==",
	"WooxApiKeyPermissionsChanged api_key=e2e-...02==",
	"WooxApiKeyPermissionsChanged api_key=e2e-...03==",
	"WooxApiKeyPermissionsChanged account=sub",
	"WooxPollFailing",
	"WooxDataStale",
	// One 429 (at 20s on token_network) is routine contention: no alert.
	"WooxRateLimited",
	"WooxStateFileCorrupt",
	"WooxStateFileWriteFailing",
	"WooxTokenHistoryInconsistent",
	// The scenario's rows are all readable.
	"WooxRowsRejected",
	"WooxClockSkew",
	// Two accounts send a few requests a second, far under the default
	// cap (500 a second): their requests wait no turn.
	"WooxExporterRateCapSaturated",
	"WooxExporterDown",
	// main's transfer to the watched sub.
	"WooxTransferOutToUnwatchedAccount counterparty=Sub",
	"WooxExporterShardingMismatch",
	"WooxExporterShardMissing",
	"WooxMarginRatioLow account=sub",
	// The safe long, the position without a liquidation price, the closed one.
	"WooxPositionNearLiquidation symbol=PERP_ETH_USDT",
	"WooxPositionNearLiquidation symbol=PERP_LTC_USDT",
	"WooxPositionNearLiquidation symbol=PERP_SOL_USDT",
	"WooxPositionAutoDeleverageRisk symbol=PERP_ETH_USDT",
	"WooxPositionAutoDeleverageRisk symbol=PERP_LTC_USDT",
	"WooxPositionAutoDeleverageRisk symbol=PERP_SOL_USDT",
	"WooxPositionNearLiquidation account=sub",
	// Explained changes, and a late record that arrived.
	"WooxBalanceUnexplainedChange token=USDT",
	"WooxBalanceUnexplainedChange token=SOL",
	"WooxBalanceUnexplainedChange account=sub",
	"WooxWithdrawalStuck account=sub",
	// Both compare with an hour ago, which this run has not seen.
	"WooxFeeRateIncreased",
	"WooxNewSubAccount",
	// A cut of a token the account does not hold; nothing else changed.
	"WooxCollateralRatioCut token=WOO",
	"WooxCollateralRatioCut account=sub",
	"WooxCollateralDisabled account=main",
	// The seed's addresses and the second withdrawal to one are known; no
	// allow-list, so nothing is unlisted.
	"WooxWithdrawalToNewAddress id=e2e-w-1",
	"WooxWithdrawalToNewAddress id=e2e-w-2",
	"WooxWithdrawalToNewAddress id=e2e-w-4",
	"WooxWithdrawalToNewAddress account=sub",
	"WooxWithdrawalToUnlistedAddress",
}
