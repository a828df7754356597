#!/usr/bin/env bash
# Prints every PromQL expression of a Grafana dashboard, one per line, with
# Grafana's variables replaced so the result can be sent to Prometheus as is.
#
#   scripts/dashboard-queries.sh [DASHBOARD_JSON]
#
# Defaults: dashboards/woox_exporter.json. Substitutions, each overridable
# through the environment:
#   $account, ${account}     ACCOUNT         (default .*, "All")
#   $token, ${token}         TOKEN           (default .*, "All")
#   $history_token           HISTORY_TOKEN   (default .*, "All")
#   $job, ${job}             JOB             (default woox, the job of examples/prometheus.yml)
#   $instance, ${instance}   INSTANCE        (default .+, "All")
#   $__rate_interval         RATE_INTERVAL   (default 1m)
#   $__interval              INTERVAL        (default 1m)
#   $__range                 RANGE           (default 1h)
#   $__range_s, $__interval_ms and friends follow from the above.
# With STRIP_FALLBACKS=1, a trailing constant fallback (` or vector(0)`,
# ` or on() vector(1)`, any number) is removed, leaving the real query: the
# fallback makes a stat panel show 0 instead of "No data", but it also makes
# a query on a misspelt metric "return data".
# With PANEL_IDS=1, each line starts with the id of the query's panel and a
# tab, so a query can be traced back to its panel (its description).
# Exits non-zero when the file holds no expression or a variable is left over.
set -euo pipefail

dashboard=${1:-"$(dirname "$0")/../dashboards/woox_exporter.json"}
command -v jq >/dev/null || { echo "dashboard-queries.sh: jq is required (apt-get install jq)" >&2; exit 2; }

ACCOUNT=${ACCOUNT:-.*}
TOKEN=${TOKEN:-.*}
HISTORY_TOKEN=${HISTORY_TOKEN:-.*}
JOB=${JOB:-woox}
INSTANCE=${INSTANCE:-.+}
RATE_INTERVAL=${RATE_INTERVAL:-1m}
INTERVAL=${INTERVAL:-1m}
RANGE=${RANGE:-1h}
STRIP_FALLBACKS=${STRIP_FALLBACKS:-0}
PANEL_IDS=${PANEL_IDS:-0}

# Seconds of a Prometheus duration made of one unit (1m, 30s, 2h, 1d).
seconds() {
	local v=${1%[smhdw]} u=${1: -1}
	case $u in s) echo "$v" ;; m) echo $((v * 60)) ;; h) echo $((v * 3600)) ;; d) echo $((v * 86400)) ;; w) echo $((v * 604800)) ;;
	*) echo "dashboard-queries.sh: cannot read duration $1" >&2; exit 2 ;; esac
}
range_s=$(seconds "$RANGE")
interval_s=$(seconds "$INTERVAL")

out=$(jq -r \
	--arg account "$ACCOUNT" --arg token "$TOKEN" --arg history_token "$HISTORY_TOKEN" \
	--arg job "$JOB" --arg instance "$INSTANCE" \
	--arg rate_interval "$RATE_INTERVAL" --arg interval "$INTERVAL" --arg range "$RANGE" \
	--arg range_s "$range_s" --arg interval_ms "$((interval_s * 1000))" \
	--arg strip "$STRIP_FALLBACKS" --arg ids "$PANEL_IDS" '
	# Panels at the top level and inside collapsed rows.
	[.panels[]?, (.panels[]?.panels[]?)]
	| .[] | .id as $id | .targets[]? | .expr // empty
	| gsub("\\$\\{?__rate_interval\\}?"; $rate_interval)
	| gsub("\\$\\{?__interval_ms\\}?"; $interval_ms)
	| gsub("\\$\\{?__interval\\}?"; $interval)
	| gsub("\\$\\{?__range_s\\}?"; $range_s)
	| gsub("\\$\\{?__range_ms\\}?"; ($range_s | tonumber * 1000 | tostring))
	| gsub("\\$\\{?__range\\}?"; $range)
	| gsub("\\$\\{account(:[a-z]+)?\\}|\\$account"; $account)
	| gsub("\\$\\{token(:[a-z]+)?\\}|\\$token"; $token)
	| gsub("\\$\\{history_token(:[a-z]+)?\\}|\\$history_token"; $history_token)
	| gsub("\\$\\{job(:[a-z]+)?\\}|\\$job"; $job)
	| gsub("\\$\\{instance(:[a-z]+)?\\}|\\$instance"; $instance)
	| gsub("\\s+"; " ")
	| if $strip == "1" then sub("\\s+or\\s+(on\\s*\\(\\s*\\)\\s*)?vector\\s*\\(\\s*[-+]?[0-9][0-9.eE+-]*\\s*\\)\\s*$"; "") else . end
	| if $ids == "1" then "\($id)\t\(.)" else . end
' "$dashboard")

if [ -z "$out" ]; then
	echo "dashboard-queries.sh: no expressions in $dashboard" >&2
	exit 1
fi
if grep -n '\$' <<<"$out" >&2; then
	echo "dashboard-queries.sh: unsubstituted variables above" >&2
	exit 1
fi
printf '%s\n' "$out"
