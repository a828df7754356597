#!/usr/bin/env bash
# End-to-end check of the whole chain on 127.0.0.1: fake exchange → exporter
# → Prometheus (with alerts/ loaded) → Alertmanager.
#
# Asserts that the expected alerts reach Alertmanager and the ones that must
# stay silent do not, then runs every query of the Grafana dashboard against
# Prometheus's HTTP API and asserts that each runs, and that each returns
# data once its constant fallback (` or vector(0)`) is removed.
# Needs Debian's prometheus, prometheus-alertmanager, jq and curl (.ci/run
# installs them). Bounded: gives up after E2E_TIMEOUT seconds (default 240).
# Stops every process it started by PID; on failure prints the logs.
set -euo pipefail
cd "$(dirname "$0")/.."

timeout_s=${E2E_TIMEOUT:-240}
for tool in prometheus prometheus-alertmanager promtool jq curl go; do
  command -v "$tool" >/dev/null || { echo "e2e: $tool is not installed" >&2; exit 2; }
done

work=$(mktemp -d)
pids=()
failed=1
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ "$failed" -ne 0 ]; then
    for log in "$work"/*.log; do
      [ -f "$log" ] || continue
      echo "----- $(basename "$log") (last 60 lines) -----"
      tail -n 60 "$log"
    done
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# A free loopback port (asks the kernel through a short-lived listener).
free_port() {
  local port
  for _ in $(seq 50); do
    port=$((20000 + RANDOM % 20000))
    if ! (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null; then echo "$port"; return; fi
  done
  echo "e2e: no free port" >&2; exit 1
}
fake_port=$(free_port); exporter_port=$(free_port); prom_port=$(free_port); am_port=$(free_port)

wait_http() { # URL NAME
  for _ in $(seq 100); do
    curl -fsS -o /dev/null "$1" 2>/dev/null && return 0
    sleep 0.2
  done
  echo "e2e: $2 did not come up at $1" >&2
  return 1
}

echo "e2e: building"
go build -o "$work/woox_exporter" .
go build -o "$work/fakeexchange" ./cmd/fakeexchange

echo "e2e: starting fake exchange on 127.0.0.1:$fake_port"
"$work/fakeexchange" --listen "127.0.0.1:$fake_port" --scenario scripts/e2e/scenario.yml >"$work/fakeexchange.log" 2>&1 &
pids+=($!)
wait_http "http://127.0.0.1:$fake_port/v3/public/tokenNetwork" "fake exchange"

echo "e2e: starting exporter on 127.0.0.1:$exporter_port"
cp scripts/e2e/accounts.yml "$work/accounts.yml"
(umask 077; printf 'E2EMAINEXPORTERSECRET0000001\n' >"$work/main.secret")
WOOX_E2E_SUB_SECRET=E2ESUBEXPORTERSECRET00000004 "$work/woox_exporter" \
  --web.listen-address="127.0.0.1:$exporter_port" \
  --woox.api-url="http://127.0.0.1:$fake_port" \
  --config.file="$work/accounts.yml" \
  --api.rate-limit=100/10s \
  --token-network.interval=5s --credentials.interval=5s --token-history.interval=5s \
  --log.level=debug >"$work/exporter.log" 2>&1 &
pids+=($!)
wait_http "http://127.0.0.1:$exporter_port/-/ready" "exporter"

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
prometheus-alertmanager --config.file="$work/alertmanager.yml" --storage.path="$work/am-data" \
  --web.listen-address="127.0.0.1:$am_port" --cluster.listen-address= >"$work/alertmanager.log" 2>&1 &
pids+=($!)
wait_http "http://127.0.0.1:$am_port/-/ready" "Alertmanager"

echo "e2e: starting Prometheus on 127.0.0.1:$prom_port"
cat >"$work/prometheus.yml" <<YAML
global:
  scrape_interval: 2s
  evaluation_interval: 2s
rule_files:
  - $PWD/alerts/woox_exporter.rules.yml
alerting:
  alertmanagers:
    - static_configs:
        - targets: ["127.0.0.1:$am_port"]
scrape_configs:
  - job_name: woox
    static_configs:
      - targets: ["127.0.0.1:$exporter_port"]
YAML
promtool check config "$work/prometheus.yml" >/dev/null
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/prom-data" \
  --web.listen-address="127.0.0.1:$prom_port" >"$work/prometheus.log" 2>&1 &
pids+=($!)
wait_http "http://127.0.0.1:$prom_port/-/ready" "Prometheus"

# Alerts that must reach Alertmanager: "alertname label=value ...".
expected=(
  'WooxApiKeyWithoutIPRestriction severity=critical account=main'
  'WooxApiKeyWithoutIPRestriction severity=warning account=main'
  'WooxApiKeyCanWithdraw account=main'
  'WooxExporterKeyOverPrivileged account=main'
  'WooxWithdrawalsDisabled token=USDT network=ETH'
  'WooxLiquidation account=main'
  # The scenario's one 429 on the public endpoint.
  'WooxRateLimited endpoint=token_network'
)
# PromQL that must return data before the silent alerts are checked, so that
# their silence means something.
seen=(
  # ARB/ARB, listed already disabled at 40s, seen for at least 5 scrapes
  # (10s, 5 rule evaluations: a wrong alert would be pending by then).
  'count_over_time(woox_token_network_withdrawal_enabled{token="ARB"}[5m]) >= 5'
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
  'WooxRateLimited endpoint=credentials'
  'WooxRateLimited endpoint=token_history'
  'WooxClockSkew'
  'WooxExporterDown'
)

# jq filter selecting alerts whose labels match "name k=v ...".
matcher() {
  local spec=($1) f
  f=".labels.alertname == \"${spec[0]}\""
  for kv in "${spec[@]:1}"; do f="$f and .labels.${kv%%=*} == \"${kv#*=}\""; done
  echo "$f"
}

echo "e2e: waiting up to ${timeout_s}s for the expected alerts in Alertmanager"
deadline=$((SECONDS + timeout_s))
while :; do
  am_alerts=$(curl -fsS "http://127.0.0.1:$am_port/api/v2/alerts?active=true&silenced=false&inhibited=false")
  missing=()
  for spec in "${expected[@]}"; do
    n=$(jq "[.[] | select($(matcher "$spec"))] | length" <<<"$am_alerts")
    [ "$n" -gt 0 ] || missing+=("$spec")
  done
  for q in "${seen[@]}"; do
    n=$(curl -sS --data-urlencode "query=$q" "http://127.0.0.1:$prom_port/api/v1/query" | jq '.data.result | length')
    [ "$n" -gt 0 ] || missing+=("query without data: $q")
  done
  [ "${#missing[@]}" -eq 0 ] && break
  if [ "$SECONDS" -ge "$deadline" ]; then
    echo "e2e: FAIL: alerts never reached Alertmanager, or data never reached Prometheus:" >&2
    printf '  %s\n' "${missing[@]}" >&2
    echo "Prometheus alerts:" >&2
    curl -fsS "http://127.0.0.1:$prom_port/api/v1/alerts" | jq -c '.data.alerts[] | {l: .labels, s: .state}' >&2 || true
    exit 1
  fi
  sleep 3
done
echo "e2e: all ${#expected[@]} expected alerts reached Alertmanager after ${SECONDS}s"

prom_alerts=$(curl -fsS "http://127.0.0.1:$prom_port/api/v1/alerts" | jq '.data.alerts')
am_alerts=$(curl -fsS "http://127.0.0.1:$am_port/api/v2/alerts")
bad=0
for spec in "${silent[@]}"; do
  n=$(( $(jq "[.[] | select($(matcher "$spec"))] | length" <<<"$prom_alerts") + $(jq "[.[] | select($(matcher "$spec"))] | length" <<<"$am_alerts") ))
  if [ "$n" -gt 0 ]; then echo "e2e: FAIL: $spec fired or is pending" >&2; bad=1; fi
done
[ "$bad" -eq 0 ] || exit 1
echo "e2e: all ${#silent[@]} alerts that must stay silent stayed silent"

echo "e2e: running every dashboard query against Prometheus"
# Queries whose real part may return nothing in this run, each with the
# reason: "query|reason". Keep it empty if you can: make the scenario
# produce the data instead. An entry that no longer matches fails.
no_data_ok=()
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
empty=(); used=()
while IFS= read -r q; do
  [ -n "$q" ] || continue
  answer=$(prom_query "$q")
  [ "$(jq '.data.result | length' <<<"$answer")" -gt 0 ] && continue
  exempt=
  for e in "${no_data_ok[@]}"; do [ "$q" = "${e%%|*}" ] && exempt=$e; done
  if [ -n "$exempt" ]; then used+=("$exempt"); else empty+=("$q"); fi
done <<<"$real"
if [ "${#empty[@]}" -gt 0 ]; then
  echo "e2e: FAIL: dashboard queries (fallbacks removed) returned no data:" >&2
  printf '  %s\n' "${empty[@]}" >&2
  exit 1
fi
for e in "${no_data_ok[@]}"; do
  if ! printf '%s\n' "${used[@]}" | grep -qxF -- "$e"; then
    echo "e2e: FAIL: no_data_ok entry has data now or matches no query; remove it: $e" >&2
    exit 1
  fi
done
echo "e2e: all $total dashboard queries run and return data without their fallbacks (${#used[@]} exempt)"

failed=0
echo "e2e: PASS"
