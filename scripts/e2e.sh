#!/usr/bin/env bash
# End-to-end check of the whole chain on 127.0.0.1: fake exchange → exporter
# → Prometheus (with alerts/ loaded) → Alertmanager.
#
# Asserts that the expected alerts reach Alertmanager and the ones that must
# stay silent do not, then runs every query of the Grafana dashboard against
# Prometheus's HTTP API and asserts that each runs, and that each returns
# data once its constant fallback (` or vector(0)`) is removed. It does so
# twice: for the job woox (scripts/e2e/scenario.yml: risky keys, history,
# transfers, maintenance) and for the job woox-fresh, a second fake exchange
# and exporter showing a fresh account (scripts/e2e/fresh-scenario.yml:
# nothing has happened yet) with default flags (no state file, sub-accounts
# collector off). There a panel may be empty only when its description says
# what it needs (fresh_no_data_ok below).
# Needs Debian's prometheus, prometheus-alertmanager, jq and curl (.ci/run
# installs them). Bounded: waits at most E2E_TIMEOUT seconds (default 480)
# for the alerts, every curl has --max-time, and .ci/run adds a hard
# `timeout 600`. Stops every process it started by PID (SIGTERM, SIGKILL
# after 5 s). On failure, also on SIGTERM/SIGINT, it names the part that
# failed and prints its log in full (last 300 lines), then the tail of the
# others.
set -euo pipefail
cd "$(dirname "$0")/.."

timeout_s=${E2E_TIMEOUT:-480}
for tool in prometheus prometheus-alertmanager promtool jq curl go; do
  command -v "$tool" >/dev/null || { echo "e2e: $tool is not installed" >&2; exit 2; }
done

work=$(mktemp -d)
pids=()  # processes started, in order
names=() # their names: NAME.log in $work is each one's output
failed=1
stage=setup # what runs now, named in the failure report
focus=()    # names of the processes whose logs matter most if it fails

# running PID: true while the process exists and is not a zombie.
running() {
  local st
  st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1) || return 1
  [ -n "$st" ] && [ "$st" != Z ]
}

stop_all() {
  local pid i alive
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for _ in $(seq 50); do
    alive=0
    for pid in "${pids[@]}"; do running "$pid" && alive=1; done
    [ "$alive" -eq 0 ] && break
    sleep 0.1
  done
  for i in "${!pids[@]}"; do
    if running "${pids[$i]}"; then
      echo "e2e: ${names[$i]} (pid ${pids[$i]}) still running 5s after SIGTERM; SIGKILL" >&2
      kill -KILL "${pids[$i]}" 2>/dev/null || true
    fi
  done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}

