// Package rulescheck holds no code: its tests hold the alerting rules in
// alerts/ to promtool and to the conventions promtool does not check. The
// rules file loads (promtool check rules) and its test cases pass (promtool
// test rules); every alert rule has a severity label (critical, warning or
// info), summary and description annotations, a runbook_url pointing at its
// section of RUNBOOK.md, and that section; every alert name has a promtool
// test case in alerts/woox_exporter.rules.test.yml where it fires and one
// where it stays silent; WooxDataStale watches every endpoint of
// endpoint.All, and the README's alert table and RUNBOOK.md say which
// endpoints each of its thresholds holds, as the rules do. The promtool tests skip when it is not installed; CI
// installs it.
package rulescheck
