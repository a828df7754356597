#!/usr/bin/env bash
# Static checks of the monitoring assets: the mixin and its rendered files,
# alerting rules and their tests, the Grafana dashboard, and the example stack. Installs promtool, amtool, jq and
# docker-compose from Debian when they are missing. Runs every check, prints
# each failure, exits non-zero if any failed.
#
#   bash scripts/check-static.sh
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

RULES=alerts/woox_exporter.rules.yml
RULE_TESTS=alerts/woox_exporter.rules.test.yml
DASHBOARD=dashboards/woox_exporter.json
COMPOSE=examples/docker-compose.yml

failures=()
fail() { failures+=("$1"); printf 'FAIL: %s\n' "$1"; }
ok() { printf 'ok:   %s\n' "$1"; }
# check NAME COMMAND...: runs the command, output shown on failure only.
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then ok "$name"; else printf '%s\n' "$out"; fail "$name"; fi
}

# ------------------------------------------------------------------ tools ----
need=()
command -v promtool >/dev/null || need+=(prometheus)
command -v amtool >/dev/null || need+=(prometheus-alertmanager)
command -v jq >/dev/null || need+=(jq)
command -v docker-compose >/dev/null || need+=(docker-compose)
if [ ${#need[@]} -gt 0 ]; then
	echo "installing ${need[*]}"
	export DEBIAN_FRONTEND=noninteractive
	if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null; }; then
		echo "FAIL: cannot install ${need[*]}"
		exit 1
	fi
	# The packages start their own services; this script needs none of them.
	(service prometheus stop; service prometheus-alertmanager stop; service prometheus-node-exporter stop) >/dev/null 2>&1 || true
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ------------------------------------------------------------------ mixin ----
# alerts/ and dashboards/ are rendered from mixin/: they must match it.
# scripts/mixin.sh needs jsonnet and installs nothing (.ci/run installs it).
check "mixin renders to the checked-in files (scripts/mixin.sh check)" bash scripts/mixin.sh check
check "dashboard lint (scripts/dashboard-lint.sh, grafana/dashboard-linter rules)" bash scripts/dashboard-lint.sh "$DASHBOARD"

# ------------------------------------------------------------------ rules ----
check "promtool check rules $RULES" promtool check rules "$RULES"
check "promtool test rules $RULE_TESTS" promtool test rules "$RULE_TESTS"

# Every alert rule: a severity label in critical|warning|info, summary,
# description and a runbook_url pointing at RUNBOOK.md#<alertname lowercased>,
# with a heading of that name in RUNBOOK.md. Every alert name: a test case
# where it fires and one where it stays silent. A Go test reads the rules
# (internal/rulescheck, also part of go test ./...).
check "alerts have severity, summary, description, runbook section and tests (go test ./internal/rulescheck)" \
	env PATH="$PATH:/usr/local/go/bin" go test -count=1 ./internal/rulescheck/

# -------------------------------------------------------------- dashboard ----
check_dashboard() {
	local rc=0 bad
	jq empty "$DASHBOARD" || return 1
	# All panels, including those inside collapsed rows.
	local panels='[.panels[], (.panels[] | .panels[]?)]'
	bad=$(jq -r "$panels | .[] | select(.datasource.uid != \"\${datasource}\") | \"panel \(.id) \(.title): datasource is not \${datasource}\"" "$DASHBOARD")
	[ -z "$bad" ] || { echo "$bad"; rc=1; }
	bad=$(jq -r "$panels | .[] | . as \$p | .targets[]? | select(.datasource.uid != \"\${datasource}\") | \"panel \(\$p.id) \(\$p.title) target \(.refId): datasource is not \${datasource}\"" "$DASHBOARD")
	[ -z "$bad" ] || { echo "$bad"; rc=1; }
	bad=$(jq -r "$panels | .[] | select(.type != \"row\") | . as \$p | if ((.targets // []) | length) == 0 then \"panel \(.id) \(.title): no targets\" else (.targets[] | select((.expr // \"\") | test(\"^\\\\s*\$\")) | \"panel \(\$p.id) \(\$p.title) target \(.refId): empty expr\") end" "$DASHBOARD")
	[ -z "$bad" ] || { echo "$bad"; rc=1; }
	bad=$(jq -r "$panels | map(.id) | group_by(.) | map(select(length > 1) | \"panel id \(.[0]) used \(length) times\") | .[]" "$DASHBOARD")
	[ -z "$bad" ] || { echo "$bad"; rc=1; }
	bad=$(jq -r "$panels | map(.id) | map(select(. == null)) | if length > 0 then \"\(length) panels without id\" else empty end" "$DASHBOARD")
	[ -z "$bad" ] || { echo "$bad"; rc=1; }
	bad=$(jq -r 'if (.uid // "") == "" then "dashboard has no uid" else empty end' "$DASHBOARD")
	[ -z "$bad" ] || { echo "$bad"; rc=1; }
	# Template variables the panels rely on.
	jq -e '.templating.list[] | select(.name == "datasource" and .type == "datasource" and .query == "prometheus")' "$DASHBOARD" >/dev/null ||
		{ echo "templating: no datasource variable of type datasource (prometheus)"; rc=1; }
	jq -e '.templating.list[] | select(.name == "account" and .type == "query" and .multi == true and .includeAll == true and ((.definition // .query.query // .query) | tostring | test("^label_values\\(woox_api_key_info\\{[^}]*\\}, account\\)$")))' "$DASHBOARD" >/dev/null ||
		{ echo "templating: no multi, include-All account variable from label_values(woox_api_key_info{...}, account)"; rc=1; }
	# Every selector of a metric with an account label filters on $account:
	# every woox_ family and woox: recording rule but the public and
	# exporter-wide ones, so a new per-account endpoint needs no edit here.
	bad=$(jq -r "$panels | .[] | . as \$p | .targets[]? | .expr // empty
		| select(([scan(\"woox(_(?!token_network_|exchange_|api_request_duration_|api_clock_skew_|exporter_(?!api_key_permission))[a-z0-9_]+|:(?!watched_token_networks)[a-z0-9_:]+)\\\\b\")] | length) != ([scan(\"account=~\\\"\\\\\$account\")] | length))
		| \"panel \(\$p.id) \(\$p.title): a selector lacks account=~\\\"\$account...\\\": \(.)\"" "$DASHBOARD")
	[ -z "$bad" ] || { echo "$bad"; rc=1; }
	# Every selector of a token network metric filters on $token.
	bad=$(jq -r "$panels | .[] | . as \$p | .targets[]? | .expr // empty
		| select(([scan(\"woox_token_network_[a-z_]+\\\\b\")] | length) != ([scan(\"token=~\\\"\\\\\$token\")] | length))
		| \"panel \(\$p.id) \(\$p.title): a selector lacks token=~\\\"\$token\\\": \(.)\"" "$DASHBOARD")
	[ -z "$bad" ] || { echo "$bad"; rc=1; }
	return $rc
}
check "dashboard $DASHBOARD: JSON, datasources, targets, ids, variables" check_dashboard

# Every dashboard expression, with variables substituted, parses as PromQL:
# promtool checks it as the expression of a recording rule.
check_dashboard_queries() {
	bash scripts/dashboard-queries.sh "$DASHBOARD" >"$tmp/queries.txt" || return 1
	{
		echo "groups:"
		echo "  - name: dashboard_queries"
		echo "    rules:"
		local i=0 q
		while IFS= read -r q; do
			i=$((i + 1))
			printf '      - record: dashboard:query_%d\n        expr: %s\n' "$i" "$(jq -Rn --arg q "$q" '$q')"
		done <"$tmp/queries.txt"
	} >"$tmp/queries.rules.yml"
	echo "$(wc -l <"$tmp/queries.txt") queries"
	promtool check rules "$tmp/queries.rules.yml"
}
check "dashboard queries parse (scripts/dashboard-queries.sh)" check_dashboard_queries

# --------------------------------------------------------------- examples ----
# prometheus.yml names the rules by their path inside the container; check it
# with that path pointing at alerts/ here.
check_prometheus_config() {
	sed "s#/etc/prometheus/rules/#$PWD/alerts/#" examples/prometheus.yml >"$tmp/prometheus.yml"
	grep -q "$PWD/alerts/" "$tmp/prometheus.yml" || { echo "examples/prometheus.yml does not load /etc/prometheus/rules/"; return 1; }
	promtool check config "$tmp/prometheus.yml"
}
check "promtool check config examples/prometheus.yml" check_prometheus_config
check "amtool check-config examples/alertmanager.yml" amtool check-config examples/alertmanager.yml
check "docker-compose config $COMPOSE" docker-compose -f "$COMPOSE" config -q

check_grafana_provisioning() {
	local rc=0
	grep -q 'url: http://prometheus:9090' examples/grafana/provisioning/datasources/prometheus.yml || { echo "datasource does not point at prometheus:9090"; rc=1; }
	grep -q 'path: /var/lib/grafana/dashboards/woox' examples/grafana/provisioning/dashboards/woox.yml || { echo "dashboard provider path changed"; rc=1; }
	grep -q '../dashboards:/var/lib/grafana/dashboards/woox' "$COMPOSE" || { echo "$COMPOSE does not mount ../dashboards where the provider looks"; rc=1; }
	return $rc
}
check "grafana provisioning matches compose mounts" check_grafana_provisioning

# Grafana's run.sh turns an unreadable or empty password file into an empty
# password, which Grafana ignores for its default, admin: the compose Grafana
# starts through examples/grafana/require-admin-password.sh, which refuses
# those. Each case must fail for its own reason; as root, also as uid 472
# (Grafana's user) against a file it cannot read and one it owns.
check_grafana_password_guard() {
	local rc=0 guard=examples/grafana/require-admin-password.sh dir="$tmp/grafana" out
	grep -q '^    entrypoint: \["/bin/sh", "/etc/grafana/require-admin-password.sh", "/run.sh"\]$' "$COMPOSE" ||
		{ echo "$COMPOSE: grafana does not start through $guard and /run.sh"; rc=1; }
	grep -q "\./grafana/require-admin-password.sh:/etc/grafana/require-admin-password.sh:ro" "$COMPOSE" ||
		{ echo "$COMPOSE: $guard is not mounted at /etc/grafana/require-admin-password.sh"; rc=1; }
	# Readable by uid 472: the guard, its directory and the way to it.
	mkdir -p "$dir" && chmod 0711 "$tmp" && chmod 0755 "$dir" && install -m 0644 "$guard" "$dir/guard.sh" || return 1
	local pw="$dir/password"
	# expect CASE WANT [RUNNER...]: runs the guard on $pw, which must refuse
	# with a message containing WANT, or start (WANT = started).
	expect() {
		local name=$1 want=$2
		shift 2
		out=$("$@" env GF_SECURITY_ADMIN_PASSWORD__FILE="$pw" sh "$dir/guard.sh" echo started 2>&1)
		case $out in *"$want"*) ;; *) echo "password file $name: want \"$want\", got: $out"; rc=1 ;; esac
	}
	rm -f "$pw"
	expect missing "is missing"
	: >"$pw"
	expect empty "is empty"
	printf ' \n\t\n' >"$pw"
	expect "of whitespace" "is empty"
	printf 'correct-horse\n' >"$pw"
	expect good started
	if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
		local as472=(setpriv --reuid=472 --regid=0 --clear-groups)
		chown 0:0 "$pw" && chmod 0400 "$pw"
		expect "root's, 0400, read by uid 472" "cannot read" "${as472[@]}"
		chown 472 "$pw"
		expect "uid 472's, 0400, read by uid 472" started "${as472[@]}"
	else
		echo "(not root: the uid 472 cases were skipped)"
	fi
	return $rc
}
check "grafana refuses a missing, unreadable or empty admin password ($COMPOSE)" check_grafana_password_guard

# The default port, the same everywhere.
check_port() {
	local rc=0 f
	for f in Dockerfile examples/prometheus.yml "$COMPOSE"; do
		grep -q 10110 "$f" || { echo "$f does not mention the default port 10110"; rc=1; }
	done
	return $rc
}
check "default port 10110 used consistently" check_port

echo
if [ ${#failures[@]} -gt 0 ]; then
	echo "check-static: ${#failures[@]} check(s) failed:"
	printf '  - %s\n' "${failures[@]}"
	exit 1
fi
echo "check-static: all checks passed"