cleanup() {
  trap - EXIT INT TERM
  stop_all
  if [ "$failed" -ne 0 ]; then
    echo "e2e: FAILED while: $stage" >&2
    local name log
    for name in "${focus[@]}"; do
      log="$work/$name.log"
      [ -f "$log" ] || continue
      echo "----- $name.log (failing part; last 300 lines) -----"
      tail -n 300 "$log"
    done
    for log in "$work"/*.log; do
      [ -f "$log" ] || continue
      name=$(basename "$log" .log)
      printf '%s\n' "${focus[@]}" | grep -qxF -- "$name" && continue
      echo "----- $name.log (last 60 lines) -----"
      tail -n 60 "$log"
    done
  fi
  rm -rf "$work"
}
trap cleanup EXIT
# timeout(1) and Ctrl-C: leave through the EXIT trap, so processes are
# stopped and logs printed.
trap 'echo "e2e: interrupted while: $stage" >&2; exit 143' TERM INT

# start NAME COMMAND...: runs it in the background, output to $work/NAME.log.
start() {
  local name=$1
  shift
  "$@" >"$work/$name.log" 2>&1 &
  pids+=($!)
  names+=("$name")
}

# check_alive: fails the run, naming it, when a started process has exited.
check_alive() {
  local i
  for i in "${!pids[@]}"; do
    if ! running "${pids[$i]}"; then
      stage="${names[$i]} exited unexpectedly ($stage)"
      focus=("${names[$i]}")
      echo "e2e: FAIL: ${names[$i]} exited" >&2
      exit 1
    fi
  done
}

# A free loopback port, not handed out before: probed with a connection,
# and below the kernel's ephemeral range (ip_local_port_range), where the
# outgoing connections of processes already started could take it before
# its process binds it.
# free_port VAR sets VAR (not in a subshell, so picks are remembered).
picked=" "
free_port() {
  local port low
  low=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
  for _ in $(seq 50); do
    port=$((10000 + RANDOM % (low - 10000)))
    case $picked in *" $port "*) continue ;; esac
    if ! (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null; then
      picked+="$port "
      printf -v "$1" '%s' "$port"
      return
    fi
  done
  echo "e2e: no free port" >&2; exit 1
}
fake_port='' exporter_port='' prom_port='' am_port='' fresh_fake_port='' fresh_exporter_port=''
free_port fake_port; free_port exporter_port; free_port prom_port; free_port am_port
free_port fresh_fake_port; free_port fresh_exporter_port

wait_http() { # URL NAME: up to 20 s
  stage="waiting for $2 to come up"
  focus=("$2")
  for _ in $(seq 100); do
    curl -fsS --max-time 2 -o /dev/null "$1" 2>/dev/null && return 0
    check_alive
    sleep 0.2
  done
  echo "e2e: $2 did not come up at $1" >&2
  return 1
}

# Queries whose real part may return nothing, each with the reason:
# "query|reason", the query as `STRIP_FALLBACKS=1 bash
# scripts/dashboard-queries.sh` prints it (job woox; it stands for every job
# checked). Keep it empty if you can: make the scenario produce the data
# instead. An entry that no longer matches, under any job, fails.
no_data_ok=()
# Queries that may return nothing on the fresh account only, in the same
# form: "query|what the panel needs, in the words of its description". Only
# an optional feature left off, or data no exporter can know before it
# exists (the tokens of an account that never held or moved one), belongs
# here: a count or sum over a known label set shows 0, the exporter exports
# it at 0. Each panel must say what it needs in its description.
fresh_no_data_ok=(
  'max by (account, sub_account_id, sub_account_name) (woox_sub_account_info{job=~"woox", instance=~".+", account=~".*"})|Needs --collector.sub-accounts'
  'max by (instance) (woox_exporter_state_file_corrupt{job=~"woox", instance=~".+"})|need --token-history.state-file'
  'sum by (instance) (increase(woox_exporter_state_file_write_failures_total{job=~"woox", instance=~".+"}[1m]))|need --token-history.state-file'
  'time() - max by (account) (woox_token_history_last_record_timestamp_seconds{job=~"woox", instance=~".+", account=~".*"})|Empty until a record of the account is counted'
  'sum by (token, transaction_type) (increase(woox_token_history_inflow_total{job=~"woox", instance=~".+", account=~".*", token=~".*"}[1m]))|Empty until a record is counted'
  'sum by (token, transaction_type) (increase(woox_token_history_outflow_total{job=~"woox", instance=~".+", account=~".*", token=~".*"}[1m]))|Empty until a record is counted'
  'sum by (account, token, transaction_type) (increase(woox_token_history_inflow_total{job=~"woox", instance=~".+", account=~".*"}[1h]))|Empty until a record is counted'
  'sum by (account, token, transaction_type) (increase(woox_token_history_outflow_total{job=~"woox", instance=~".+", account=~".*"}[1h]))|Empty until a record is counted'
  'sum by (account, token, transaction_type) (increase(woox_token_history_records_total{job=~"woox", instance=~".+", account=~".*"}[1h]))|Empty until a record is counted'
  '(woox_balance_holding{job=~"woox", instance=~".+", account=~".*"} * woox_balance_mark_price{job=~"woox", instance=~".+", account=~".*"}) or woox_balance_holding{job=~"woox", instance=~".+", account=~".*",token="USDT"}|Empty while the account holds no token'
  'max by (account, token) (woox_balance_holding{job=~"woox", instance=~".+", account=~".*"})|Empty while the account holds no token'
  'max by (account, token) (woox_balance_available{job=~"woox", instance=~".+", account=~".*"})|Empty while the account holds no token'
  'max by (account, token) (woox_balance_frozen{job=~"woox", instance=~".+", account=~".*"})|Empty while the account holds no token'
  'max by (account, token) (woox_balance_staked{job=~"woox", instance=~".+", account=~".*"})|Empty while the account holds no token'
  'max by (account, token) (woox_balance_mark_price{job=~"woox", instance=~".+", account=~".*"})|Empty while the account holds no token'
  'sum by (account, side, token, network, status) (woox_wallet_transfers_in_flight{job=~"woox", instance=~".+", account=~".*"})|Empty while nothing is in flight'
  'time() - woox_wallet_oldest_in_flight_timestamp_seconds{job=~"woox", instance=~".+", account=~".*"}|Empty while nothing is in flight'
  'woox_account_fee_rate{job=~"woox", instance=~".+", account=~".*"}|Empty when the exchange sends no fee rate'
  'woox_balance_unexplained_change{job=~"woox", instance=~".+", account=~".*"}|Empty while the account holds no token'
  'abs(woox_position_holding{job=~"woox", instance=~".+", account=~".*"}) * woox_position_mark_price{job=~"woox", instance=~".+", account=~".*"}|Empty while the account has no open position'
  'max by (account, symbol, position_side, margin_mode) (abs(woox_position_holding{job=~"woox", instance=~".+", account=~".*"}) * woox_position_mark_price{job=~"woox", instance=~".+", account=~".*"})|Empty while the account has no open position'
  'max by (account, symbol, position_side, margin_mode) (woox:position_liquidation_distance:ratio{job=~"woox", instance=~".+", account=~".*"})|Empty while the account has no open position'
  'max by (account, symbol, position_side, margin_mode) (woox_position_adl_quantile{job=~"woox", instance=~".+", account=~".*"})|Empty while the account has no open position'
  'max by (account, symbol, position_side, margin_mode) (woox_position_average_open_price{job=~"woox", instance=~".+", account=~".*"})|Empty while the account has no open position'
  'max by (account, symbol, position_side, margin_mode) (woox_position_estimated_liquidation_price{job=~"woox", instance=~".+", account=~".*"})|Empty while the account has no open position'
  'max by (account, symbol, position_side, margin_mode) (woox_position_holding{job=~"woox", instance=~".+", account=~".*"})|Empty while the account has no open position'
  'max by (account, symbol, position_side, margin_mode) (woox_position_isolated_margin{job=~"woox", instance=~".+", account=~".*"})|Empty while the account has no open position'
  'max by (account, symbol, position_side, margin_mode) (woox_position_leverage{job=~"woox", instance=~".+", account=~".*"})|Empty while the account has no open position'
  'max by (account, symbol, position_side, margin_mode) (woox_position_mark_price{job=~"woox", instance=~".+", account=~".*"})|Empty while the account has no open position'
  'max by (account, symbol, position_side, margin_mode) (woox_position_pnl_24h{job=~"woox", instance=~".+", account=~".*"})|Empty while the account has no open position'
  'woox:position_liquidation_distance:ratio{job=~"woox", instance=~".+", account=~".*"}|Empty while the account has no open position'
  'woox_position_adl_quantile{job=~"woox", instance=~".+", account=~".*"}|Empty while the account has no open position'
  'woox_position_fee_24h{job=~"woox", instance=~".+", account=~".*"}|Empty while the account has no open position'
  'woox_position_holding{job=~"woox", instance=~".+", account=~".*"}|Empty while the account has no open position'
  'woox_position_leverage{job=~"woox", instance=~".+", account=~".*"}|Empty while the account has no open position'
  'woox_position_pnl_24h{job=~"woox", instance=~".+", account=~".*"}|Empty while the account has no open position'
)
# check_described ENTRY...: the panel of each entry's query says in its
# description what it needs (the words after the |).
check_described() {
  local e id q desc found bad=0 listed
  listed=$(STRIP_FALLBACKS=1 PANEL_IDS=1 bash scripts/dashboard-queries.sh)
  for e in "$@"; do
    found=0
    while IFS=$'\t' read -r id q; do
      [ "$q" = "${e%%|*}" ] || continue
      found=1
      desc=$(jq -r --argjson id "$id" '[.panels[]?, (.panels[]?.panels[]?)] | .[] | select(.id == $id) | .description // ""' dashboards/woox_exporter.json)
      if ! grep -qF -- "${e#*|}" <<<"$desc"; then
        echo "e2e: FAIL: panel $id may be empty on a fresh account, but its description does not say \"${e#*|}\": $desc" >&2
        bad=1
      fi
    done <<<"$listed"
    [ "$found" -eq 1 ] || { echo "e2e: FAIL: exemption matches no dashboard query: $e" >&2; bad=1; }
  done
  return "$bad"
}
stage="checking the descriptions of the panels that may be empty"
check_described "${fresh_no_data_ok[@]}"

stage=building
echo "e2e: building"
go build -o "$work/woox_exporter" .
go build -o "$work/fakeexchange" ./cmd/fakeexchange
go build -o "$work/alertmatch" ./cmd/alertmatch

echo "e2e: starting fake exchange on 127.0.0.1:$fake_port"
start fakeexchange "$work/fakeexchange" --listen "127.0.0.1:$fake_port" --scenario scripts/e2e/scenario.yml
wait_http "http://127.0.0.1:$fake_port/v3/public/tokenNetwork" fakeexchange

echo "e2e: starting exporter on 127.0.0.1:$exporter_port"
cp scripts/e2e/accounts.yml "$work/accounts.yml"
(umask 077; printf 'E2EMAINEXPORTERSECRET0000001\n' >"$work/main.secret")
start exporter env WOOX_E2E_SUB_SECRET=E2ESUBEXPORTERSECRET00000004 "$work/woox_exporter" \
  --web.listen-address="127.0.0.1:$exporter_port" \
  --woox.api-url="http://127.0.0.1:$fake_port" \
  --config.file="$work/accounts.yml" \
  --api.rate-limit=100/10s \
  --token-network.interval=5s --credentials.interval=5s --token-history.interval=5s \
  --system-info.interval=5s --account-info.interval=5s --balances.interval=5s \
  --wallet.interval=5s --sub-accounts.interval=5s --collector.sub-accounts --positions.interval=5s \
  --token-history.state-file="$work/state.json" \
  --log.level=debug
wait_http "http://127.0.0.1:$exporter_port/-/ready" exporter

# The fresh account: its own exchange, so that nothing of the scenario above
# (maintenance, faults, events) reaches it. Default flags but the intervals.
echo "e2e: starting the fresh account's fake exchange on 127.0.0.1:$fresh_fake_port and exporter on 127.0.0.1:$fresh_exporter_port"
start fakeexchange-fresh "$work/fakeexchange" --listen "127.0.0.1:$fresh_fake_port" --scenario scripts/e2e/fresh-scenario.yml
wait_http "http://127.0.0.1:$fresh_fake_port/v3/public/tokenNetwork" fakeexchange-fresh
start exporter-fresh env WOOX_E2E_FRESH_SECRET=E2EFRESHEXPORTERSECRET000001 "$work/woox_exporter" \
  --web.listen-address="127.0.0.1:$fresh_exporter_port" \
  --woox.api-url="http://127.0.0.1:$fresh_fake_port" \
  --config.file=scripts/e2e/fresh-accounts.yml \
  --api.rate-limit=100/10s \
  --token-network.interval=5s --credentials.interval=5s --token-history.interval=5s \
  --system-info.interval=5s --account-info.interval=5s --balances.interval=5s \
  --wallet.interval=5s --positions.interval=5s
wait_http "http://127.0.0.1:$fresh_exporter_port/-/ready" exporter-fresh

echo "e2e: starting Alertmanager on 127.0.0.1:$am_port"
cat >"$work/alertmanager.yml" <<YAML
route:
  receiver: blackhole
  group_wait: 1s
  group_interval: 5s
  repeat_interval: 1h
receivers:
  - name: blackhole
YAML
# The example's inhibition rules, as users run them.
sed -n '/^inhibit_rules:/,$p' examples/alertmanager.yml >>"$work/alertmanager.yml"
start alertmanager prometheus-alertmanager --config.file="$work/alertmanager.yml" --storage.path="$work/am-data" \
  --web.listen-address="127.0.0.1:$am_port" --cluster.listen-address=
wait_http "http://127.0.0.1:$am_port/-/ready" alertmanager

echo "e2e: starting Prometheus on 127.0.0.1:$prom_port"
cat >"$work/prometheus.yml" <<YAML
global:
  scrape_interval: 2s
  evaluation_interval: 2s
rule_files:
  - $work/rules.yml
alerting:
  alertmanagers:
    - static_configs:
        - targets: ["127.0.0.1:$am_port"]
scrape_configs:
  - job_name: woox
    static_configs:
      - targets: ["127.0.0.1:$exporter_port"]
  - job_name: woox-fresh
    static_configs:
      - targets: ["127.0.0.1:$fresh_exporter_port"]
YAML
# The shipped rules, but WooxBalanceUnexplainedChange waits 1m instead of
# balanceUnexplainedFor's 30m, longer than this run, and the risk groups are
# evaluated every 2s like the rest here.
stage="rendering the rules"
bash scripts/mixin.sh rules '{balanceUnexplainedFor: "1m", riskEvaluationInterval: "2s"}' >"$work/rules.yml"
stage="checking the Prometheus configuration"
promtool check config "$work/prometheus.yml" >/dev/null
start prometheus prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/prom-data" \
  --web.listen-address="127.0.0.1:$prom_port"
wait_http "http://127.0.0.1:$prom_port/-/ready" prometheus

# Alerts that must reach Alertmanager: "alertname label=value ...".
expected=(
  'WooxApiKeyWithoutIPRestriction severity=critical account=main'
  'WooxApiKeyWithoutIPRestriction severity=warning account=main'
  'WooxApiKeyCanWithdraw account=main'
  'WooxExporterKeyOverPrivileged account=main'
  'WooxWithdrawalsDisabled token=USDT network=ETH'
  'WooxLiquidation account=main'
  # Announced at 10s, open to the end; trading maintenance, so polls go on.
  'WooxExchangeMaintenance status=trading_maintenance'
  # main's margin ratio walks down to its maintenance margin ratio.
  'WooxMarginRatioLow severity=critical account=main'
  # The risky short's mark price walks to within 5 % of its liquidation
  # price; main's critical margin alert, firing too, must not hide it.
  'WooxPositionNearLiquidation severity=critical account=main symbol=PERP_BTC_USDT position_side=SHORT margin_mode=ISOLATED'
  # main's BTC: 0.05 left with no record (rendered with for: 1m).
  'WooxBalanceUnexplainedChange account=main token=BTC'
  # ADL rank 5 from 5s, for positionAdlFor (5m): the run's longest wait.
  'WooxPositionAutoDeleverageRisk account=main symbol=PERP_BTC_USDT position_side=SHORT'
)
# Alerts that must reach Alertmanager but no one: it holds them back with the
# example's inhibition rules. WooxRateLimited needs 429s over 10+ minutes,
# longer than this run, so these are posted to Alertmanager directly
# (synthetic_alerts below, label e2e=synthetic) beside the real ones.
inhibited=(
  # During the real maintenance of this exporter.
  "WooxRateLimited e2e=synthetic instance=127.0.0.1:$exporter_port endpoint=token_network"
  # Stale data of an endpoint whose polls fail (another instance: no
  # maintenance there).
  'WooxDataStale e2e=synthetic instance=synthetic:1 endpoint=balances account=main'
  # The warning of a key that also has the critical one.
  'WooxApiKeyWithoutIPRestriction e2e=synthetic severity=warning api_key=e2e-synthetic'
  # Real: the risky position's warning, held back by its critical alert.
  'WooxPositionNearLiquidation severity=warning account=main symbol=PERP_BTC_USDT position_side=SHORT'
)
# Synthetic alerts that must not be inhibited: the sources above.
expected_synthetic=(
  'WooxPollFailing e2e=synthetic instance=synthetic:1 endpoint=balances account=main'
  'WooxApiKeyWithoutIPRestriction e2e=synthetic severity=critical api_key=e2e-synthetic'
)
synthetic_alerts=$(jq -n --arg inst "127.0.0.1:$exporter_port" '[
  {labels: {alertname: "WooxRateLimited", e2e: "synthetic", job: "woox", instance: $inst, endpoint: "token_network", severity: "warning"}},
  {labels: {alertname: "WooxPollFailing", e2e: "synthetic", job: "woox", instance: "synthetic:1", endpoint: "balances", account: "main", severity: "warning"}},
  {labels: {alertname: "WooxDataStale", e2e: "synthetic", job: "woox", instance: "synthetic:1", endpoint: "balances", account: "main", severity: "warning"}},
  {labels: {alertname: "WooxApiKeyWithoutIPRestriction", e2e: "synthetic", job: "woox", instance: "synthetic:1", account: "main", api_key: "e2e-synthetic", severity: "critical"}},
  {labels: {alertname: "WooxApiKeyWithoutIPRestriction", e2e: "synthetic", job: "woox", instance: "synthetic:1", account: "main", api_key: "e2e-synthetic", severity: "warning"}}
]')
# Alerts that must be pending or firing in Prometheus: their `for` is longer
# than this run.
pending=(
  # A withdrawal of main in PROCESSING since 2h ago (for: 10m).
  'WooxWithdrawalStuck account=main side=WITHDRAW'
  # main's margin ratio below 1.5x maintenance (for: 5m; the critical one
  # holds it back in Alertmanager once both fire).
  'WooxMarginRatioLow severity=warning account=main'
)
# PromQL that must return data before the silent alerts are checked, so that
# their silence means something.
seen=(
  # ARB/ARB, listed already disabled at 40s, seen for at least 5 scrapes
  # (10s, 5 rule evaluations: a wrong alert would be pending by then).
  'count_over_time(woox_token_network_withdrawal_enabled{token="ARB"}[5m]) >= 5'
  # main's USDT was unexplained until its late record arrived, and is
  # explained again.
  'max_over_time(woox_balance_unexplained_change{job="woox", account="main", token="USDT"}[10m]) == 25'
  'woox_balance_unexplained_change{job="woox", account="main", token="USDT"} == 0'
  # The fresh account scraped for 10s: its rate() and increase() queries
  # have two points.
  'count_over_time(up{job="woox-fresh"}[1m]) >= 5'
)
# Alerts that must not be firing or pending anywhere at the end.
silent=(
  'WooxWithdrawalsDisabled token=WOO'
  'WooxWithdrawalsDisabled token=ARB'
  'WooxDepositsDisabled token=ARB'
  'WooxDepositsDisabled'
  'WooxWithdrawalFeeIncreased'
  'WooxExporterKeyOverPrivileged account=sub'
  'WooxApiKeyWithoutIPRestriction account=sub'
  'WooxLiquidation account=sub'
  'WooxNewApiKey'
  'WooxPollFailing'
  'WooxDataStale'
  # One 429 (at 20s on token_network) is routine contention: no alert.
  'WooxRateLimited'
  'WooxStateFileCorrupt'
  'WooxStateFileWriteFailing'
  'WooxTokenHistoryInconsistent'
  # The scenario's rows are all readable.
  'WooxRowsRejected'
  'WooxClockSkew'
  'WooxExporterDown'
  'WooxExporterShardingMismatch'
  'WooxExporterShardMissing'
  'WooxMarginRatioLow account=sub'
  # The safe long, the position without a liquidation price, the closed one.
  'WooxPositionNearLiquidation symbol=PERP_ETH_USDT'
  'WooxPositionNearLiquidation symbol=PERP_LTC_USDT'
  'WooxPositionNearLiquidation symbol=PERP_SOL_USDT'
  'WooxPositionAutoDeleverageRisk symbol=PERP_ETH_USDT'
  'WooxPositionAutoDeleverageRisk symbol=PERP_LTC_USDT'
  'WooxPositionAutoDeleverageRisk symbol=PERP_SOL_USDT'
  'WooxPositionNearLiquidation account=sub'
  # Explained changes, and a late record that arrived.
  'WooxBalanceUnexplainedChange token=USDT'
  'WooxBalanceUnexplainedChange account=sub'
  'WooxWithdrawalStuck account=sub'
  # Both compare with an hour ago, which this run has not seen.
  'WooxFeeRateIncreased'
  'WooxNewSubAccount'
)

# unmatched PREFIX SPEC... <ALERTS: appends to missing, each with PREFIX, the
# specs ("Alertname label=value ...") matching none of the alerts (a JSON
# array; cmd/alertmatch).
unmatched() {
  local prefix=$1 out spec
  shift
  out=$("$work/alertmatch" missing "$@")
  [ -n "$out" ] || return 0
  while IFS= read -r spec; do missing+=("$prefix$spec"); done <<<"$out"
}

echo "e2e: waiting up to ${timeout_s}s for the expected alerts in Alertmanager"
stage="waiting for the expected alerts in Alertmanager"
focus=(prometheus alertmanager exporter)
deadline=$((SECONDS + timeout_s))
while :; do
  check_alive
  # Re-posted each round so that Alertmanager does not resolve them.
  curl -fsS --max-time 5 -o /dev/null -H 'Content-Type: application/json' \
    --data "$synthetic_alerts" "http://127.0.0.1:$am_port/api/v2/alerts"
  am_alerts=$(curl -fsS --max-time 5 "http://127.0.0.1:$am_port/api/v2/alerts?active=true&silenced=false&inhibited=false")
  am_inhibited=$(curl -fsS --max-time 5 "http://127.0.0.1:$am_port/api/v2/alerts?active=false&silenced=false&inhibited=true" |
    jq '[.[] | select(.status.state == "suppressed" and (.status.inhibitedBy | length) > 0)]')
  prom_alerts=$(curl -fsS --max-time 5 "http://127.0.0.1:$prom_port/api/v1/alerts" | jq '.data.alerts')
  missing=()
  unmatched "" "${expected[@]}" <<<"$am_alerts"
  unmatched "not inhibited in Alertmanager: " "${expected_synthetic[@]}" <<<"$am_alerts"
  unmatched "inhibited in Alertmanager: " "${inhibited[@]}" <<<"$am_inhibited"
  unmatched "pending in Prometheus: " "${pending[@]}" <<<"$prom_alerts"
  for q in "${seen[@]}"; do
    n=$(curl -sS --max-time 5 --data-urlencode "query=$q" "http://127.0.0.1:$prom_port/api/v1/query" | jq '.data.result | length')
    [ "$n" -gt 0 ] || missing+=("query without data: $q")
  done
  [ "${#missing[@]}" -eq 0 ] && break
  if [ "$SECONDS" -ge "$deadline" ]; then
    echo "e2e: FAIL: alerts never reached Alertmanager, or data never reached Prometheus:" >&2
    printf '  %s\n' "${missing[@]}" >&2
    echo "Prometheus alerts:" >&2
    curl -fsS --max-time 5 "http://127.0.0.1:$prom_port/api/v1/alerts" | jq -c '.data.alerts[] | {l: .labels, s: .state}' >&2 || true
    exit 1
  fi
  sleep 3
done
echo "e2e: all ${#expected[@]} expected alerts reached Alertmanager, ${#inhibited[@]} were inhibited there and ${#pending[@]} are pending, after ${SECONDS}s"

stage="checking that the alerts that must stay silent do"
focus=(prometheus)
prom_alerts=$(curl -fsS --max-time 5 "http://127.0.0.1:$prom_port/api/v1/alerts" | jq '.data.alerts')
am_alerts=$(curl -fsS --max-time 5 "http://127.0.0.1:$am_port/api/v2/alerts" | jq '[.[] | select(.labels.e2e != "synthetic")]')
# The specs matching an alert of either (cmd/alertmatch reads both arrays).
fired=$(printf '%s\n%s\n' "$prom_alerts" "$am_alerts" | "$work/alertmatch" present "${silent[@]}")
if [ -n "$fired" ]; then
  while IFS= read -r spec; do echo "e2e: FAIL: $spec fired or is pending" >&2; done <<<"$fired"
  echo "Prometheus alerts:" >&2
  jq -c '.[] | {l: .labels, s: .state}' <<<"$prom_alerts" >&2 || true
  exit 1
fi
echo "e2e: all ${#silent[@]} alerts that must stay silent stayed silent"

echo "e2e: running every dashboard query against Prometheus"
stage="running the dashboard queries"
focus=(prometheus)
# prom_query QUERY: the API answer; fails the run when the query does not run.
prom_query() {
  local answer
  answer=$(curl -sS --max-time 10 --data-urlencode "query=$1" "http://127.0.0.1:$prom_port/api/v1/query")
  if [ "$(jq -r .status <<<"$answer")" != success ]; then
    echo "e2e: FAIL: query does not run: $1" >&2
    jq -r .error <<<"$answer" >&2
    return 1
  fi
  printf '%s\n' "$answer"
}
# As the dashboard has them: each must run.
queries=$(bash scripts/dashboard-queries.sh)
total=0
while IFS= read -r q; do
  [ -n "$q" ] || continue
  total=$((total + 1))
  prom_query "$q" >/dev/null
done <<<"$queries"
# Without their constant fallbacks: each must return data. A fallback left
# in place would answer for a misspelt metric.
real=$(STRIP_FALLBACKS=1 bash scripts/dashboard-queries.sh)
if leftover=$(grep -E 'vector\([-+0-9. ]+\)' <<<"$real"); then
  echo "e2e: FAIL: a constant fallback dashboard-queries.sh does not strip:" >&2
  printf '  %s\n' "$leftover" >&2
  exit 1
fi
# check_data JOB ENTRY...: every dashboard query, its fallback removed and
# its job selector JOB, returns data, but those the entries ("query|why",
# for job woox) exempt. Fails on an entry that exempts nothing.
check_data() {
  local job=$1 q e exempt answer
  shift
  local entries=("${@//job=~\"woox\"/job=~\"$job\"}") empty=() used=()
  while IFS= read -r q; do
    [ -n "$q" ] || continue
    answer=$(prom_query "$q")
    [ "$(jq '.data.result | length' <<<"$answer")" -gt 0 ] && continue
    exempt=
    for e in "${entries[@]}"; do [ "$q" = "${e%%|*}" ] && exempt=$e; done
    if [ -n "$exempt" ]; then used+=("$exempt"); else empty+=("$q"); fi
  done < <(JOB=$job STRIP_FALLBACKS=1 bash scripts/dashboard-queries.sh)
  if [ "${#empty[@]}" -gt 0 ]; then
    echo "e2e: FAIL: dashboard queries of job $job (fallbacks removed) returned no data:" >&2
    printf '  %s\n' "${empty[@]}" >&2
    return 1
  fi
  for e in "${entries[@]}"; do
    if ! printf '%s\n' "${used[@]}" | grep -qxF -- "$e"; then
      echo "e2e: FAIL: exemption has data now under job $job, or matches no query; remove it: $e" >&2
      return 1
    fi
  done
  echo "e2e: job $job: all $total dashboard queries return data without their fallbacks (${#used[@]} exempt)"
}
check_data woox "${no_data_ok[@]}"
stage="running the dashboard queries on the fresh account (job woox-fresh)"
focus=(prometheus exporter-fresh)
check_data woox-fresh "${no_data_ok[@]}" "${fresh_no_data_ok[@]}"

failed=0
echo "e2e: PASS"
