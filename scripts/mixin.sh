#!/usr/bin/env bash
# Renders the monitoring mixin (mixin/) into the files the repository ships:
#   alerts/woox_exporter.rules.yml   alerting and recording rules
#   dashboards/woox_exporter.json    Grafana dashboard (grafana.com export format)
#
#   bash scripts/mixin.sh render   write them
#   bash scripts/mixin.sh check    fail when the checked-in files differ from
#                                  a fresh render (edit mixin/, then render)
#   bash scripts/mixin.sh lint     dashboard lint rules (scripts/dashboard-lint.sh)
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

# render_to DIR: writes both files under DIR (same relative paths).
render_to() {
	local dir=$1
	mkdir -p "$dir/alerts" "$dir/dashboards"
	{
		echo "# Generated from mixin/ by scripts/mixin.sh render: do not edit by hand."
		echo "# What each alert means and what to do: RUNBOOK.md. Tests:"
		echo "# alerts/woox_exporter.rules.test.yml (promtool test rules)."
		jsonnet -J mixin -S -e '
			local m = import "mixin.libsonnet";
			std.manifestYamlDoc(
				{ groups: std.get(m, "prometheusRules", { groups: [] }).groups + m.prometheusAlerts.groups },
				indent_array_in_object=true, quote_keys=false)'
		echo
	} >"$dir/$RULES"
	jsonnet -J mixin -e '(import "mixin.libsonnet").grafanaDashboards["woox_exporter.json"]' |
		jq --indent 2 . >"$dir/$DASHBOARD"
}

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
lint)
	bash scripts/dashboard-lint.sh "$DASHBOARD"
	;;
*)
	echo "usage: $0 render|check|lint" >&2
	exit 2
	;;
esac
