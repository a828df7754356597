// Alerting and recording rules of woox_exporter. Rendered to
// alerts/woox_exporter.rules.yml by scripts/mixin.sh; what each alert means
// and what to do about it: RUNBOOK.md, one section per alert name.
//
// Choices worth knowing before editing:
// - Key state (permissions, IP restriction) changes only when the exporter
//   polls it (default every 1m), so a short `for:` adds no protection against
//   noise; 1m only rides out a single odd evaluation. Security alerts therefore
//   fire within about a minute of the exporter seeing the state.
// - Network and fee alerts fire on the change, not on the state: hundreds of
//   networks are disabled permanently, and an alert listing them all is one
//   nobody reads. They fire for an hour after the change (the comparison
//   window), then resolve; the dashboard shows the current list.
// - Network and fee alerts only look at the token networks matched by the
//   recording rule woox:watched_token_networks, chosen by
//   _config.watchedTokenNetworksSelector (see RUNBOOK.md, "Restricting the
//   network alerts to chosen tokens").
// - Position alerts watch each position (account, symbol, position_side,
//   margin_mode) on its own; WooxMarginRatioLow watches the account.
// - The forecast alerts page on the course, not the level: a line fitted
//   over a short window of recorded samples (one per rule evaluation: their
//   groups are evaluated every _config.riskEvaluationInterval), extrapolated to
//   liquidation. Their `for` is as long as the window, so that a single
//   step (a position opened or increased) or an odd sample, which tilts the
//   line for at most one window, never pages.
local runbookFor(cfg) = function(name) '%s#%s' % [cfg.runbookURL, std.asciiLower(name)];
// Seconds in a Prometheus duration of one unit ('45s', '5m', '1h'): forecast
// horizons are compared with a time to liquidation in seconds.
local seconds(d) =
  local units = { s: 1, m: 60, h: 3600, d: 86400 };
  local unit = std.substr(d, std.length(d) - 1, 1);
  assert std.objectHas(units, unit) : 'duration %s: want a number and one of s, m, h, d' % d;
  std.parseInt(std.substr(d, 0, std.length(d) - 1)) * units[unit];
{
  local runbook = runbookFor($._config),
  prometheusAlerts+:: {
    groups+: [
      {
        name: 'woox_exporter.watched',
        rules: [
          // THE ONE PLACE TO CHOOSE WHICH TOKENS THE NETWORK ALERTS WATCH:
          // _config.watchedTokenNetworksSelector. Default: every token. To
          // watch only some, change the selector, e.g. 'token=~"BTC|ETH|USDT|USDC"',
          // or also filter networks: 'token=~"USDT|USDC", network=~"ETH|TRON|SOL"'.
          // WooxWithdrawalsDisabled, WooxDepositsDisabled and
          // WooxWithdrawalFeeIncreased join on this series.
          {
            record: 'woox:watched_token_networks',
            expr: 'max by (token, network, protocol) (woox_token_network_info{%(wooxSelector)s, %(watchedTokenNetworksSelector)s})' % $._config,
          },
        ],
      },
      {
        name: 'woox_exporter.security',
        rules: [
          {
            alert: 'WooxApiKeyWithoutIPRestriction',
            expr: |||
              (woox_api_key_ip_restricted{%(wooxSelector)s} == 0)
                and on (account, api_key)
              (woox_api_key_permission{%(wooxSelector)s, permission=~"TRADE|WITHDRAWAL"} == 1)
            ||| % $._config,
            'for': '1m',
            labels: { severity: 'critical' },
            annotations: {
              summary: 'WOO X API key {{ $labels.api_key }} of account {{ $labels.account }} can trade or withdraw from any IP address',
              description: 'The API key {{ $labels.api_key }} of account {{ $labels.account }} has no IP restriction and holds TRADE or WITHDRAWAL. Anyone who obtains the key and its secret can use it from anywhere. Restrict it to known IP addresses or delete it.',
              runbook_url: runbook('WooxApiKeyWithoutIPRestriction'),
            },
          },
          // Same alert name, lower severity: read-only keys without an IP
          // restriction. `unless` keeps a key out of this rule when it already
          // fires the critical one above, so one key never alerts twice.
          {
            alert: 'WooxApiKeyWithoutIPRestriction',
            expr: |||
              (woox_api_key_ip_restricted{%(wooxSelector)s} == 0)
                unless on (account, api_key)
              (woox_api_key_permission{%(wooxSelector)s, permission=~"TRADE|WITHDRAWAL"} == 1)
            ||| % $._config,
            'for': '1m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'WOO X API key {{ $labels.api_key }} of account {{ $labels.account }} has no IP restriction',
              description: 'The API key {{ $labels.api_key }} of account {{ $labels.account }} has no IP restriction. It holds neither TRADE nor WITHDRAWAL, but it can read balances and history from anywhere. Restrict it to known IP addresses.',
              runbook_url: runbook('WooxApiKeyWithoutIPRestriction'),
            },
          },
          {
            alert: 'WooxApiKeyCanWithdraw',
            expr: 'woox_api_key_permission{%(wooxSelector)s, permission="WITHDRAWAL"} == 1' % $._config,
            'for': '1m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'WOO X API key {{ $labels.api_key }} of account {{ $labels.account }} can withdraw funds',
              description: 'The API key {{ $labels.api_key }} of account {{ $labels.account }} holds the WITHDRAWAL permission. Confirm that this key is meant to move funds off the exchange, and that it is IP-restricted.',
              runbook_url: runbook('WooxApiKeyCanWithdraw'),
            },
          },
          // A key that exists now and did not exist an hour ago. The second operand
          // requires the account to have had keys an hour ago: after a fresh
          // Prometheus, a newly configured account, or an exporter (or credentials
          // poll) outage that covered the instant one hour ago, every key would
          // otherwise look new. Matching on (account, api_key) ignores the other
          // labels, so a renamed account_name is not a new key. Fires for one hour.
          {
            alert: 'WooxNewApiKey',
            expr: |||
              (
                woox_api_key_info{%(wooxSelector)s}
                  unless on (account, api_key)
                (woox_api_key_info{%(wooxSelector)s} offset 1h)
              )
                and on (account)
              (count by (account) (woox_api_key_info{%(wooxSelector)s} offset 1h) > 0)
            ||| % $._config,
            'for': '0m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'New WOO X API key {{ $labels.api_key }} on account {{ $labels.account }}',
              description: 'The API key {{ $labels.api_key }} (account name {{ $labels.account_name }}, user id {{ $labels.user_id }}) appeared on account {{ $labels.account }} within the last hour. Confirm that someone on the team created it.',
              runbook_url: runbook('WooxNewApiKey'),
            },
          },
          // A key's set of allowed IPs or of permissions changed within
          // _config.apiKeyChangeWindow: a swapped address or a traded
          // permission leaves every gauge as it was. The counters start at 0
          // for a new key and continue from the state file after a restart,
          // so neither a new series nor a restart pages. Critical when the
          // key now holds TRADE or WITHDRAWAL, warning otherwise, as
          // WooxApiKeyWithoutIPRestriction. Fires for the window.
          {
            alert: 'WooxApiKeyAllowedIPsChanged',
            expr: |||
              (increase(woox_api_key_allowed_ips_changes_total{%(wooxSelector)s}[%(apiKeyChangeWindow)s]) > 0)
                and on (account, api_key)
              (woox_api_key_permission{%(wooxSelector)s, permission=~"TRADE|WITHDRAWAL"} == 1)
            ||| % $._config,
            'for': '0m',
            labels: { severity: 'critical' },
            annotations: {
              summary: 'The allowed IPs of WOO X API key {{ $labels.api_key }} of account {{ $labels.account }} changed',
              description: 'The set of client IP addresses allowed to use the API key {{ $labels.api_key }} of account {{ $labels.account }} changed within the last %s (an address replaced, added or removed, or the restriction set or lifted). The key holds TRADE or WITHDRAWAL: replacing an allowed address is the quiet way to take over a trading key. Find who changed it in the WOO X console and match it to a change ticket; revoke the key if no one can explain it.' % $._config.apiKeyChangeWindow,
              runbook_url: runbook('WooxApiKeyAllowedIPsChanged'),
            },
          },
          {
            alert: 'WooxApiKeyAllowedIPsChanged',
            expr: |||
              (increase(woox_api_key_allowed_ips_changes_total{%(wooxSelector)s}[%(apiKeyChangeWindow)s]) > 0)
                unless on (account, api_key)
              (woox_api_key_permission{%(wooxSelector)s, permission=~"TRADE|WITHDRAWAL"} == 1)
            ||| % $._config,
            'for': '0m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'The allowed IPs of WOO X API key {{ $labels.api_key }} of account {{ $labels.account }} changed',
              description: 'The set of client IP addresses allowed to use the API key {{ $labels.api_key }} of account {{ $labels.account }} changed within the last %s (an address replaced, added or removed, or the restriction set or lifted). The key holds neither TRADE nor WITHDRAWAL, but it can read balances and history from the new addresses. Find who changed it in the WOO X console and match it to a change ticket; revoke the key if no one can explain it.' % $._config.apiKeyChangeWindow,
              runbook_url: runbook('WooxApiKeyAllowedIPsChanged'),
            },
          },
          {
            alert: 'WooxApiKeyPermissionsChanged',
            expr: |||
              (increase(woox_api_key_permission_changes_total{%(wooxSelector)s}[%(apiKeyChangeWindow)s]) > 0)
                and on (account, api_key)
              (woox_api_key_permission{%(wooxSelector)s, permission=~"TRADE|WITHDRAWAL"} == 1)
            ||| % $._config,
            'for': '0m',
            labels: { severity: 'critical' },
            annotations: {
              summary: 'The permissions of WOO X API key {{ $labels.api_key }} of account {{ $labels.account }} changed',
              description: 'The set of permissions of the API key {{ $labels.api_key }} of account {{ $labels.account }} changed within the last %s, and the key now holds TRADE or WITHDRAWAL (woox_api_key_permission shows which). Find who changed it in the WOO X console and match it to a change ticket; revoke the key if no one can explain it.' % $._config.apiKeyChangeWindow,
              runbook_url: runbook('WooxApiKeyPermissionsChanged'),
            },
          },
          {
            alert: 'WooxApiKeyPermissionsChanged',
            expr: |||
              (increase(woox_api_key_permission_changes_total{%(wooxSelector)s}[%(apiKeyChangeWindow)s]) > 0)
                unless on (account, api_key)
              (woox_api_key_permission{%(wooxSelector)s, permission=~"TRADE|WITHDRAWAL"} == 1)
            ||| % $._config,
            'for': '0m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'The permissions of WOO X API key {{ $labels.api_key }} of account {{ $labels.account }} changed',
              description: 'The set of permissions of the API key {{ $labels.api_key }} of account {{ $labels.account }} changed within the last %s; the key holds neither TRADE nor WITHDRAWAL now. Find who changed it in the WOO X console and match it to a change ticket; revoke the key if no one can explain it.' % $._config.apiKeyChangeWindow,
              runbook_url: runbook('WooxApiKeyPermissionsChanged'),
            },
          },
          // A sub-account that exists now and did not exist an hour ago, on an
          // account whose sub-accounts the exporter had polled successfully an
          // hour ago. Unlike WooxNewApiKey the second operand is the poll, not a
          // count of sub-accounts: most accounts have none, and their first
          // sub-account is the one most worth seeing. A fresh Prometheus, a newly
          // configured account, an exporter restart or outage that covered the
          // instant one hour ago, or a key the exchange refuses for sub-accounts
          // (no successful poll) leave it silent. Matching on
          // (account, sub_account_id) ignores the instance and a renamed
          // sub-account. Fires for one hour.
          {
            alert: 'WooxNewSubAccount',
            expr: |||
              (
                woox_sub_account_info{%(wooxSelector)s}
                  unless on (account, sub_account_id)
                (woox_sub_account_info{%(wooxSelector)s} offset 1h)
              )
                and on (job, instance, account)
              (woox_poll_last_success_timestamp_seconds{%(wooxSelector)s, endpoint="sub_accounts"} offset 1h)
            ||| % $._config,
            'for': '0m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'New WOO X sub-account {{ $labels.sub_account_name }} on account {{ $labels.account }}',
              description: 'The sub-account {{ $labels.sub_account_name }} (id {{ $labels.sub_account_id }}) appeared on account {{ $labels.account }} within the last hour. Confirm that someone on the team created it.',
              runbook_url: runbook('WooxNewSubAccount'),
            },
          },
          {
            alert: 'WooxExporterKeyOverPrivileged',
            expr: 'woox_exporter_api_key_permission{%(wooxSelector)s, permission!="READ"} == 1' % $._config,
            'for': '1m',
            labels: { severity: 'critical' },
            annotations: {
              summary: "The exporter's WOO X API key for account {{ $labels.account }} holds {{ $labels.permission }}",
              description: 'The API key woox_exporter uses for account {{ $labels.account }} holds {{ $labels.permission }}. The exporter only reads; a monitoring credential that can trade or withdraw is a needless risk. Replace it with a read-only, IP-restricted key.',
              runbook_url: runbook('WooxExporterKeyOverPrivileged'),
            },
          },
          // A withdrawal to an address the allow-list does not hold
          // (--wallet.withdrawal-allowlist), or, without one, to an address no
          // earlier withdrawal of the account went to: the way a stolen key that
          // can withdraw ends. The exporter reads the new wallet rows every 15s
          // (--wallet.interval) and keeps a series naming each such withdrawal
          // for 24 hours after it first saw it; on the series, not on an
          // increase() of the counter, which would miss a counter's first
          // sample. Scraped and evaluated every 15s, it fires within a minute of
          // the row, once per withdrawal (id), and resolves after the day. max
          // by keeps one alert when several replicas watch the account.
          {
            alert: 'WooxWithdrawalToUnlistedAddress',
            expr: 'max by (account, token, network, address, tag, id, amount) (woox_wallet_withdrawal_destination_info{%(wooxSelector)s, destination="unlisted"})' % $._config,
            'for': '0m',
            labels: { severity: 'critical' },
            annotations: {
              summary: 'Withdrawal from WOO X account {{ $labels.account }} to an address not on the allow-list',
              description: 'Account {{ $labels.account }} withdrew {{ with $labels.amount }}{{ . }}{{ else }}an unknown amount of{{ end }} {{ $labels.token }} on {{ with $labels.network }}{{ . }}{{ else }}an unknown network{{ end }} to {{ $labels.address }}{{ with $labels.tag }} tag {{ . }}{{ end }}, which is not on the withdrawal allow-list (withdrawal {{ $labels.id }}). If nobody on the team made it, a key that can withdraw is in other hands: revoke the keys holding WITHDRAWAL in the WOO X console first, then ask WOO X to stop the withdrawal.',
              runbook_url: runbook('WooxWithdrawalToUnlistedAddress'),
            },
          },
          {
            alert: 'WooxWithdrawalToNewAddress',
            expr: 'max by (account, token, network, address, tag, id, amount) (woox_wallet_withdrawal_destination_info{%(wooxSelector)s, destination="new"})' % $._config,
            'for': '0m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'Withdrawal from WOO X account {{ $labels.account }} to a new address',
              description: 'Account {{ $labels.account }} withdrew {{ with $labels.amount }}{{ . }}{{ else }}an unknown amount of{{ end }} {{ $labels.token }} on {{ with $labels.network }}{{ . }}{{ else }}an unknown network{{ end }} to {{ $labels.address }}{{ with $labels.tag }} tag {{ . }}{{ end }}, where no earlier withdrawal of the account went (withdrawal {{ $labels.id }}). Confirm that someone on the team made it; if not, revoke the keys holding WITHDRAWAL in the WOO X console first, then ask WOO X to stop the withdrawal. An allow-list (--wallet.withdrawal-allowlist) pages only for addresses nobody expects.',
              runbook_url: runbook('WooxWithdrawalToNewAddress'),
            },
          },
        ],
      },
      {
        name: 'woox_exporter.networks',
        rules: [
          // Enabled at some point in the last hour, disabled now. Fires for up to an
          // hour after the switch; networks that have always been off never fire.
          {
            alert: 'WooxWithdrawalsDisabled',
            expr: |||
              (woox_token_network_withdrawal_enabled{%(wooxSelector)s} == 0)
                and on (token, network, protocol)
              (max_over_time(woox_token_network_withdrawal_enabled{%(wooxSelector)s}[1h]) == 1)
                and on (token, network, protocol)
              woox:watched_token_networks
            ||| % $._config,
            'for': '1m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'WOO X disabled withdrawals of {{ $labels.token }} on {{ $labels.network }}',
              description: 'Withdrawals of {{ $labels.token }} on network {{ $labels.network }} (protocol {{ $labels.protocol }}) were enabled within the last hour and are disabled now. Withdrawals on this network will be rejected until WOO X enables them again.',
              runbook_url: runbook('WooxWithdrawalsDisabled'),
            },
          },
          {
            alert: 'WooxDepositsDisabled',
            expr: |||
              (woox_token_network_deposit_enabled{%(wooxSelector)s} == 0)
                and on (token, network, protocol)
              (max_over_time(woox_token_network_deposit_enabled{%(wooxSelector)s}[1h]) == 1)
                and on (token, network, protocol)
              woox:watched_token_networks
            ||| % $._config,
            'for': '1m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'WOO X disabled deposits of {{ $labels.token }} on {{ $labels.network }}',
              description: 'Deposits of {{ $labels.token }} on network {{ $labels.network }} (protocol {{ $labels.protocol }}) were enabled within the last hour and are disabled now. Funds sent to the deposit address on this network may not be credited until WOO X enables deposits again.',
              runbook_url: runbook('WooxDepositsDisabled'),
            },
          },
          // More than double the fee of one hour ago. A fee of 0 an hour ago is
          // left out: many networks are free, and any ratio to 0 is meaningless.
          {
            alert: 'WooxWithdrawalFeeIncreased',
            expr: |||
              (
                woox_token_network_withdrawal_fee{%(wooxSelector)s}
                  > 2 * (woox_token_network_withdrawal_fee{%(wooxSelector)s} offset 1h)
              )
                and
              ((woox_token_network_withdrawal_fee{%(wooxSelector)s} offset 1h) > 0)
                and on (token, network, protocol)
              woox:watched_token_networks
            ||| % $._config,
            'for': '0m',
            labels: { severity: 'info' },
            annotations: {
              summary: 'WOO X withdrawal fee of {{ $labels.token }} on {{ $labels.network }} more than doubled',
              description: 'The withdrawal fee of {{ $labels.token }} on network {{ $labels.network }} is now {{ $value }} {{ $labels.token }}, more than twice what it was one hour ago. Consider another network or postponing withdrawals.',
              runbook_url: runbook('WooxWithdrawalFeeIncreased'),
            },
          },
        ],
      },
      {
        name: 'woox_exporter.history',
        rules: [
          // A liquidation shows as a LIQUIDATION counter that grew, or as a
          // series that appeared (the exporter only exports pairs it has
          // counted). Restarts fake both:
          // - Without a state file the exporter recounts only the lookback
          // window (--token-history.lookback): a counter drops, vanishes, or
          // climbs page by page during the first poll. increase() reads a drop
          // as a reset and counts it, so the counter is compared with its last
          // value at least 15 minutes old instead, unless that value was
          // exported before that exporter process's first successful history
          // poll (a partial recount). A counter that dropped stays silent until
          // it passes its old value or 15 minutes pass.
          // - Failed scrapes leave gaps (staleness markers), and an instant 15
          // minutes ago inside a gap made every series look new. A series is
          // new only when it was absent 15 minutes ago while the exporter had
          // already polled its account, or when it had no sample at all in the
          // hour before: a first deployment, or an outage longer than an hour,
          // when the first look-back window holds a liquidation (recent, and
          // worth the page).
          // Matching on (account, token) keeps an exporter that comes back under
          // another instance label from re-firing.
          {
            alert: 'WooxLiquidation',
            expr: |||
              (
                (
                  woox_token_history_records_total{%(wooxSelector)s, transaction_type="LIQUIDATION"}
                    >
                  last_over_time(woox_token_history_records_total{%(wooxSelector)s, transaction_type="LIQUIDATION"}[1h] offset 15m)
                )
                  unless on (job, instance, account)
                (
                  last_over_time(woox_poll_last_success_timestamp_seconds{%(wooxSelector)s, endpoint="token_history"}[1h] offset 15m)
                    <= on (job, instance) group_left
                  last_over_time(process_start_time_seconds{%(wooxSelector)s}[1h] offset 15m)
                )
              )
                or
              (
                (
                  woox_token_history_records_total{%(wooxSelector)s, transaction_type="LIQUIDATION"}
                    unless on (account, token)
                  (woox_token_history_records_total{%(wooxSelector)s, transaction_type="LIQUIDATION"} offset 15m)
                )
                  and on (job, instance, account)
                (woox_poll_last_success_timestamp_seconds{%(wooxSelector)s, endpoint="token_history"} offset 15m)
              )
                or
              (
                woox_token_history_records_total{%(wooxSelector)s, transaction_type="LIQUIDATION"}
                  unless on (account, token)
                last_over_time(woox_token_history_records_total{%(wooxSelector)s, transaction_type="LIQUIDATION"}[1h] offset 15m)
              )
            ||| % $._config,
            'for': '0m',
            labels: { severity: 'critical' },
            annotations: {
              summary: 'Liquidation on WOO X account {{ $labels.account }} ({{ $labels.token }})',
              description: 'The token history of account {{ $labels.account }} shows new LIQUIDATION records for {{ $labels.token }} within the last 15 minutes. Positions were closed by the exchange for lack of margin.',
              runbook_url: runbook('WooxLiquidation'),
            },
          },
        ],
      },
      {
        name: 'woox_exporter.exchange',
        rules: [
          // Any status but normal, including a code the exporter does not know.
          // The status only changes when the exporter polls it (default every
          // 1m); no `for:`, so the alert is firing, and inhibiting the poll and
          // staleness alerts in examples/alertmanager.yml, before they fire.
          {
            alert: 'WooxExchangeMaintenance',
            expr: 'woox_exchange_status{%(wooxSelector)s, status!="normal"} == 1' % $._config,
            'for': '0m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'WOO X is in {{ $labels.status }}',
              description: 'WOO X reports the system status {{ $labels.status }} to {{ $labels.instance }}. Its estimated end is {{ with printf "woox_exchange_maintenance_end_timestamp_seconds{job=%q,instance=%q}" $labels.job $labels.instance | query }}{{ . | first | value | humanizeTimestamp }}{{ else }}unknown{{ end }}. Trading, deposits and withdrawals may be unavailable; polls of the exporter may fail meanwhile.',
              runbook_url: runbook('WooxExchangeMaintenance'),
            },
          },
        ],
      },
      {
        name: 'woox_exporter.account',
        interval: $._config.riskEvaluationInterval,
        rules: [
          // Margin ratio as a multiple of the maintenance margin ratio, at
          // which WOO X liquidates (1); accounts without positions
          // (maintenance margin ratio 0) have no series. Recorded for the
          // forecast below, which needs its samples over a window.
          {
            record: 'woox:account_margin_to_maintenance:ratio',
            expr: |||
              woox_account_margin_ratio{%(wooxSelector)s}
                /
              (woox_account_maintenance_margin_ratio{%(wooxSelector)s} > 0)
            ||| % $._config,
          },
          // Seconds until that multiple reaches 1 at the pace of the line
          // fitted over marginRatioForecastWindow: only while it falls, and
          // with at least marginRatioForecastSamples samples, so that two
          // points are never a course.
          {
            record: 'woox:account_time_to_liquidation:seconds',
            expr: |||
              clamp_min(woox:account_margin_to_maintenance:ratio{%(wooxSelector)s} - 1, 0)
                /
              -(deriv(woox:account_margin_to_maintenance:ratio{%(wooxSelector)s}[%(marginRatioForecastWindow)s]) < 0)
                and
              count_over_time(woox:account_margin_to_maintenance:ratio{%(wooxSelector)s}[%(marginRatioForecastWindow)s]) >= %(marginRatioForecastSamples)d
            ||| % $._config,
          },
          // The value is the margin ratio as a multiple of the maintenance margin
          // ratio, at which WOO X liquidates (1). A maintenance margin ratio of 0
          // (no positions) gives +Inf and never fires; an account without
          // collateral has nothing to liquidate. Thresholds: _config.marginRatio*
          // (default 1.2 critical, 1.5 warning). The warning also fires below
          // the critical threshold so that nothing is silent while the critical
          // one is pending; examples/alertmanager.yml inhibits the warning while
          // the critical one fires. Account data is polled every 1m
          // (--account-info.interval).
          {
            alert: 'WooxMarginRatioLow',
            expr: |||
              (woox_account_margin_ratio{%(wooxSelector)s} / woox_account_maintenance_margin_ratio{%(wooxSelector)s} < %(marginRatioCritical)g)
                and
              (woox_account_total_collateral{%(wooxSelector)s} > 0)
            ||| % $._config,
            'for': '1m',
            labels: { severity: 'critical' },
            annotations: {
              summary: 'WOO X account {{ $labels.account }} is close to liquidation',
              description: 'The margin ratio of account {{ $labels.account }} is {{ $value | printf "%%.2f" }} times its maintenance margin ratio, below %g. WOO X liquidates positions at 1. Add collateral or reduce positions now.' % $._config.marginRatioCritical,
              runbook_url: runbook('WooxMarginRatioLow'),
            },
          },
          {
            alert: 'WooxMarginRatioLow',
            expr: |||
              (woox_account_margin_ratio{%(wooxSelector)s} / woox_account_maintenance_margin_ratio{%(wooxSelector)s} < %(marginRatioWarning)g)
                and
              (woox_account_total_collateral{%(wooxSelector)s} > 0)
            ||| % $._config,
            'for': '5m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'Margin of WOO X account {{ $labels.account }} is low',
              description: 'The margin ratio of account {{ $labels.account }} is {{ $value | printf "%%.2f" }} times its maintenance margin ratio, below %g. WOO X liquidates positions at 1. Consider adding collateral or reducing positions.' % $._config.marginRatioWarning,
              runbook_url: runbook('WooxMarginRatioLow'),
            },
          },
          // Pages on the course of the margin ratio: in a crash it falls
          // from the warning to liquidation in minutes, faster than
          // WooxMarginRatioLow's thresholds and `for` can tell. The
          // ceiling leaves out accounts whose margin is far from
          // maintenance, where a line over seconds says little.
          {
            alert: 'WooxMarginRatioForecast',
            expr: |||
              (
                woox:account_time_to_liquidation:seconds{%(wooxSelector)s} < %(horizon)d
                  and
                woox:account_margin_to_maintenance:ratio{%(wooxSelector)s} < %(marginRatioForecastCeiling)g
              )
                and
              (woox_account_total_collateral{%(wooxSelector)s} > 0)
            ||| % ($._config { horizon: seconds($._config.marginRatioForecastHorizon) }),
            'for': $._config.marginRatioForecastFor,
            labels: { severity: 'critical' },
            annotations: {
              summary: 'WOO X account {{ $labels.account }} is on course to liquidation in {{ $value | humanizeDuration }}',
              description: 'The margin ratio of account {{ $labels.account }}, now %s times its maintenance margin ratio, fell fast enough over the last %s to reach it in {{ $value | humanizeDuration }} at the same pace (alert within %s, below %g times), and has kept that course for at least %s. WOO X liquidates positions at 1. Add collateral or reduce positions now.' % [
                '{{ with printf "woox:account_margin_to_maintenance:ratio{job=%q,instance=%q,account=%q}" $labels.job $labels.instance $labels.account | query }}{{ . | first | value | printf "%.2f" }}{{ else }}unknown{{ end }}',
                $._config.marginRatioForecastWindow,
                $._config.marginRatioForecastHorizon,
                $._config.marginRatioForecastCeiling,
                $._config.marginRatioForecastFor,
              ],
              runbook_url: runbook('WooxMarginRatioForecast'),
            },
          },
          // The value is the transfer's age. The exporter only sees transfers
          // created within --wallet.lookback (default 7d) and polls them every
          // --wallet.lookback-interval (default 5m). Threshold: _config.withdrawalStuckSeconds.
          {
            alert: 'WooxWithdrawalStuck',
            expr: 'time() - woox_wallet_oldest_in_flight_timestamp_seconds{%(wooxSelector)s, side="WITHDRAW"} > %(withdrawalStuckSeconds)d' % $._config,
            'for': '10m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'Withdrawal from WOO X account {{ $labels.account }} in flight for {{ $value | humanizeDuration }}',
              description: 'The oldest withdrawal of account {{ $labels.account }} that is not completed, canceled or failed was created {{ $value | humanizeDuration }} ago. Withdrawals in flight:{{ range $i, $w := printf "woox_wallet_transfers_in_flight{job=%q,instance=%q,account=%q,side=\\"WITHDRAW\\"}" $labels.job $labels.instance $labels.account | query | sortByLabel "token" }}{{ if $i }},{{ end }} {{ $w.Labels.token }} on {{ with $w.Labels.network }}{{ . }}{{ else }}an unknown network{{ end }} ({{ $w.Labels.status }}){{ end }}. It may wait for a manual review, a travel-rule check, or a network whose withdrawals are disabled or congested.',
              runbook_url: runbook('WooxWithdrawalStuck'),
            },
          },
          // Any rise over the rate of one hour ago; maker rates may be negative
          // (rebates), and a smaller rebate is a rise too. As with
          // WooxWithdrawalFeeIncreased, a series without a sample one hour ago (a
          // fresh Prometheus, a new account, an exporter restart or outage that
          // covered that instant) has nothing to compare with and stays silent.
          // Fires for one hour after the change.
          {
            alert: 'WooxFeeRateIncreased',
            expr: 'woox_account_fee_rate{%(wooxSelector)s} > (woox_account_fee_rate{%(wooxSelector)s} offset 1h)' % $._config,
            'for': '0m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'WOO X {{ $labels.market }} {{ $labels.side }} fee rate of account {{ $labels.account }} increased',
              description: 'The {{ $labels.market }} {{ $labels.side }} fee rate of account {{ $labels.account }} is now {{ $value | humanizePercentage }}, up from {{ with printf "woox_account_fee_rate{job=%q,instance=%q,account=%q,market=%q,side=%q} offset 1h" $labels.job $labels.instance $labels.account $labels.market $labels.side | query }}{{ . | first | value | humanizePercentage }}{{ else }}unknown{{ end }} one hour ago. Trading on this account costs more; check its fee tier.',
              runbook_url: runbook('WooxFeeRateIncreased'),
            },
          },
          // The value, in token units, is the latest balances snapshot's
          // holding minus the baseline's, minus the token history records
          // dated between them: 0 while every change is explained. A record
          // listed late explains its change when it arrives, and the value
          // returns to 0: balanceUnexplainedFor (default 30m) is long enough
          // for a record the token history's overlap catches (5m behind its
          // cursor, read every minute). One found only by the late sweep
          // (every --token-history.late-interval, 1h) may fire it first and
          // then resolve it; raise balanceUnexplainedFor above that interval
          // to wait for the sweep. balanceUnexplainedTolerance is in units
          // of each token, applied to each token's series. $value is the
          // absolute value: the annotations query the signed one.
          {
            alert: 'WooxBalanceUnexplainedChange',
            local signed = '{{ with printf "woox_balance_unexplained_change{job=%q,instance=%q,account=%q,token=%q}" $labels.job $labels.instance $labels.account $labels.token | query }}{{ . | first | value | printf "%+g" }}{{ else }}±{{ $value | printf "%g" }}{{ end }} {{ $labels.token }}',
            // std.toString, not %g: Debian's jsonnet overflows formatting 0 with %g.
            local tolerance = std.toString($._config.balanceUnexplainedTolerance),
            expr: 'abs(woox_balance_unexplained_change{%s}) > %s' % [$._config.wooxSelector, tolerance],
            'for': $._config.balanceUnexplainedFor,
            labels: { severity: 'warning' },
            annotations: {
              summary: 'Unexplained change of %s in the balance of WOO X account {{ $labels.account }}' % signed,
              description: 'The {{ $labels.token }} balance of account {{ $labels.account }} on {{ $labels.instance }} differs by %s from what its token history explains (the holding now, minus the holding at the baseline, minus the records dated in between; positive: the balance holds more than the records explain), for at least %s (tolerance %s {{ $labels.token }}). Money moved that the token history does not list, or a record is missing; a record listed late would most likely have cleared it by now. Check the token history, deposits, withdrawals and sub-account transfers of {{ $labels.token }} in the WOO X UI; if nothing explains it, treat it as a possible security incident.' % [signed, $._config.balanceUnexplainedFor, tolerance],
              runbook_url: runbook('WooxBalanceUnexplainedChange'),
            },
          },
          // A haircut: the exchange lowered the collateral ratio of a token
          // the account holds (woox_balance_holding > 0: a cut on a token
          // nobody holds moves no collateral, and the exchange lists hundreds).
          // Compared with the token's highest ratio over
          // collateralRatioCutWindow, not with one window ago, so that it
          // fires from the first minutes of a fresh Prometheus; it resolves
          // once the window no longer holds the old ratio. Critical when the
          // account uses the token as collateral and the cut, as a share of
          // that highest ratio, is at least collateralRatioCutCritical;
          // examples/alertmanager.yml inhibits the warning while the critical
          // one fires. Needs the balances collector.
          {
            alert: 'WooxCollateralRatioCut',
            expr: |||
              (
                1 - woox_token_collateral_ratio{%(wooxSelector)s} / max_over_time(woox_token_collateral_ratio{%(wooxSelector)s}[%(collateralRatioCutWindow)s])
                  >= %(collateralRatioCutCritical)g
              )
                and
              (woox_token_collateral{%(wooxSelector)s} == 1)
                and
              (woox_balance_holding{%(wooxSelector)s} > 0)
            ||| % $._config,
            'for': '0m',
            labels: { severity: 'critical' },
            annotations: {
              summary: 'WOO X cut the collateral ratio of {{ $labels.token }} by {{ $value | humanizePercentage }} for account {{ $labels.account }}',
              description: 'The collateral ratio of {{ $labels.token }}, which account {{ $labels.account }} holds and uses as collateral, is now %s, {{ $value | humanizePercentage }} below its highest in the last %s (alert at %s). The account\'s free collateral fell at once, with no price move. Check the margin ratio; add collateral in another token or reduce positions.' % [
                '{{ with printf "woox_token_collateral_ratio{job=%q,instance=%q,account=%q,token=%q}" $labels.job $labels.instance $labels.account $labels.token | query }}{{ . | first | value | humanizePercentage }}{{ else }}unknown{{ end }}',
                $._config.collateralRatioCutWindow,
                std.toString($._config.collateralRatioCutCritical * 100) + '%',
              ],
              runbook_url: runbook('WooxCollateralRatioCut'),
            },
          },
          {
            alert: 'WooxCollateralRatioCut',
            expr: |||
              (
                woox_token_collateral_ratio{%(wooxSelector)s}
                  < max_over_time(woox_token_collateral_ratio{%(wooxSelector)s}[%(collateralRatioCutWindow)s])
              )
                and
              (woox_balance_holding{%(wooxSelector)s} > 0)
            ||| % $._config,
            'for': '0m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'WOO X cut the collateral ratio of {{ $labels.token }} for account {{ $labels.account }}',
              description: 'The collateral ratio of {{ $labels.token }}, which account {{ $labels.account }} holds, is now {{ $value | humanizePercentage }}, below its highest in the last %s (%s). The share of the holding counted as collateral fell with no price move.' % [
                $._config.collateralRatioCutWindow,
                '{{ with printf "max_over_time(woox_token_collateral_ratio{job=%q,instance=%q,account=%q,token=%q}[' + $._config.collateralRatioCutWindow + '])" $labels.job $labels.instance $labels.account $labels.token | query }}{{ . | first | value | humanizePercentage }}{{ else }}unknown{{ end }}',
              ],
              runbook_url: runbook('WooxCollateralRatioCut'),
            },
          },
          // A token the account holds stopped counting as collateral: the
          // exchange no longer takes it (woox_token_can_collateral) or the
          // account no longer uses it (woox_token_collateral), either 1 within
          // collateralRatioCutWindow and 0 now. A token that never counted,
          // a fresh Prometheus and a token not held stay silent.
          {
            alert: 'WooxCollateralDisabled',
            expr: |||
              (
                (woox_token_can_collateral{%(wooxSelector)s} == 0 and max_over_time(woox_token_can_collateral{%(wooxSelector)s}[%(collateralRatioCutWindow)s]) == 1)
                  or
                (woox_token_collateral{%(wooxSelector)s} == 0 and max_over_time(woox_token_collateral{%(wooxSelector)s}[%(collateralRatioCutWindow)s]) == 1)
              )
                and
              (woox_balance_holding{%(wooxSelector)s} > 0)
            ||| % $._config,
            'for': '0m',
            labels: { severity: 'critical' },
            annotations: {
              summary: '{{ $labels.token }} no longer counts as collateral of WOO X account {{ $labels.account }}',
              description: 'Account {{ $labels.account }} holds {{ $labels.token }}, which counted as its collateral within the last %s and no longer does (the exchange may use it as collateral: %s; the account uses it: %s). The account\'s free collateral fell by that holding\'s collateral value at once. Check the margin ratio; add collateral in another token or reduce positions.' % [
                $._config.collateralRatioCutWindow,
                '{{ with printf "woox_token_can_collateral{job=%q,instance=%q,account=%q,token=%q}" $labels.job $labels.instance $labels.account $labels.token | query }}{{ if eq (. | first | value) 1.0 }}yes{{ else }}no{{ end }}{{ else }}unknown{{ end }}',
                '{{ with printf "woox_token_collateral{job=%q,instance=%q,account=%q,token=%q}" $labels.job $labels.instance $labels.account $labels.token | query }}{{ if eq (. | first | value) 1.0 }}yes{{ else }}no{{ end }}{{ else }}unknown{{ end }}',
              ],
              runbook_url: runbook('WooxCollateralDisabled'),
            },
          },
        ],
      },
      {
        name: 'woox_exporter.positions',
        interval: $._config.riskEvaluationInterval,
        // A Go template of the query for the position series METRIC with
        // the alert's labels, printing its value, or "unknown" without one.
        local positionValue(metric) =
          '{{ with printf "%s{job=%%q,instance=%%q,account=%%q,symbol=%%q,position_side=%%q,margin_mode=%%q}" $labels.job $labels.instance $labels.account $labels.symbol $labels.position_side $labels.margin_mode | query }}{{ . | first | value | printf "%%g" }}{{ else }}unknown{{ end }}' % metric,
        // The same, for the position's distance to liquidation, as a percentage.
        local positionDistance =
          '{{ with printf "woox:position_liquidation_distance:ratio{job=%q,instance=%q,account=%q,symbol=%q,position_side=%q,margin_mode=%q}" $labels.job $labels.instance $labels.account $labels.symbol $labels.position_side $labels.margin_mode | query }}{{ . | first | value | humanizePercentage }}{{ else }}unknown{{ end }}',
        local position = '{{ $labels.symbol }} ({{ $labels.position_side }}, {{ $labels.margin_mode }}) of account {{ $labels.account }}',
        local percent(ratio) = '%g%%' % (ratio * 100),
        // The critical and the warning rule differ only in these.
        local nearLiquidation(severity, threshold, forDuration, advice) = {
          alert: 'WooxPositionNearLiquidation',
          expr: 'woox:position_liquidation_distance:ratio{%s} < %g' % [$._config.wooxSelector, threshold],
          'for': forDuration,
          labels: { severity: severity },
          annotations: {
            summary: 'WOO X position %s is {{ $value | humanizePercentage }} from liquidation' % position,
            description: 'The mark price of the position %s has been less than %s away from its estimated liquidation price for at least %s, now {{ $value | humanizePercentage }}: mark price %s, estimated liquidation price %s, size %s. WOO X liquidates the position when the mark price reaches that price. %s' % [
              position,
              percent(threshold),
              forDuration,
              positionValue('woox_position_mark_price'),
              positionValue('woox_position_estimated_liquidation_price'),
              positionValue('woox_position_holding'),
              advice,
            ],
            runbook_url: runbook('WooxPositionNearLiquidation'),
          },
        },
        rules: [
          // |mark - estimated liquidation price| / mark, per position. The
          // exporter exports a liquidation price only while the exchange
          // gives one other than 0, so positions without one have no
          // series here and never alert; a mark price of 0 is left out
          // rather than divided by. In the alerts' group, before them: they
          // read this evaluation's value.
          {
            record: 'woox:position_liquidation_distance:ratio',
            expr: |||
              abs(woox_position_mark_price{%(wooxSelector)s} - woox_position_estimated_liquidation_price{%(wooxSelector)s})
                /
              (woox_position_mark_price{%(wooxSelector)s} > 0)
            ||| % $._config,
          },
          // Seconds until the distance reaches 0 at the pace of the line
          // fitted over positionLiquidationForecastWindow: only while it
          // falls, and with at least positionLiquidationForecastSamples
          // samples, so that a position opened seconds ago (two points) has
          // no course yet; WooxPositionNearLiquidation covers one opened
          // close to liquidation.
          {
            record: 'woox:position_time_to_liquidation:seconds',
            expr: |||
              woox:position_liquidation_distance:ratio{%(wooxSelector)s}
                /
              -(deriv(woox:position_liquidation_distance:ratio{%(wooxSelector)s}[%(positionLiquidationForecastWindow)s]) < 0)
                and
              count_over_time(woox:position_liquidation_distance:ratio{%(wooxSelector)s}[%(positionLiquidationForecastWindow)s]) >= %(positionLiquidationForecastSamples)d
            ||| % $._config,
          },
          // A price can cover the remaining distance in minutes: `for` only
          // rides out an odd mark price or two (critical 1m, warning 2m). As with WooxMarginRatioLow, the warning also
          // fires below the critical threshold, so nothing is silent while
          // the critical one is pending; examples/alertmanager.yml inhibits
          // the warning of the same position while the critical one fires.
          nearLiquidation(
            'critical',
            $._config.positionLiquidationCritical,
            $._config.positionLiquidationCriticalFor,
            'Add margin or reduce the position now.',
          ),
          nearLiquidation(
            'warning',
            $._config.positionLiquidationWarning,
            $._config.positionLiquidationWarningFor,
            'Consider adding margin or reducing the position.',
          ),
          // Pages on the course: a mark price falling from 20% above the
          // liquidation price to it in 4 minutes crosses the distance
          // thresholds too late for their `for`. The ceiling leaves out
          // positions far from liquidation, where a line over seconds says
          // little.
          {
            alert: 'WooxPositionLiquidationForecast',
            expr: |||
              woox:position_time_to_liquidation:seconds{%(wooxSelector)s} < %(horizon)d
                and
              woox:position_liquidation_distance:ratio{%(wooxSelector)s} < %(positionLiquidationForecastCeiling)g
            ||| % ($._config { horizon: seconds($._config.positionLiquidationForecastHorizon) }),
            'for': $._config.positionLiquidationForecastFor,
            labels: { severity: 'critical' },
            annotations: {
              summary: 'WOO X position %s is on course to liquidation in {{ $value | humanizeDuration }}' % position,
              description: 'The distance of the position %s to its estimated liquidation price fell fast enough over the last %s to reach 0 in {{ $value | humanizeDuration }} at the same pace (alert within %s, below %s away), and has kept that course for at least %s. It is %s away now: mark price %s, estimated liquidation price %s, size %s. WooxPositionNearLiquidation, on the distance alone, may fire too late at this pace. Add margin or reduce the position now.' % [
                position,
                $._config.positionLiquidationForecastWindow,
                $._config.positionLiquidationForecastHorizon,
                percent($._config.positionLiquidationForecastCeiling),
                $._config.positionLiquidationForecastFor,
                positionDistance,
                positionValue('woox_position_mark_price'),
                positionValue('woox_position_estimated_liquidation_price'),
                positionValue('woox_position_holding'),
              ],
              runbook_url: runbook('WooxPositionLiquidationForecast'),
            },
          },
          // The rank (1 to 5) of the position in the exchange's
          // auto-deleverage queue: when a liquidation cannot be filled and
          // the insurance fund does not cover it, WOO X closes opposite
          // positions of the highest ranks, profitable and leveraged ones,
          // at the liquidated position's price. The rank moves with price
          // and PnL, so a longer `for` than the liquidation alert's.
          {
            alert: 'WooxPositionAutoDeleverageRisk',
            expr: 'woox_position_adl_quantile{%(wooxSelector)s} >= %(positionAdlQuantile)g' % $._config,
            'for': $._config.positionAdlFor,
            labels: { severity: 'warning' },
            annotations: {
              summary: 'WOO X position %s is at auto-deleverage rank {{ $value | printf "%%.0f" }} of 5' % position,
              description: 'The position %s has been at auto-deleverage rank {{ $value | printf "%%.0f" }} of 5 (alert at %g or above) for at least %s. If a position on the other side is liquidated and the exchange cannot fill it, WOO X may close this position, without an order, at the liquidated position\'s price. Leverage %s, 24 h PnL %s. Lower the leverage or take some profit to lower the rank.' % [
                position,
                $._config.positionAdlQuantile,
                $._config.positionAdlFor,
                positionValue('woox_position_leverage'),
                positionValue('woox_position_pnl_24h'),
              ],
              runbook_url: runbook('WooxPositionAutoDeleverageRisk'),
            },
          },
        ],
      },
      {
        name: 'woox_exporter.health',
        rules: [
          // Each endpoint keeps its last result until its next poll; 10m covers two
          // credentials/token_network polls (5m) and ten token_history polls (1m),
          // so one retried blip does not page. The description lists the
          // reasons of the failures (woox_poll_failures_total) over that time.
          {
            alert: 'WooxPollFailing',
            expr: 'woox_poll_success{%(wooxSelector)s} == 0' % $._config,
            'for': $._config.pollFailingFor,
            labels: { severity: 'warning' },
            annotations: {
              summary: 'woox_exporter cannot poll {{ $labels.endpoint }}{{ if $labels.account }} for account {{ $labels.account }}{{ end }}',
              description: std.join('', [
                'The last poll of {{ $labels.endpoint }}{{ if $labels.account }} for account {{ $labels.account }}{{ end }} on {{ $labels.instance }} failed, and it has been failing for at least %s. ' % $._config.pollFailingFor,
                'Failures by reason in that time:{{ range printf "increase(woox_poll_failures_total{job=%%q,instance=%%q,endpoint=%%q,account=%%q}[%s]) > 0" $labels.job $labels.instance $labels.endpoint $labels.account | query }} {{ .Labels.reason }} {{ .Value | printf "%%.0f" }}{{ else }} unknown{{ end }}. ' % $._config.pollFailingFor,
                'The exporter keeps serving the last data it had; alerts based on it may be out of date.',
              ]),
              runbook_url: runbook('WooxPollFailing'),
            },
          },
          // A rejected key is no flaky network: the exporter reads nothing
          // of the account until someone fixes the key, its IP restriction or
          // the secret. Per account, from any endpoint whose last poll failed
          // and that was refused within the window; public endpoints
          // (account="") need no key.
          {
            alert: 'WooxApiKeyRejected',
            expr: |||
              max by (job, instance, account) (
                increase(woox_poll_failures_total{%(wooxSelector)s, reason="auth", account!=""}[%(apiKeyRejectedWindow)s]) > 0
                  and on (job, instance, endpoint, account)
                woox_poll_success{%(wooxSelector)s} == 0
              )
            ||| % $._config,
            'for': $._config.apiKeyRejectedFor,
            labels: { severity: 'critical' },
            annotations: {
              summary: 'WOO X refuses the API key of account {{ $labels.account }}',
              description: 'The exchange has refused the API key of account {{ $labels.account }} on {{ $labels.instance }} as unauthorized (HTTP 401 or 403, code -1001 or -1002) for at least %s: nothing of that account is read, so no other alert can fire for it. Check that the key is not revoked or expired, that its IP restriction allows the address the exporter connects from, and that the secret is the key\'s own; the exporter logs the first refusal at error.' % $._config.apiKeyRejectedFor,
              runbook_url: runbook('WooxApiKeyRejected'),
            },
          },
          // Thresholds are about three poll intervals at the default flags
          // (token_history 1m, token_network 5m; credentials, polled every 1m,
          // keeps the 20m of its former 5m); raise them
          // in _config with --token-history.interval, --credentials.interval or
          // --token-network.interval.
          // woox_poll_last_success_timestamp_seconds exists only after the
          // first success, woox_poll_success from the first finished poll:
          // an endpoint with a poll but never a success counts its age from
          // the exporter's start (process_start_time_seconds).
          {
            alert: 'WooxDataStale',
            local stale(endpoints, seconds) = |||
              (time() - woox_poll_last_success_timestamp_seconds{%(sel)s, endpoint=~"%(ep)s"} > %(s)d)
                or
              (
                (
                  woox_poll_success{%(sel)s, endpoint=~"%(ep)s"} * 0
                    + on (job, instance) group_left ()
                  (time() - process_start_time_seconds{%(sel)s})
                )
                  unless on (job, instance, endpoint, account)
                woox_poll_last_success_timestamp_seconds{%(sel)s}
              ) > %(s)d
            ||| % { sel: $._config.wooxSelector, ep: endpoints, s: seconds },
            expr: std.join('  or\n', [
              stale($._config.dataStaleFastEndpoints, $._config.dataStaleFastSeconds),
              stale($._config.dataStaleSlowEndpoints, $._config.dataStaleSlowSeconds),
              stale('sub_accounts', $._config.dataStaleSubAccountsSeconds),
            ]),
            'for': '5m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'woox_exporter data for {{ $labels.endpoint }}{{ if $labels.account }} of account {{ $labels.account }}{{ end }} is stale',
              description: 'The last successful poll of {{ $labels.endpoint }}{{ if $labels.account }} for account {{ $labels.account }}{{ end }} on {{ $labels.instance }} was {{ $value | humanizeDuration }} ago (or it never succeeded, since the exporter started that long ago), several poll intervals. Security and network alerts are blind for this data until polling succeeds again.',
              runbook_url: runbook('WooxDataStale'),
            },
          },
          // The rate limit is shared with whatever else uses the account's
          // keys (trading bots): a single 429 is routine contention and only
          // shows on the dashboard ("HTTP 429 responses"). The alert fires on
          // sustained refusal: 429s in at least rateLimitedWindows of the
          // last rateLimitedWindowsOf windows of rateLimitedWindow (default 3
          // of the last 4 5-minute windows). The subquery evaluates the
          // windows at aligned steps; the first 429 of a series born with it
          // (no pre-created 0) is not counted, its later ones are.
          {
            alert: 'WooxRateLimited',
            local c = $._config {
              rateLimitedRange: '%dm' % (std.parseInt(std.rstripChars($._config.rateLimitedWindow, 'm')) * $._config.rateLimitedWindowsOf - 1),
            },
            expr: |||
              count_over_time(
                (
                  sum by (job, instance, endpoint, account) (
                    increase(woox_api_requests_total{%(wooxSelector)s, code="429"}[%(rateLimitedWindow)s])
                  ) > 0
                )[%(rateLimitedRange)s:%(rateLimitedWindow)s]
              ) >= %(rateLimitedWindows)d
            ||| % c,
            'for': '0m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'WOO X keeps rate-limiting woox_exporter on {{ $labels.endpoint }}{{ if $labels.account }} for account {{ $labels.account }}{{ end }}',
              description: 'WOO X answered requests of {{ $labels.instance }} to {{ $labels.endpoint }}{{ if $labels.account }} for account {{ $labels.account }}{{ end }} with HTTP 429 in {{ $value | printf "%%.0f" }} of the last %d %s windows. Polls slow down or fail, and other users of the same account\'s limit (trading bots) are likely throttled too.' % [$._config.rateLimitedWindowsOf, $._config.rateLimitedWindow],
              runbook_url: runbook('WooxRateLimited'),
            },
          },
          // The process-wide cap (--api.max-requests-per-second) paces every
          // account's polls when they need more than it allows: each poll
          // then runs late, the positions polled every 5s among them, and the
          // risk alerts come late. The mean wait of the accounts' requests
          // (seconds waited over requests let through) rather than
          // woox_api_rate_cap_queued: the queue is a point-in-time gauge that
          // reads 0 between bursts at scrape time, while the counters see
          // every wait. One alert per exporter, not per account: the turns
          // are fair, so when the cap binds every account waits alike. The
          // public endpoints (account="") are left out; a cap turned off
          // (0, after a restart) clears it at once, though the window still
          // holds the old waits.
          {
            alert: 'WooxExporterRateCapSaturated',
            expr: |||
              (
                sum by (job, instance) (rate(woox_api_rate_cap_wait_seconds_total{%(wooxSelector)s, account!=""}[%(rateCapWaitWindow)s]))
                  /
                sum by (job, instance) (rate(woox_api_rate_cap_admitted_total{%(wooxSelector)s, account!=""}[%(rateCapWaitWindow)s]))
              ) > %(rateCapWaitWarningSeconds)g
                and on (job, instance)
              woox_api_rate_cap_requests_per_second{%(wooxSelector)s} > 0
            ||| % $._config,
            'for': $._config.rateCapWaitFor,
            labels: { severity: 'warning' },
            annotations: {
              summary: 'woox_exporter {{ $labels.instance }} (job {{ $labels.job }}) polls late: its requests wait for --api.max-requests-per-second',
              description: std.join('', [
                'The requests of the accounts polled by {{ $labels.instance }} (job {{ $labels.job }}) waited {{ $value | humanizeDuration }} on average for their turn under --api.max-requests-per-second',
                '{{ with printf "woox_api_rate_cap_requests_per_second{job=%q,instance=%q}" $labels.job $labels.instance | query }} ({{ . | first | value | printf "%.0f" }} requests a second){{ end }}',
                ' over the last %s, more than %gs for at least %s: the cap, not the exchange, paces the polls, so every account is polled less often than its intervals and the position and margin alerts arrive late. ' % [$._config.rateCapWaitWindow, $._config.rateCapWaitWarningSeconds, $._config.rateCapWaitFor],
                'Raise --api.max-requests-per-second if the exchange allows this address more, lengthen the poll intervals, or split the accounts over replicas (--shard.*) that leave through different addresses.',
              ]),
              runbook_url: runbook('WooxExporterRateCapSaturated'),
            },
          },
          // Set at start when the state file could not be used and was set
          // aside: token history counters restarted from zero. Stays until the
          // exporter restarts with a good file.
          {
            alert: 'WooxStateFileCorrupt',
            expr: 'woox_exporter_state_file_corrupt{%(wooxSelector)s} == 1' % $._config,
            'for': '0m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'woox_exporter on {{ $labels.instance }} set its state file aside at start',
              description: 'The token history state file of {{ $labels.instance }} could not be used at start and was set aside; the token history counters restarted from zero, so flow and liquidation panels show a reset. The exporter keeps running and writes a new file.',
              runbook_url: runbook('WooxStateFileCorrupt'),
            },
          },
          // The file is rewritten after each token history poll (1m): a
          // failure in every 5-minute window for 15 minutes is a disk or
          // permission problem, not a blip. Until it is fixed the token
          // history and transfer counters hold at their saved values.
          {
            alert: 'WooxStateFileWriteFailing',
            expr: 'increase(woox_exporter_state_file_write_failures_total{%(wooxSelector)s}[5m]) > 0' % $._config,
            'for': '15m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'woox_exporter on {{ $labels.instance }} cannot write its state file',
              description: 'Writes of the token history state file of {{ $labels.instance }} have kept failing for 15 minutes ({{ $value | printf "%.0f" }} in the last 5 minutes). Until a write succeeds the token history and transfer counters hold at their saved values (a counter is shown only once saved, so that a crash never moves it back).',
              runbook_url: runbook('WooxStateFileWriteFailing'),
            },
          },
          // A failed reload (SIGHUP or POST /-/reload) leaves the accounts
          // and keys before it in use: an added account is not watched, a
          // rotated key not used. As Prometheus' own mixin judges its reloads.
          {
            alert: 'WooxExporterConfigReloadFailed',
            expr: 'max_over_time(woox_exporter_config_last_reload_successful{%(wooxSelector)s}[5m]) == 0' % $._config,
            'for': '10m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'woox_exporter on {{ $labels.instance }} failed to reload its configuration',
              description: 'The last reload of the configuration of {{ $labels.instance }} (SIGHUP or POST /-/reload) failed: the accounts and keys from before it are still in use, so an account added is not watched and a rotated key is not used. The exporter logs why (msg="configuration reload failed").',
              runbook_url: runbook('WooxExporterConfigReloadFailed'),
            },
          },
          // An allow-list entry on a network the exchange does not list
          // (ETHEREUM for ETH) matches no withdrawal: every withdrawal to
          // that address would page as unlisted.
          {
            alert: 'WooxAllowListNetworkUnknown',
            expr: 'woox_wallet_allowlist_unknown_network_entries{%(wooxSelector)s} > 0' % $._config,
            'for': '15m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'woox_exporter on {{ $labels.instance }} has allow-list entries on networks the exchange does not list',
              description: '{{ $value | printf "%.0f" }} entries of the withdrawal allow-list of {{ $labels.instance }} name a network the exchange\'s token networks do not list, so no withdrawal matches them and every withdrawal to those addresses would page as unlisted. The exporter logs each entry with the listed network closest to it.',
              runbook_url: runbook('WooxAllowListNetworkUnknown'),
            },
          },
          // The exchange sent more distinct rows than --limits.series-per-endpoint:
          // gauges beyond the cap are missing, token history records beyond
          // it are counted under token="__other__". A window of several
          // polls of the slowest endpoints (sub-accounts, 15m).
          {
            alert: 'WooxSeriesCapped',
            expr: 'increase(woox_exporter_series_capped_total{%(wooxSelector)s}[%(seriesCappedWindow)s]) > 0' % $._config,
            'for': '0m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'woox_exporter on {{ $labels.instance }} capped the series of {{ $labels.endpoint }}',
              description: 'The exchange sent more distinct rows of {{ $labels.endpoint }} (account "{{ $labels.account }}") than --limits.series-per-endpoint in the last %s ({{ $value | printf "%%.0f" }} rows capped): gauges beyond the cap are not exported, token history records beyond it are counted under token="__other__".' % $._config.seriesCappedWindow,
              runbook_url: runbook('WooxSeriesCapped'),
            },
          },
          // Rows of a list answer that could not be read are left out, the
          // rest exported: the poll succeeds, so WooxPollFailing stays quiet
          // while the metrics of those rows are missing. Short: the gauge
          // holds until the endpoint's next poll anyway.
          {
            alert: 'WooxRowsRejected',
            expr: 'woox_poll_rows_rejected{%(wooxSelector)s} > 0' % $._config,
            'for': $._config.rowsRejectedFor,
            labels: { severity: 'warning' },
            annotations: {
              summary: 'woox_exporter leaves out rows of {{ $labels.endpoint }}{{ if $labels.account }} for account {{ $labels.account }}{{ end }} that it cannot read',
              description: 'The last successful poll of {{ $labels.endpoint }}{{ if $labels.account }} for account {{ $labels.account }}{{ end }} on {{ $labels.instance }} could not read {{ $value | printf "%.0f" }} of the rows the exchange sent (a field missing or of the wrong kind) and left them out; the other rows are exported. The exporter log names each row (position, identifying field, field at fault). The metrics of those rows are missing, and so are the alerts on them.',
              runbook_url: runbook('WooxRowsRejected'),
            },
          },
          // A poll is inconsistent when the exchange's meta.total promises
          // more records than its pages return. Once is a race with new
          // records; a steady rise means the exchange overstates it.
          {
            alert: 'WooxTokenHistoryInconsistent',
            expr: 'increase(woox_token_history_inconsistent_polls_total{%(wooxSelector)s}[%(tokenHistoryInconsistentWindow)s]) >= %(tokenHistoryInconsistentPolls)d' % $._config,
            'for': '15m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'WOO X token history of account {{ $labels.account }} keeps disagreeing with its own total',
              description: '{{ $value | printf "%%.0f" }} token history polls of account {{ $labels.account }} on {{ $labels.instance }} in the last %s found fewer records than the exchange\'s meta.total. The exchange overstates the total; the exporter counts the records it gets, but may re-read pages and lag.' % $._config.tokenHistoryInconsistentWindow,
              runbook_url: runbook('WooxTokenHistoryInconsistent'),
            },
          },
          // WOO X rejects signed requests at 300 s of skew; warn well before.
          {
            alert: 'WooxClockSkew',
            expr: 'abs(woox_api_clock_skew_seconds{%(wooxSelector)s}) > %(clockSkewSeconds)d' % $._config,
            'for': '5m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'Clock of woox_exporter host {{ $labels.instance }} is {{ $value | humanizeDuration }} off WOO X',
              description: 'The clock of {{ $labels.instance }} differs from the WOO X server clock by {{ $value | humanizeDuration }}. WOO X rejects signed requests at 300 s of skew; every private poll will then fail.',
              runbook_url: runbook('WooxClockSkew'),
            },
          },
          // Replicas of one job sharded by --shard.count must agree on the
          // count, or some accounts are polled twice (two budgets spent) and
          // others by nobody.
          {
            alert: 'WooxExporterShardingMismatch',
            expr: 'stdvar by (job) (woox_exporter_total_shards{%(wooxSelector)s}) != 0' % $._config,
            'for': '15m',
            labels: { severity: 'critical' },
            annotations: {
              summary: 'Replicas of woox_exporter job {{ $labels.job }} disagree on the shard count',
              description: 'The replicas of job {{ $labels.job }} report different woox_exporter_total_shards values: each splits the accounts its own way, so some accounts are polled by two replicas (twice the API budget) and some by none.',
              runbook_url: runbook('WooxExporterShardingMismatch'),
            },
          },
          // Every index 0 .. count-1 must be scraped exactly once: 2^count - 1
          // is the sum of 2^index over all of them, so a missing shard leaves
          // a positive remainder and a duplicated one a negative one.
          {
            alert: 'WooxExporterShardMissing',
            expr: |||
              (2 ^ max by (job) (woox_exporter_total_shards{%(wooxSelector)s}) - 1)
                - sum by (job) (2 ^ woox_exporter_shard_ordinal{%(wooxSelector)s})
              != 0
            ||| % $._config,
            'for': '15m',
            labels: { severity: 'critical' },
            annotations: {
              summary: 'A shard of woox_exporter job {{ $labels.job }} is missing or runs twice',
              description: 'The shard indexes scraped for job {{ $labels.job }} are not exactly 0 to woox_exporter_total_shards - 1, each once: the accounts of a missing shard are not watched, and a shard running twice spends its accounts\' API budget twice.',
              runbook_url: runbook('WooxExporterShardMissing'),
            },
          },
          // The default selector job="woox" is the job of examples/prometheus.yml;
          // set _config.wooxSelector if you scrape the exporter under another
          // job. The description names the job when the selector is a single
          // job="NAME" (as the default), else it quotes the selector.
          {
            alert: 'WooxExporterDown',
            local sel = $._config.wooxSelector,
            local job = std.substr(sel, 5, std.length(sel) - 6),
            local scraped =
              if std.length(sel) > 6 && std.startsWith(sel, 'job="') && std.endsWith(sel, '"')
                 && std.length(std.findSubstr('"', job)) == 0
              then 'job "%s"' % job
              else sel,
            expr: |||
              (up{%(wooxSelector)s} == 0)
                or
              absent(up{%(wooxSelector)s})
            ||| % $._config,
            'for': '5m',
            labels: { severity: 'critical' },
            annotations: {
              summary: 'woox_exporter is down or not scraped',
              description: 'Prometheus has not scraped woox_exporter (%s{{ if $labels.instance }}, target {{ $labels.instance }}{{ end }}) successfully for 5 minutes, or has no such target. No WOO X key, network or history alerts can fire meanwhile.' % scraped,
              runbook_url: runbook('WooxExporterDown'),
            },
          },
        ],
      },
      {
        name: 'woox_exporter.transfers',
        rules: [
          // Money left a watched account for an application id that no
          // replica exports as a watched account's (woox_transfer_account_info):
          // a join in Prometheus, so accounts sharded over replicas are judged
          // together. Fires for transferOutUnwatchedWindowSeconds after the
          // transfer; __other__ (beyond the series cap) has no id and is left out.
          // Both sides are read with last_over_time over
          // transferAccountsWatchedWindow: a replica that restarts, is rolled
          // or is down for less than that loses its series for a scrape or
          // more, and its accounts then looked unwatched, paging every
          // rollout; a real alert no longer resolves while the sender's
          // replica restarts either. An account counts as watched for that
          // window after the last replica that watched it stopped.
          {
            alert: 'WooxTransferOutToUnwatchedAccount',
            expr: |||
              max by (account, counterparty, application_id) (
                time() - last_over_time(woox_transfer_last_timestamp_seconds{%(wooxSelector)s, direction="out", application_id!=""}[%(transferAccountsWatchedWindow)s])
                  < %(transferOutUnwatchedWindowSeconds)s
              )
                unless on (application_id)
              last_over_time(woox_transfer_account_info{%(wooxSelector)s}[%(transferAccountsWatchedWindow)s])
            ||| % $._config,
            'for': '0m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'Money left WOO X account {{ $labels.account }} for an account nobody watches ({{ $labels.counterparty }})',
              description: 'Account {{ $labels.account }} completed a transfer to {{ $labels.counterparty }} (applicationId {{ $labels.application_id }}), which no woox_exporter watches. A stolen key moves money to a sub-account with weaker keys before withdrawing it.',
              runbook_url: runbook('WooxTransferOutToUnwatchedAccount'),
            },
          },
        ],
      },
      {
        name: 'woox_exporter.funding',
        rules: [
          // Each account's funding fees of the last 24 hours by symbol and
          // direction, with the symbol's settlement token (USDT of
          // PERP_BTC_USDT); max by, so that replicas of one account, and a
          // rollout's new instance, count once. increase() misses the first
          // payment of a series born within the day (the exporter creates
          // it with that payment): a fresh Prometheus, or one scraping an
          // exporter restored from its state file, must not read a
          // counter's whole past as the last day's.
          {
            record: 'woox:funding_fee_amount:increase24h',
            expr: |||
              label_replace(
                max by (account, symbol, direction) (increase(woox_funding_fee_amount_total{%(wooxSelector)s}[24h])),
                "settlement_token", "$1", "symbol", ".+_([^_]+)"
              )
            ||| % $._config,
          },
          // Paid less received, by settlement token: an account whose
          // positions bleed funding, a position left open on the wrong side
          // of the rate or a bot gone wrong.
          {
            alert: 'WooxFundingPaidHigh',
            expr: |||
              (
                  sum by (account, settlement_token) (woox:funding_fee_amount:increase24h{direction="paid"})
                -
                  (
                      sum by (account, settlement_token) (woox:funding_fee_amount:increase24h{direction="received"})
                    or
                      sum by (account, settlement_token) (woox:funding_fee_amount:increase24h{direction="paid"}) * 0
                  )
              ) > %(fundingPaidHighThreshold)s
            ||| % $._config,
            'for': '0m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'WOO X account {{ $labels.account }} paid {{ $value | printf "%.2f" }} {{ $labels.settlement_token }} of net funding in 24 hours',
              description: 'The perpetual positions of account {{ $labels.account }} settled in {{ $labels.settlement_token }} paid {{ $value | printf "%%.2f" }} {{ $labels.settlement_token }} more funding than they received over the last 24 hours, above the threshold of %s. The dashboard\'s "Net funding by symbol" shows which symbols pay.' % $._config.fundingPaidHighThreshold,
              runbook_url: runbook('WooxFundingPaidHigh'),
            },
          },
        ],
      },
      {
        // What the venue does to what an account holds: a symbol that stops
        // trading, a symbol's limits cut, funding announced. Evaluated every
        // riskEvaluationInterval, so that a suspension pages within two
        // minutes of the status change (a 1m instruments poll, a 15s scrape,
        // a 15s evaluation).
        name: 'woox_exporter.venue',
        interval: $._config.riskEvaluationInterval,
        rules: [
          // The projected payment of each account's position on a perpetual
          // at its next settlement, in the symbol's quote currency:
          // holding (negative for a short) times mark price times the
          // estimated rate, so a long pays a positive rate and a short a
          // negative one (positive: paid, negative: received). max by before
          // the sum, so that a rollout's two instances count once; the hedge
          // mode's two sides are summed.
          {
            record: 'woox:funding_projected_payment:next_settlement',
            expr: |||
              sum by (account, symbol) (
                max by (account, symbol, position_side) (
                  woox_position_holding{%(wooxSelector)s} * woox_position_mark_price{%(wooxSelector)s}
                )
              )
                * on (symbol) group_left ()
              max by (symbol) (woox_futures_est_funding_rate{%(wooxSelector)s})
            ||| % $._config,
          },
          {
            alert: 'WooxFundingProjectedHigh',
            expr: 'woox:funding_projected_payment:next_settlement > %(fundingProjectedHighThreshold)s' % $._config,
            'for': '0m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'WOO X account {{ $labels.account }} is due to pay {{ $value | printf "%.2f" }} of funding on {{ $labels.symbol }}',
              description: 'At the estimated funding rate of {{ $labels.symbol }}, the position of account {{ $labels.account }} pays about {{ $value | printf "%%.2f" }} in the quote currency at the next settlement ({{ with printf "max(woox_futures_next_funding_timestamp_seconds{symbol=%%q})" $labels.symbol | query }}{{ . | first | value | humanizeTimestamp }}{{ else }}time unknown{{ end }}), above the threshold of %s. The rate is an estimate until the settlement: reduce or hedge the position before it if the cost is not intended.' % $._config.fundingProjectedHighThreshold,
              runbook_url: runbook('WooxFundingProjectedHigh'),
            },
          },
          // A position on a perpetual that is not trading, or that the
          // exchange no longer lists, cannot be reduced. Judged while an
          // exporter polled the instruments within dataStaleFastSeconds; a
          // symbol missing from the list pages only while the list was read
          // whole (not empty, no row rejected, none capped within the hour).
          {
            alert: 'WooxHeldInstrumentNotTrading',
            local c = $._config { held: 'max by (account, symbol) (woox_position_holding{%(wooxSelector)s} != 0)' % $._config },
            expr: |||
              (
                  (
                    %(held)s
                      and on (symbol)
                    max by (symbol) (woox_instrument_trading{%(wooxSelector)s} == 0)
                  )
                or
                  (
                    (
                      %(held)s
                        unless on (symbol)
                      max by (symbol) (woox_instrument_trading{%(wooxSelector)s})
                    )
                      and on ()
                    (count(woox_instrument_trading{%(wooxSelector)s}) > 0)
                      and on ()
                    (max(woox_poll_rows_rejected{%(wooxSelector)s, endpoint="instruments"}) == 0)
                      and on ()
                    ((sum(increase(woox_exporter_series_capped_total{%(wooxSelector)s, endpoint="instruments"}[1h])) or vector(0)) == 0)
                  )
              )
                and on ()
              (min(time() - woox_poll_last_success_timestamp_seconds{%(wooxSelector)s, endpoint="instruments"}) < %(dataStaleFastSeconds)s)
            ||| % c,
            'for': '0m',
            labels: { severity: 'critical' },
            annotations: {
              summary: 'WOO X account {{ $labels.account }} holds a position on {{ $labels.symbol }}, which is not trading',
              description: 'Account {{ $labels.account }} holds {{ $value }} of {{ $labels.symbol }}, which the exchange lists with a status other than TRADING or no longer lists at all. Orders on it, a reduce-only close included, may be refused until it trades again; a delisted perpetual is settled at the exchange\'s price.',
              runbook_url: runbook('WooxHeldInstrumentNotTrading'),
            },
          },
          // A spot token held whose USDT pair is not trading: it cannot be
          // sold on the exchange (deposits and withdrawals are watched by the
          // network alerts).
          {
            alert: 'WooxHeldInstrumentNotTrading',
            expr: |||
              (
                label_replace(max by (account, token) (woox_balance_holding{%(wooxSelector)s} > 0), "symbol", "SPOT_${1}_USDT", "token", "(.+)")
                  and on (symbol)
                max by (symbol) (woox_instrument_trading{%(wooxSelector)s} == 0)
              )
                and on ()
              (min(time() - woox_poll_last_success_timestamp_seconds{%(wooxSelector)s, endpoint="instruments"}) < %(dataStaleFastSeconds)s)
            ||| % $._config,
            'for': '0m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'WOO X account {{ $labels.account }} holds {{ $labels.token }}, whose pair {{ $labels.symbol }} is not trading',
              description: 'Account {{ $labels.account }} holds {{ $value }} {{ $labels.token }}, and the exchange lists {{ $labels.symbol }} with a status other than TRADING: the token cannot be sold for USDT on the exchange until it trades again.',
              runbook_url: runbook('WooxHeldInstrumentNotTrading'),
            },
          },
          // A lower max leverage or a higher margin factor raises the
          // maintenance margin of a position with no trade at all: the
          // liquidation price moves closer.
          {
            alert: 'WooxSymbolRiskLimitCut',
            local c = $._config { w: $._config.symbolRiskLimitCutWindow },
            expr: |||
              (
                  label_replace(
                    max by (account, symbol) (max_over_time(woox_symbol_max_leverage{%(wooxSelector)s}[%(w)s]))
                      >
                    max by (account, symbol) (woox_symbol_max_leverage{%(wooxSelector)s}),
                    "limit", "max_leverage", "", ""
                  )
                or
                  label_replace(
                    max by (account, symbol) (min_over_time(woox_symbol_margin_factor{%(wooxSelector)s}[%(w)s]))
                      <
                    max by (account, symbol) (woox_symbol_margin_factor{%(wooxSelector)s}),
                    "limit", "margin_factor", "", ""
                  )
              )
                and on (account, symbol)
              max by (account, symbol) (woox_position_holding{%(wooxSelector)s} != 0)
            ||| % c,
            'for': '0m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'WOO X cut the {{ $labels.limit }} of {{ $labels.symbol }} for account {{ $labels.account }}, which holds a position on it',
              description: 'Within the last %s the exchange lowered the max leverage or raised the margin factor ({{ $labels.limit }}, was {{ $value }}) of {{ $labels.symbol }} for account {{ $labels.account }}, which holds a position on it. Its maintenance margin rose with no trade: check the margin ratio and the liquidation price.' % $._config.symbolRiskLimitCutWindow,
              runbook_url: runbook('WooxSymbolRiskLimitCut'),
            },
          },
        ],
      },
      {
        name: 'woox_exporter.account_activity',
        interval: $._config.riskEvaluationInterval,
        local leverageRaised = |||
          (
              label_replace(
                max by (account) (woox_account_leverage{%(wooxSelector)s})
                  >
                min by (account) (min_over_time(woox_account_leverage{%(wooxSelector)s}[%(accountSettingChangeWindow)s])),
                "setting", "leverage", "", ""
              )
            or
              label_replace(
                max by (account, symbol, position_side) (woox_position_leverage{%(wooxSelector)s})
                  >
                min by (account, symbol, position_side) (min_over_time(woox_position_leverage{%(wooxSelector)s}[%(accountSettingChangeWindow)s])),
                "setting", "position_leverage", "", ""
              )
          )
            and on (account, setting)
          (max by (account, setting) (increase(woox_account_setting_changes_total{%(wooxSelector)s}[%(accountSettingChangeWindow)s])) > 0)
        ||| % $._config,
        rules: [
          // A leverage raised, of the account or of a position: the same
          // move against it liquidates sooner. Its value is the leverage now.
          {
            alert: 'WooxAccountSettingChanged',
            expr: leverageRaised,
            'for': '0m',
            labels: { severity: 'critical' },
            annotations: {
              summary: 'The {{ $labels.setting }} of WOO X account {{ $labels.account }} was raised{{ with $labels.symbol }} on {{ . }}{{ end }}',
              description: 'Within the last %s the {{ $labels.setting }} of account {{ $labels.account }}{{ with $labels.symbol }} on {{ . }} {{ $labels.position_side }}{{ end }} was raised, to {{ $value }}. Any key with TRADE can do this; a higher leverage brings liquidation closer for the same move. Find who changed it and match it to a change ticket.' % $._config.accountSettingChangeWindow,
              runbook_url: runbook('WooxAccountSettingChanged'),
            },
          },
          {
            alert: 'WooxAccountSettingChanged',
            expr: |||
              (max by (account, setting) (increase(woox_account_setting_changes_total{%(wooxSelector)s}[%(accountSettingChangeWindow)s])) > 0)
                unless on (account, setting)
              (%(raised)s)
            ||| % ($._config { raised: std.stripChars(leverageRaised, '\n') }),
            'for': '0m',
            labels: { severity: 'warning' },
            annotations: {
              summary: 'The {{ $labels.setting }} of WOO X account {{ $labels.account }} changed',
              description: 'Within the last %s the {{ $labels.setting }} of account {{ $labels.account }} changed about {{ $value | printf "%%.0f" }} time(s) (a leverage lowered, the account or position mode switched, a position moved between CROSS and ISOLATED margin). Any key with TRADE can do this. Find who changed it and match it to a change ticket.' % $._config.accountSettingChangeWindow,
              runbook_url: runbook('WooxAccountSettingChanged'),
            },
          },
          // A runaway bot: far more open orders than the account's own
          // recent level. The median ignores the surge until it lasts half
          // the window; clamp_min keeps an account with no orders judged.
          {
            alert: 'WooxOpenOrdersSurge',
            expr: |||
              (max by (account) (woox_open_orders{%(wooxSelector)s}) >= %(openOrdersSurgeMinimum)s)
                and on (account)
              (
                max by (account) (woox_open_orders{%(wooxSelector)s})
                  >
                %(openOrdersSurgeFactor)s * clamp_min(max by (account) (quantile_over_time(0.5, woox_open_orders{%(wooxSelector)s}[%(openOrdersSurgeWindow)s])), 1)
              )
            ||| % $._config,
            'for': $._config.openOrdersSurgeFor,
            labels: { severity: 'warning' },
            annotations: {
              summary: 'WOO X account {{ $labels.account }} has {{ $value }} open orders, far above its usual level',
              description: 'Account {{ $labels.account }} has {{ $value }} open orders, more than %s times their median over the last %s. A trading bot may be placing orders in a loop: check its logs, and cancel its orders or revoke its key if it runs away.' % [$._config.openOrdersSurgeFactor, $._config.openOrdersSurgeWindow],
              runbook_url: runbook('WooxOpenOrdersSurge'),
            },
          },
        ] + (if $._config.positionWithoutStopAlert then [
               // Judged while the algo orders poll is fresh: a failing poll
               // is WooxPollFailing's, not a missing stop.
               {
                 alert: 'WooxPositionWithoutStop',
                 expr: |||
                   (
                     max by (account, symbol) (woox_position_holding{%(wooxSelector)s} != 0)
                       unless on (account, symbol)
                     max by (account, symbol) (woox_open_algo_orders{%(wooxSelector)s, algo_type=~"%(stopAlgoTypes)s"} > 0)
                   )
                     and on (account)
                   (min by (account) (time() - woox_poll_last_success_timestamp_seconds{%(wooxSelector)s, endpoint="algo_orders"}) < %(dataStaleFastSeconds)s)
                 ||| % $._config,
                 'for': '10m',
                 labels: { severity: 'warning' },
                 annotations: {
                   summary: 'WOO X account {{ $labels.account }} holds {{ $labels.symbol }} without a stop',
                   description: 'Account {{ $labels.account }} holds {{ $value }} of {{ $labels.symbol }} and has had no open stop-type algo order (%s) on it for 10 minutes.' % $._config.stopAlgoTypes,
                   runbook_url: runbook('WooxPositionWithoutStop'),
                 },
               },
             ] else []),
      },
    ],
  },
}
