package server

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// evictingListener holds at most max connections open at once. A connection
// arriving at the cap is not left in the kernel's backlog behind clients
// that send nothing: it takes the place of the connection that has waited
// longest without sending a complete request (http.StateNew), or failing
// that of the one idle longest between requests (http.StateIdle; Go's HTTP
// client, Prometheus' included, retries a GET on a reused connection that
// the server closed). A connection with a request in progress is never
// closed to make room: when every one is busy, the new one waits for a place.
type evictingListener struct {
	net.Listener
	max int

	mu     sync.Mutex
	freed  *sync.Cond // a place freed, a connection became evictable, or the listener closed
	conns  map[*trackedConn]struct{}
	closed bool
}

func newEvictingListener(l net.Listener, maxConns int) *evictingListener {
	e := &evictingListener{Listener: l, max: max(maxConns, 1), conns: make(map[*trackedConn]struct{})}
	e.freed = sync.NewCond(&e.mu)
	return e
}

// trackedConn is an accepted connection and the state the http.Server last
// reported for it.
type trackedConn struct {
	net.Conn
	l *evictingListener
	// state and since (when it entered the state) are guarded by l.mu.
	state http.ConnState
	since time.Time
}

func (l *evictingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	tc := &trackedConn{Conn: c, l: l, state: http.StateNew, since: time.Now()}
	if err := l.admit(tc); err != nil {
		c.Close()
		return nil, err
	}
	return tc, nil
}

// admit makes room for tc, evicting or waiting, and counts it.
func (l *evictingListener) admit(tc *trackedConn) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	for len(l.conns) >= l.max {
		if l.closed {
			return net.ErrClosed
		}
		if victim := l.evictable(); victim != nil {
			delete(l.conns, victim)
			victim.Conn.Close()
			continue
		}
		l.freed.Wait()
	}
	l.conns[tc] = struct{}{}
	return nil
}

// evictable is the connection to close first, or nil if every one has a
// request in progress. l.mu is held.
func (l *evictingListener) evictable() *trackedConn {
	var newest, idle *trackedConn
	for c := range l.conns {
		switch {
		case c.state == http.StateNew && (newest == nil || c.since.Before(newest.since)):
			newest = c
		case c.state == http.StateIdle && (idle == nil || c.since.Before(idle.since)):
			idle = c
		}
	}
	if newest != nil {
		return newest
	}
	return idle
}

// Close stops accepting and closes the connections that have sent no
// complete request: http.Server.Shutdown closes idle ones but waits 5 s
// for silent ones, as long as it allows itself.
func (l *evictingListener) Close() error {
	l.mu.Lock()
	l.closed = true
	for c := range l.conns {
		if c.state == http.StateNew {
			delete(l.conns, c)
			c.Conn.Close()
		}
	}
	l.freed.Broadcast()
	l.mu.Unlock()
	return l.Listener.Close()
}

func (l *evictingListener) setState(c *trackedConn, s http.ConnState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	c.state, c.since = s, time.Now()
	if s == http.StateNew || s == http.StateIdle {
		l.freed.Broadcast()
	}
}

func (c *trackedConn) Close() error {
	l := c.l
	l.mu.Lock()
	if _, ok := l.conns[c]; ok {
		delete(l.conns, c)
		l.freed.Broadcast()
	}
	l.mu.Unlock()
	return c.Conn.Close()
}

// trackConnState is the http.Server's ConnState hook: it tells the
// connection's evictingListener which of its connections may be evicted.
// TLS connections are unwrapped to the accepted one.
func trackConnState(c net.Conn, s http.ConnState) {
	if u, ok := c.(interface{ NetConn() net.Conn }); ok {
		c = u.NetConn()
	}
	if tc, ok := c.(*trackedConn); ok {
		tc.l.setState(tc, s)
	}
}
