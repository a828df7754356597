// Package rulescheck holds no code: its test holds the alerting rules in
// alerts/ to the conventions promtool does not check. Every alert rule has a
// severity label (critical, warning or info), summary and description
// annotations, a runbook_url pointing at its section of RUNBOOK.md, and that
// section; every alert name has a promtool test case in
// alerts/woox_exporter.rules.test.yml where it fires and one where it stays
// silent. promtool itself (scripts/check-static.sh) checks that the rules
// parse and that those test cases pass.
package rulescheck
