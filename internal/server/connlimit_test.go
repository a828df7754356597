package server

import (
	"errors"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// acceptN dials l n times and accepts each connection, returning the
// accepted ends.
func acceptN(t *testing.T, l *evictingListener, n int) []*trackedConn {
	t.Helper()
	var accepted []*trackedConn
	for range n {
		c, err := net.Dial("tcp", l.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		a, err := l.Accept()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Close() })
		accepted = append(accepted, a.(*trackedConn))
	}
	return accepted
}

func newTestEvictingListener(t *testing.T, maxConns int) *evictingListener {
	t.Helper()
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := newEvictingListener(inner, maxConns)
	t.Cleanup(func() { l.Close() })
	return l
}

// setStates reports states for conns as the http.Server would, the first
// entering its state longest ago.
func setStates(l *evictingListener, conns []*trackedConn, states ...http.ConnState) {
	for i, s := range states {
		l.setState(conns[i], s)
		l.mu.Lock()
		conns[i].since = time.Now().Add(time.Duration(i-len(states)) * time.Second)
		l.mu.Unlock()
	}
}

func held(l *evictingListener, c *trackedConn) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, ok := l.conns[c]
	return ok
}

// At the cap, a new connection evicts the oldest one that has sent no
// complete request, then the one idle longest between requests, and never
// one with a request in progress: then it waits for a place.
func TestEvictingListenerEvictsNewThenIdleOldestFirstNeverActive(t *testing.T) {
	l := newTestEvictingListener(t, 4)
	c := acceptN(t, l, 4)
	setStates(l, c, http.StateIdle, http.StateNew, http.StateActive, http.StateNew)
	d := acceptN(t, l, 1)
	if held(l, c[1]) || !held(l, c[3]) {
		t.Fatalf("first eviction: oldest new held %v, newer new held %v; want the oldest new one evicted", held(l, c[1]), held(l, c[3]))
	}
	e := acceptN(t, l, 1)
	if held(l, c[3]) || !held(l, c[0]) {
		t.Fatalf("second eviction: the remaining new one held %v, the idle one held %v; want new before idle", held(l, c[3]), held(l, c[0]))
	}
	setStates(l, d, http.StateActive)
	setStates(l, e, http.StateActive)
	acceptN(t, l, 1)
	if held(l, c[0]) || !held(l, c[2]) {
		t.Fatalf("third eviction: idle held %v, active held %v; want the idle one evicted", held(l, c[0]), held(l, c[2]))
	}

	// Now: c[2], d[0], e[0] active and one new one; make that active too.
	l.mu.Lock()
	for x := range l.conns {
		x.state = http.StateActive
	}
	l.mu.Unlock()
	extra, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer extra.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		a, _ := l.Accept()
		accepted <- a
	}()
	select {
	case <-accepted:
		t.Fatal("a connection was admitted while every one had a request in progress")
	case <-time.After(200 * time.Millisecond):
	}
	if !held(l, c[2]) || !held(l, d[0]) {
		t.Fatal("a connection with a request in progress was evicted")
	}
	c[2].Close()
	select {
	case a := <-accepted:
		if a == nil {
			t.Fatal("Accept failed after a place freed")
		}
		a.Close()
	case <-time.After(5 * time.Second):
		t.Fatal("the waiting connection was not admitted when a place freed")
	}
}

// An evicted connection is closed: its client reads EOF.
func TestEvictingListenerClosesTheEvictedConnection(t *testing.T) {
	l := newTestEvictingListener(t, 1)
	client, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	if _, err := l.Accept(); err != nil {
		t.Fatal(err)
	}
	acceptN(t, l, 1)
	if err := client.SetReadDeadline(time.Now().Add(5 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Fatalf("evicted connection: read returned %v, want EOF", err)
	}
}

// An Accept waiting for a place returns when the listener is closed, so that
// the server can shut down.
func TestEvictingListenerWaitingAcceptEndsOnClose(t *testing.T) {
	l := newTestEvictingListener(t, 1)
	c := acceptN(t, l, 1)
	setStates(l, c, http.StateActive)
	extra, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer extra.Close()
	errc := make(chan error, 1)
	go func() {
		_, err := l.Accept()
		errc <- err
	}()
	time.Sleep(100 * time.Millisecond)
	l.Close()
	select {
	case err := <-errc:
		if !errors.Is(err, net.ErrClosed) {
			t.Fatalf("Accept after Close: %v, want net.ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Accept still waiting after the listener closed")
	}
}

// Closing the listener (as shutdown does) closes the connections that have
// sent no complete request, and leaves the others to the server.
func TestEvictingListenerCloseClosesSilentConnections(t *testing.T) {
	l := newTestEvictingListener(t, 3)
	c := acceptN(t, l, 3)
	setStates(l, c, http.StateNew, http.StateIdle, http.StateActive)
	l.Close()
	if held(l, c[0]) || !held(l, c[1]) || !held(l, c[2]) {
		t.Errorf("after Close: silent held %v, idle %v, active %v; want only the silent one closed", held(l, c[0]), held(l, c[1]), held(l, c[2]))
	}
}
