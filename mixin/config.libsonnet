// Settings of the woox_exporter mixin. Override any of them in your own
// jsonnet, e.g.
//   (import 'woox_exporter/mixin/mixin.libsonnet') + {
//     _config+:: { wooxSelector: 'job="woox-prod"' },
//   }
// Every field feeds the rules or the dashboard: `go test
// ./internal/mixincheck` renders with each one changed and fails for one that
// changes neither.
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

    // How often Prometheus evaluates the account (margin) and positions
    // groups, whatever its global evaluation_interval (1m by default, 30s in
    // many setups): the forecasts' windows below count on one sample per
    // 15s. Scrape the exporter every 15s or faster too: positions change
    // every 5s (--positions.interval).
    riskEvaluationInterval: '15s',

    // Margin ratio as a multiple of the maintenance margin ratio (WOO X
    // liquidates at 1).
    marginRatioCritical: 1.2,
    marginRatioWarning: 1.5,
    // WooxMarginRatioForecast: the margin ratio over the maintenance ratio
    // (woox:account_margin_to_maintenance:ratio), fitted by a line over
    // marginRatioForecastWindow, reaches 1 within marginRatioForecastHorizon
    // at that pace, while below marginRatioForecastCeiling, for
    // marginRatioForecastFor. The line needs marginRatioForecastSamples
    // rule evaluations in the window (45s holds 3 or 4 at the 15s of
    // riskEvaluationInterval; raise the window with it). A `for` as long as the
    // window keeps a single step (a position opened) from paging.
    marginRatioForecastWindow: '45s',
    marginRatioForecastSamples: 3,
    marginRatioForecastHorizon: '5m',
    marginRatioForecastCeiling: 2,
    marginRatioForecastFor: '45s',

    // Seconds a withdrawal may stay in flight before WooxWithdrawalStuck.
    withdrawalStuckSeconds: 3600,

    // Seconds of clock skew before WooxClockSkew (WOO X rejects at 300).
    clockSkewSeconds: 60,

    // How long a poll must keep failing before WooxPollFailing.
    pollFailingFor: '10m',

    // WooxApiKeyRejected: an account's polls refused as unauthorized (HTTP
    // 401 or 403, codes -1001 and -1002) within apiKeyRejectedWindow, with
    // the last poll of that endpoint failed, for apiKeyRejectedFor. Positions
    // are polled every 5s, so a revoked key shows within seconds; the `for`
    // rides out a key being rotated.
    apiKeyRejectedWindow: '5m',
    apiKeyRejectedFor: '3m',

    // WooxApiKeyAllowedIPsChanged and WooxApiKeyPermissionsChanged fire for
    // this long after a credentials poll counted a change: also the longest
    // exporter outage across which a change made during it still pages (the
    // window must hold a sample from before the outage).
    apiKeyChangeWindow: '1h',

    // Seconds without a successful poll before WooxDataStale, per group of
    // endpoints: about three poll intervals at the default flags. Raise them
    // with the matching --*.interval flags.
    dataStaleFastEndpoints: 'token_history|system_info|account_info|balances|positions|token_config|transfer_history|wallet|instruments|futures|orders|algo_orders',
    dataStaleFastSeconds: 300,
    dataStaleSlowEndpoints: 'credentials|token_network|funding_fee|symbol_config',
    dataStaleSlowSeconds: 1200,
    dataStaleSubAccountsSeconds: 3600,

    // WooxRateLimited: fires when at least rateLimitedWindows of the last
    // rateLimitedWindowsOf windows of rateLimitedWindow each saw a 429.
    rateLimitedWindow: '5m',
    rateLimitedWindows: 3,
    rateLimitedWindowsOf: 4,

    // WooxExporterRateCapSaturated: the requests of an exporter's accounts
    // waited on average more than rateCapWaitWarningSeconds for their turn
    // under --api.max-requests-per-second, over rateCapWaitWindow, for
    // rateCapWaitFor. Positions are polled every 5s (--positions.interval):
    // a second's wait on each request already delays the position and margin
    // alerts noticeably. The `for` outlasts the burst of every poller at
    // start, which leaves the window after rateCapWaitWindow.
    rateCapWaitWarningSeconds: 1,
    rateCapWaitWindow: '5m',
    rateCapWaitFor: '10m',

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

    // Positions (woox_position_*, polled every --positions.interval, 5s).
    // WooxPositionNearLiquidation fires when the distance between the mark
    // price and the estimated liquidation price, as a share of the mark price
    // (woox:position_liquidation_distance:ratio), stays below a threshold for
    // its `for`: kept short, a position can lose 10% in a few minutes.
    positionLiquidationWarning: 0.10,
    positionLiquidationWarningFor: '2m',
    positionLiquidationCritical: 0.05,
    positionLiquidationCriticalFor: '1m',
    // WooxPositionLiquidationForecast: the distance, fitted by a line over
    // positionLiquidationForecastWindow, reaches 0 within
    // positionLiquidationForecastHorizon at that pace, while below
    // positionLiquidationForecastCeiling, for positionLiquidationForecastFor.
    // The line needs positionLiquidationForecastSamples rule evaluations in
    // the window (45s holds 3 or 4 at a 15s evaluation interval; raise the
    // window with the interval). A `for` as long as the window keeps a single
    // step (a position increased) or a single odd sample from paging; a
    // longer window or `for` pages later in a crash. A 10m horizon pages a
    // 4-minute crash one evaluation sooner than 5m would, while the noise
    // of a calm market is a course of hours.
    positionLiquidationForecastWindow: '45s',
    positionLiquidationForecastSamples: 3,
    positionLiquidationForecastHorizon: '10m',
    positionLiquidationForecastCeiling: 0.25,
    positionLiquidationForecastFor: '45s',
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

    // WooxTransferOutToUnwatchedAccount fires for this long (seconds)
    // after a completed transfer out to an account no replica watches.
    transferOutUnwatchedWindowSeconds: 3600,
    // ... and counts an account as watched while a replica exported it
    // within this window: longer than a rollout or an outage that
    // WooxExporterDown pages for anyway, so that neither makes the
    // restarting replica's accounts look unwatched.
    transferAccountsWatchedWindow: '1h',
    // Collateral (woox_token_*, polled every --token-config.interval, 15s).
    // WooxCollateralRatioCut compares a held token's collateral ratio with
    // its highest over collateralRatioCutWindow (also the window in which
    // WooxCollateralDisabled looks for a token that counted): it fires from
    // the first minutes of a fresh Prometheus, for as long as the window
    // holds the old ratio. Critical when the token is used as collateral and
    // the cut, as a share of that highest ratio, is at least
    // collateralRatioCutCritical (0.2: 0.85 cut to 0.68 or lower).
    collateralRatioCutWindow: '1h',
    collateralRatioCutCritical: 0.2,

    // WooxFundingPaidHigh: fires when the funding an account paid over the
    // last 24 hours, less what it received, passes this, in the settlement
    // token of its symbols (each settlement token judged alone: 1000 is
    // 1000 USDT for the PERP_*_USDT symbols).
    fundingPaidHighThreshold: 1000,
    // WooxFundingProjectedHigh: fires when a position's projected payment at
    // the next settlement (woox:funding_projected_payment:next_settlement,
    // holding times mark price times the estimated rate) passes this, in the
    // symbol's quote currency (USDT for PERP_*_USDT).
    fundingProjectedHighThreshold: 1000,
    // WooxSymbolRiskLimitCut: a held symbol's max leverage lowered, or its
    // margin factor raised, within this window; it fires for as long.
    symbolRiskLimitCutWindow: '1h',

    // WooxAccountSettingChanged fires for this long after a poll counted a
    // change of an account's settings (woox_account_setting_changes_total):
    // critical when the account's or a position's leverage is above its
    // lowest within the window, warning otherwise.
    accountSettingChangeWindow: '1h',
    // WooxOpenOrdersSurge: an account's open orders at least
    // openOrdersSurgeMinimum and above openOrdersSurgeFactor times their
    // median over openOrdersSurgeWindow (at least 1), for openOrdersSurgeFor.
    // The median needs a history longer than the flood: once Prometheus
    // holds about 3 minutes of the account's orders (openOrdersSurgeFor plus
    // the polls), a flood pages within 2 minutes; a level held for half the
    // window becomes the new median and stops it.
    openOrdersSurgeMinimum: 100,
    openOrdersSurgeFactor: 5,
    openOrdersSurgeWindow: '1h',
    openOrdersSurgeFor: '1m',
    // WooxPositionWithoutStop: a position with no open algo order of these
    // types on its symbol for 10 minutes. Off by default: many desks close
    // positions by hand or from their own risk system. The dashboard's
    // "Positions without a stop" table shows them either way.
    positionWithoutStopAlert: false,
    stopAlgoTypes: 'STOP|STOP_LOSS|TP_SL|POSITIONAL_TP_SL|TRAILING_STOP|OCO|BRACKET',

    // Dashboard.
    dashboardUID: 'woox-exporter',
    dashboardTitle: 'WOO X exporter',
    dashboardTags: ['woox', 'exchange', 'security'],
    dashboardRefresh: '1m',
  },
}
