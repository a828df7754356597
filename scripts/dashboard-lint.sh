#!/usr/bin/env bash
# Lints a Grafana dashboard with the rules of grafana/dashboard-linter (which
# the Go module proxy reachable from CI does not serve), in jq:
#   template-datasource-rule      a `datasource` variable of type datasource (prometheus)
#   template-job-rule             a `job` variable, and
#   template-instance-rule        an `instance` variable: query type, labelled as
#                                 named, on $datasource, label_values(...),
#                                 multi, include All, allValue .+
#   template-label-promql-rule    query variables use label_values(...)
#   template-on-time-change-reload-rule  query variables refresh on time change (2)
#   panel-datasource-rule         panels and targets use ${datasource}
#   panel-title-description-rule  panels have a title and a description
#   panel-units-rule              panels have a unit (fieldConfig.defaults.unit)
#   target-rate-interval-rule     rate()/irate() over [$__rate_interval]
#   target-job-rule               every metric selector (recording rules
#                                 woox:... included) has job=~"$job"
#   target-instance-rule          every metric selector has instance=~"$instance"
#   target-counter-agg-rule       counters (_total, _bucket) only as range vectors
#                                 (inside rate/increase)
#   uneditable-dashboard          editable: false
# and grafana.com's export format: __inputs with a Prometheus datasource
# input, __requires naming grafana and the prometheus datasource.
# PromQL validity is checked by scripts/check-static.sh (promtool).
#
#   bash scripts/dashboard-lint.sh [DASHBOARD_JSON]
set -euo pipefail
dashboard=${1:-"$(dirname "$0")/../dashboards/woox_exporter.json"}
command -v jq >/dev/null || { echo "dashboard-lint.sh: jq is required (apt-get install jq)" >&2; exit 2; }

problems=$(jq -r '
	def panels: [.panels[]?, (.panels[]?.panels[]?)] | .[];
	def vars: .templating.list[]?;
	def dsok: . == "${datasource}" or . == "$datasource";
	def templ($n):
		([vars | select(.name == $n)] | first) as $v
		| if $v == null then "template-\($n)-rule: no \($n) variable"
		  else
			(if $v.type != "query" then "template-\($n)-rule: type is \($v.type), want query" else empty end),
			(if $v.label != $n then "template-\($n)-rule: label is \($v.label), want \($n)" else empty end),
			(if ($v.datasource.uid // $v.datasource | tostring | dsok | not) then "template-\($n)-rule: datasource is not $datasource" else empty end),
			(if $v.multi != true then "template-\($n)-rule: not multi-select" else empty end),
			(if $v.includeAll != true then "template-\($n)-rule: no All option" else empty end),
			(if $v.allValue != ".+" then "template-\($n)-rule: allValue is \($v.allValue), want .+" else empty end)
		  end;
	(if ([vars | select(.name == "datasource" and .type == "datasource" and .query == "prometheus")] | length) == 0
		then "template-datasource-rule: no datasource variable of type datasource (prometheus)" else empty end),
	templ("job"), templ("instance"),
	(vars | select(.type == "query")
		| (if ((.query.query // .query // "") | tostring | test("^label_values\\(") | not) then "template-label-promql-rule: variable \(.name): query is not label_values(...)" else empty end),
		  (if .refresh != 2 then "template-on-time-change-reload-rule: variable \(.name): refresh is \(.refresh), want 2" else empty end)),
	(if .editable != false then "uneditable-dashboard: editable is \(.editable), want false" else empty end),
	(if ([.__inputs[]? | select(.type == "datasource" and .pluginId == "prometheus")] | length) == 0 then "export format: no prometheus datasource in __inputs" else empty end),
	(if ([.__requires[]? | select(.id == "grafana")] | length) == 0 then "export format: __requires lacks grafana" else empty end),
	(if ([.__requires[]? | select(.id == "prometheus" and .type == "datasource")] | length) == 0 then "export format: __requires lacks the prometheus datasource" else empty end),
	(panels | . as $p | "panel \(.id) \(.title // "")" as $n
		| (if (.datasource.uid // "" | dsok | not) then "panel-datasource-rule: \($n): datasource is not ${datasource}" else empty end),
		  (if (.title // "") == "" then "panel-title-description-rule: panel \(.id): no title" else empty end),
		  (if .type != "row" and (.description // "") == "" then "panel-title-description-rule: \($n): no description" else empty end),
		  (if .type != "row" and (.fieldConfig.defaults.unit // "") == "" then "panel-units-rule: \($n): no unit" else empty end),
		  (.targets[]? | .expr as $e
			| (if (.datasource.uid // "" | dsok | not) then "panel-datasource-rule: \($n) target \(.refId): datasource is not ${datasource}" else empty end),
			  (if ([$e | scan("\\b(?:rate|irate)\\s*\\([^\\[]*\\[([^\\]]*)\\]")] | map(select(.[0] != "$__rate_interval")) | length) > 0
				then "target-rate-interval-rule: \($n): rate over something else than $__rate_interval: \($e)" else empty end),
			  ([$e | scan("\\b(?:(?:woox|process)_[a-z0-9_]+|woox:[a-z0-9_:]+)\\b")] | length) as $sel
			| (if ([$e | scan("job=~\"\\$job\"")] | length) != $sel then "target-job-rule: \($n): a selector lacks job=~\"$job\": \($e)" else empty end),
			  (if ([$e | scan("instance=~\"\\$instance\"")] | length) != $sel then "target-instance-rule: \($n): a selector lacks instance=~\"$instance\": \($e)" else empty end),
			  (if ([$e | scan("\\b[a-z0-9_]+_(?:total|bucket)\\{[^}]*\\}(?!\\[)")] | length) > 0 then "target-counter-agg-rule: \($n): a counter used outside rate/increase: \($e)" else empty end)))
' "$dashboard")

if [ -n "$problems" ]; then
	printf '%s\n' "$problems"
	echo "dashboard-lint.sh: $(wc -l <<<"$problems") problem(s) in $dashboard" >&2
	exit 1
fi
echo "dashboard-lint.sh: $dashboard passes"
