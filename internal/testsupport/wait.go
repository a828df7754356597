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
	deadline := time.Now().Add(WaitTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up after %s waiting for %s", WaitTimeout, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
