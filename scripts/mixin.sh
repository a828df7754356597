#!/usr/bin/env bash
# Renders the monitoring mixin (mixin/) into the files the repository ships:
#   alerts/woox_exporter.rules.yml   alerting and recording rules
#   dashboards/woox_exporter.json    Grafana dashboard (grafana.com export format)
#   deploy/kubernetes/operator/prometheusrule.yaml
#                                    the same rules as a prometheus-operator
#                                    PrometheusRule
#   deploy/helm/woox-exporter/files/woox_exporter.rules.yml
#                                    the rules file again, for the Helm
#                                    chart's PrometheusRule (a chart reads
#                                    only files inside it)
#
#   bash scripts/mixin.sh render [DIR]   write them (under DIR, default .)
#   bash scripts/mixin.sh rules CONFIG   prints the rules as JSON (which
#                                        Prometheus reads as YAML) with _config
#                                        overridden by the jsonnet object CONFIG,
#                                        for runs that cannot wait a shipped `for`
#   bash scripts/mixin.sh data CONFIG    prints the rules and the dashboard as
#                                        one JSON object, _config overridden
#   bash scripts/mixin.sh config         prints _config as JSON
#
# The checks are Go tests (internal/mixincheck): the checked-in files are a
# fresh render, and every _config field changes one of them.
# Needs jsonnet (Debian's `apt-get install jsonnet`, or go-jsonnet:
# `go install github.com/google/go-jsonnet/cmd/jsonnet@v0.21.0`) and jq.
# Installs nothing: .ci/run installs them first.
set -euo pipefail
cd "$(dirname "$0")/.."

RULES=alerts/woox_exporter.rules.yml
DASHBOARD=dashboards/woox_exporter.json
PROMETHEUS_RULE=deploy/kubernetes/operator/prometheusrule.yaml
CHART_RULES=deploy/helm/woox-exporter/files/woox_exporter.rules.yml

for tool in jsonnet jq; do
	command -v "$tool" >/dev/null || {
		echo "mixin.sh: $tool is not installed (apt-get install -y $tool)" >&2
		exit 2
	}
done

# Jsonnet of the mixin as m, its _config overridden by the top-level argument
# config (none by default), then of its rule groups and of its dashboard. render
# and data share them, so the settings check (on data) holds what render writes.
MIXIN='function(config={}) local m = (import "mixin.libsonnet") + { _config+:: config };'
RULE_GROUPS='{ groups: std.get(m, "prometheusRules", { groups: [] }).groups + m.prometheusAlerts.groups }'
DASHBOARD_JSON='m.grafanaDashboards["woox_exporter.json"]'

# render_to DIR: writes the four files under DIR (same relative paths).
render_to() {
	local dir=$1
	mkdir -p "$dir/alerts" "$dir/dashboards" "$dir/${PROMETHEUS_RULE%/*}" "$dir/${CHART_RULES%/*}"
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
	# The rules file's groups under spec, indented one level (block scalars
	# keep their relative indentation), without its comments.
	{
		echo "# Generated from mixin/ by scripts/mixin.sh render: do not edit by hand."
		echo "apiVersion: monitoring.coreos.com/v1"
		echo "kind: PrometheusRule"
		echo "metadata:"
		echo "  name: woox-exporter"
		echo "spec:"
		sed -n '/^groups:/,$p' "$dir/$RULES" | sed 's/^\(.\)/  \1/'
	} >"$dir/$PROMETHEUS_RULE"
	cp "$dir/$RULES" "$dir/$CHART_RULES"
}

case ${1:-} in
render)
	render_to "${2:-.}"
	echo "mixin.sh: rendered $RULES, $DASHBOARD, $PROMETHEUS_RULE and $CHART_RULES under ${2:-.}"
	;;
rules)
	jsonnet -J mixin --tla-code "config=${2:-"{}"}" -e "$MIXIN $RULE_GROUPS"
	;;
data)
	# JSON rather than the rules file's YAML: Debian's jsonnet takes about
	# 30 s to write the YAML, against 1 s for JSON.
	jsonnet -J mixin --tla-code "config=${2:-"{}"}" -e "$MIXIN { rules: $RULE_GROUPS, dashboard: $DASHBOARD_JSON }"
	;;
config)
	jsonnet -J mixin -e '(import "mixin.libsonnet")._config'
	;;
*)
	echo "usage: $0 render [DIR] | rules CONFIG | data CONFIG | config" >&2
	exit 2
	;;
esac
