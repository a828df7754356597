// Package testsupport holds the helpers tests share: a settable clock, a
// buffer safe for concurrent writers, a wait for a condition, a skip for a
// missing tool (a failure in CI), the exact token history totals the
// exporter should count, and a registry's gather to hold metric families
// gathered without one to. It imports nothing from this module, so that the
// tests of every package, client and fakeexchange included, can use it
// without an import cycle.
package testsupport
