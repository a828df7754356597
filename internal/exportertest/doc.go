// Package exportertest runs the real woox_exporter binary for the tests in
// e2e/ and for cmd/loadtest: it builds the binary once per process, starts
// it on a free loopback address, waits for it to be ready, scrapes it and
// stops it. The functions that take a testing.TB fail the test; the others
// return errors, for callers without one.
package exportertest
