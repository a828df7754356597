#!/usr/bin/env bash
# Renders the monitoring mixin (mixin/) into the files the repository ships:
#   alerts/woox_exporter.rules.yml   alerting and recording rules
#   dashboards/woox_exporter.json    Grafana dashboard (grafana.com export format)
#
#   bash scripts/mixin.sh render   write them
#   bash scripts/mixin.sh check    fail when the checked-in files differ from
#                                  a fresh render (edit mixin/, then render)
#   bash scripts/mixin.sh settings every _config field is used: renders once per
#                                  field with that field changed and fails,
#                                  naming it, when neither output changes
#   bash scripts/mixin.sh rules CONFIG
#                                  prints the rules as JSON (which Prometheus
#                                  reads as YAML) with _config overridden by
#                                  the jsonnet object CONFIG, for runs that
#                                  cannot wait a shipped `for`
#
# Needs jsonnet (Debian's `apt-get install jsonnet`, or go-jsonnet:
# `go install github.com/google/go-jsonnet/cmd/jsonnet@v0.21.0`) and jq.
# Installs nothing: .ci/run installs them first.
set -euo pipefail
cd "$(dirname "$0")/.."

RULES=alerts/woox_exporter.rules.yml
DASHBOARD=dashboards/woox_exporter.json

for tool in jsonnet jq; do
	command -v "$tool" >/dev/null || {
		echo "mixin.sh: $tool is not installed (apt-get install -y $tool)" >&2
		exit 2
	}
done

# Jsonnet of the mixin as m, its _config overridden by the top-level argument
# config (none by default), then of its rule groups and of its dashboard. render
# and settings share them, so settings checks what render writes.
MIXIN='function(config={}) local m = (import "mixin.libsonnet") + { _config+:: config };'
RULE_GROUPS='{ groups: std.get(m, "prometheusRules", { groups: [] }).groups + m.prometheusAlerts.groups }'
DASHBOARD_JSON='m.grafanaDashboards["woox_exporter.json"]'

# render_to DIR: writes both files under DIR (same relative paths).
render_to() {
	local dir=$1
	mkdir -p "$dir/alerts" "$dir/dashboards"
	{
		echo "# Generated from mixin/ by scripts/mixin.sh render: do not edit by hand."
		echo "# What each alert means and what to do: RUNBOOK.md. Tests:"
		echo "# alerts/woox_exporter.rules.test.yml (promtool test rules)."
		jsonnet -J mixin -S -e "$MIXIN
			std.manifestYamlDoc($RULE_GROUPS, indent_array_in_object=true, quote_keys=false)"
		echo
	} >"$dir/$RULES"
	jsonnet -J mixin -e "$MIXIN $DASHBOARD_JSON" |
		jq --indent 2 . >"$dir/$DASHBOARD"
}

# A different value of the same type for the _config field $f (jq, input: the
# current value). Durations ("10m") double, selectors (the field name ends in
# Selector, or the value is a label matcher) get one more matcher, other
# strings a suffix; numbers grow by 1, booleans flip, lists get one more
# element, objects one more key. A type without a rule here is an error, so a
# new kind of setting cannot pass unchecked.
# shellcheck disable=SC2016 # $f is jq's, not the shell's
CHANGE='
def change($f):
	if type == "string" then
		if test("^[0-9]+(ms|s|m|h|d|w|y)$") then
			capture("^(?<n>[0-9]+)(?<u>.*)$") | "\((.n | tonumber) * 2)\(.u)"
		elif ($f | endswith("Selector")) or test("^\\s*[a-zA-Z_][a-zA-Z0-9_]*\\s*(=|!=|=~|!~)\\s*\"") then
			if . == "" then "mixin_settings_check=\"changed\""
			else . + ", mixin_settings_check=\"changed\"" end
		else . + "-changed" end
	elif type == "number" then . + 1
	elif type == "boolean" then not
	elif type == "array" then . + [if length > 0 then (.[0] | change("")) else "changed" end]
	elif type == "object" then . + { mixin_settings_check: "changed" }
	else error("no rule to change a \(type)") end;
'

case ${1:-} in
render)
	render_to .
	echo "mixin.sh: rendered $RULES and $DASHBOARD"
	;;
check)
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	render_to "$tmp"
	rc=0
	for f in "$RULES" "$DASHBOARD"; do
		if ! diff -u "$f" "$tmp/$f" >"$tmp/diff" 2>&1; then
			echo "mixin.sh: $f differs from the rendered mixin; run: bash scripts/mixin.sh render" >&2
			head -n 40 "$tmp/diff" >&2
			rc=1
		fi
	done
	[ "$rc" -eq 0 ] && echo "mixin.sh: $RULES and $DASHBOARD match the mixin"
	exit "$rc"
	;;
rules)
	jsonnet -J mixin --tla-code "config=${2:-"{}"}" -e "$MIXIN $RULE_GROUPS"
	;;
settings)
	# The field list is the config's own keys, so a new field is checked
	# without editing this. Compares the rendered data as JSON: the rules
	# file is the YAML of the same groups, which Debian's jsonnet takes about
	# 30 s to write, against 1 s for JSON.
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	render_data() { # render_data OUT CONFIG: rules and dashboard as one JSON
		jsonnet -J mixin --tla-code "config=$2" -e "$MIXIN { rules: $RULE_GROUPS, dashboard: $DASHBOARD_JSON }" >"$1"
	}
	jsonnet -J mixin -e '(import "mixin.libsonnet")._config' >"$tmp/config.json"
	render_data "$tmp/base.json" '{}'
	mapfile -t fields < <(jq -r 'keys[]' "$tmp/config.json")
	rc=0
	for field in "${fields[@]}"; do
		from=$(jq -c --arg f "$field" '.[$f]' "$tmp/config.json")
		if ! override=$(jq -c --arg f "$field" "$CHANGE"' { ($f): (.[$f] | change($f)) }' "$tmp/config.json" 2>"$tmp/err"); then
			echo "mixin.sh: _config.$field: cannot make a different value of $from: $(cat "$tmp/err")" >&2
			rc=1
			continue
		fi
		to=$(jq -c --arg f "$field" '.[$f]' <<<"$override")
		if ! render_data "$tmp/changed.json" "$override" 2>"$tmp/err"; then
			echo "mixin.sh: _config.$field: the mixin does not render with $to (was $from):" >&2
			head -n 20 "$tmp/err" >&2
			rc=1
			continue
		fi
		changed=$(jq -rn --slurpfile a "$tmp/base.json" --slurpfile b "$tmp/changed.json" \
			--arg rules "$RULES" --arg dashboard "$DASHBOARD" '
			[if $a[0].rules != $b[0].rules then $rules else empty end,
			 if $a[0].dashboard != $b[0].dashboard then $dashboard else empty end] | join(" and ")')
		if [ -z "$changed" ]; then
			echo "mixin.sh: _config.$field is not used: $from -> $to changes neither $RULES nor $DASHBOARD; feed it into the rule or panel it names" >&2
			rc=1
		else
			echo "mixin.sh: _config.$field $from -> $to changes $changed"
		fi
	done
	[ "$rc" -eq 0 ] && echo "mixin.sh: all ${#fields[@]} _config fields change the rendered mixin"
	exit "$rc"
	;;
*)
	echo "usage: $0 render|check|settings|rules [CONFIG]" >&2
	exit 2
	;;
esac
