// Settings of the woox_exporter mixin. Override any of them in your own
// jsonnet, e.g.
//   (import 'woox_exporter/mixin/mixin.libsonnet') + {
//     _config+:: { wooxSelector: 'job="woox-prod"' },
//   }
// Every field feeds the rules or the dashboard: `bash scripts/mixin.sh
// settings` (CI) renders with each one changed and fails for one that changes
// neither.
{
  _config+:: {
    // Selects the exporter's series in every alert and recording rule, and
    // the jobs offered by the dashboard's job variable.
    wooxSelector: 'job="woox"',

    // Alerts link to <runbookURL>#<alert name, lowercased>.
    runbookURL: 'https://github.com/woox-exporter/woox_exporter/blob/main/RUNBOOK.md',

    // The token networks the network and fee alerts watch (the recording
    // rule woox:watched_token_networks). Default: every token. E.g.
    //   'token=~"BTC|ETH|USDT|USDC"'
    //   'token=~"USDT|USDC", network=~"ETH|TRON|SOL"'
    watchedTokenNetworksSelector: 'token=~".+"',

    // Margin ratio as a multiple of the maintenance margin ratio (WOO X
    // liquidates at 1).
    marginRatioCritical: 1.2,
    marginRatioWarning: 1.5,

    // Seconds a withdrawal may stay in flight before WooxWithdrawalStuck.
    withdrawalStuckSeconds: 3600,

    // Seconds of clock skew before WooxClockSkew (WOO X rejects at 300).
    clockSkewSeconds: 60,

    // How long a poll must keep failing before WooxPollFailing.
    pollFailingFor: '10m',

    // Seconds without a successful poll before WooxDataStale, per group of
    // endpoints: about three poll intervals at the default flags. Raise them
    // with the matching --*.interval flags.
    dataStaleFastEndpoints: 'token_history|system_info|account_info|balances|positions',
    dataStaleFastSeconds: 300,
    dataStaleSlowEndpoints: 'credentials|token_network|wallet',
    dataStaleSlowSeconds: 1200,
    dataStaleSubAccountsSeconds: 3600,

    // WooxRateLimited: fires when at least rateLimitedWindows of the last
    // rateLimitedWindowsOf windows of rateLimitedWindow each saw a 429.
    rateLimitedWindow: '5m',
    rateLimitedWindows: 3,
    rateLimitedWindowsOf: 4,

    // WooxSeriesCapped: rows capped by --limits.series-per-endpoint within
    // this window.
    seriesCappedWindow: '1h',

    // WooxRowsRejected: how long the last successful poll of an endpoint
    // must have left out rows it cannot read (woox_poll_rows_rejected > 0).
    rowsRejectedFor: '2m',

    // WooxTokenHistoryInconsistent: inconsistent token history polls (the
    // exchange's meta.total above the records it returns) within
    // tokenHistoryInconsistentWindow before it fires.
    tokenHistoryInconsistentPolls: 3,
    tokenHistoryInconsistentWindow: '1h',

    // Positions (woox_position_*, polled every --positions.interval, 1m).
    // WooxPositionNearLiquidation fires when the distance between the mark
    // price and the estimated liquidation price, as a share of the mark price
    // (woox:position_liquidation_distance:ratio), stays below a threshold for
    // its `for`: kept short, a position can lose 10% in a few minutes.
    positionLiquidationWarning: 0.10,
    positionLiquidationWarningFor: '2m',
    positionLiquidationCritical: 0.05,
    positionLiquidationCriticalFor: '1m',
    // WooxPositionAutoDeleverageRisk: auto-deleverage rank (1 low to 5 high)
    // at or above which it fires, and for how long.
    positionAdlQuantile: 4,
    positionAdlFor: '5m',

    // WooxBalanceUnexplainedChange: fires when a token's balance change
    // that the token history does not explain (woox_balance_unexplained_change,
    // in units of that token) stays beyond balanceUnexplainedTolerance, on
    // either side, for balanceUnexplainedFor. The tolerance applies to each
    // token's series in its own units. The `for` is long enough for a late
    // record the token history's overlap catches to arrive and clear it; a
    // record found only by the late sweep (--token-history.late-interval,
    // 1h) takes longer.
    balanceUnexplainedTolerance: 0,
    balanceUnexplainedFor: '30m',

    // Dashboard.
    dashboardUID: 'woox-exporter',
    dashboardTitle: 'WOO X exporter',
    dashboardTags: ['woox', 'exchange', 'security'],
    dashboardRefresh: '1m',
  },
}
