// Package testsupport holds the helpers tests share: a settable clock, a
// buffer safe for concurrent writers, a wait for a condition, the exact
// token history totals the exporter should count, and the lookup of a
// command a check runs (skipping when it is missing). It imports nothing from
// this module, so that the tests of every package, client and fakeexchange
// included, can use it without an import cycle.
package testsupport
