// Package mixincheck holds no code: its tests hold the rendered files in
// alerts/, dashboards/, deploy/kubernetes/operator/ and the Helm chart's
// files/ to the mixin in mixin/ (a fresh render through scripts/mixin.sh
// must equal them), and every field of the mixin's _config to a use
// (changing it must change the rules or the dashboard).
package mixincheck
