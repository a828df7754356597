package testsupport

import (
	"testing"
	"time"
)

// WaitTimeout is how long WaitFor waits: generous, as it waits for what
// happens within milliseconds or never, and a loaded CI machine under the
// race detector is slow.
const WaitTimeout = 30 * time.Second

// WaitFor checks cond every few milliseconds until it holds, and fails the
// test, naming what it waited for, if it does not within WaitTimeout.
func WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	WaitWithin(t, WaitTimeout, 10*time.Millisecond, what, cond)
}

// WaitWithin is WaitFor with its own timeout, checking cond every every:
// for what waits on a scrape or a rule evaluation, over HTTP.
func WaitWithin(t testing.TB, within, every time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up after %s waiting for %s", within, what)
		}
		time.Sleep(every)
	}
}
