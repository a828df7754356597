package client

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"
)

// systemInfoAnswer is a whole HTTP answer of the system status.
const systemInfoAnswer = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"

func systemInfoBody() string {
	return fmt.Sprintf(`{"success":true,"data":{"status":0,"msg":"System is functioning properly."},"timestamp":%d}`, time.Now().UnixMilli())
}

// connServer is an HTTP/1.1 server on loopback that answers the first
// request of each connection and closes the connection after reading the
// second, unanswered: what a server does that closes an idle connection as
// the client reuses it.
type connServer struct {
	ln          net.Listener
	mu          sync.Mutex
	requests    int
	connections int
	withBody    int
}

func startConnServer(t *testing.T) *connServer {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &connServer{ln: ln}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go s.serve(conn)
		}
	}()
	return s
}

func (s *connServer) serve(conn net.Conn) {
	defer conn.Close()
	s.mu.Lock()
	s.connections++
	s.mu.Unlock()
	r := bufio.NewReader(conn)
	for n := 0; ; n++ {
		req, err := http.ReadRequest(r)
		if err != nil {
			return
		}
		s.mu.Lock()
		s.requests++
		if req.ContentLength != 0 || len(req.TransferEncoding) > 0 {
			s.withBody++
		}
		s.mu.Unlock()
		if n == 1 {
			return
		}
		body := systemInfoBody()
		fmt.Fprintf(conn, systemInfoAnswer, len(body), body)
	}
}

func (s *connServer) counts() (requests, connections, withBody int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests, s.connections, s.withBody
}

func TestRequestsReuseOneConnectionWithoutABody(t *testing.T) {
	s := startConnServer(t)
	hc := NewHTTPClient(5 * time.Second)
	url := "http://" + s.ln.Addr().String()
	a := newTestClient(t, url, func(c *Config) { c.HTTPClient = hc })
	if _, err := a.SystemInfo(context.Background()); err != nil {
		t.Fatal(err)
	}
	requests, connections, withBody := s.counts()
	if requests != 1 || connections != 1 || withBody != 0 {
		t.Fatalf("after one request the server saw %d requests on %d connections, %d with a body; want 1, 1, 0", requests, connections, withBody)
	}
}

// TestNoRequestIsResentBehindTheBudget: the connection the first request
// left idle is reused and closed by the server after reading the second
// request. net/http would resend a plain GET on a new connection, a request
// the budget never counted; the client's must fail instead, for get to
// retry within the budget.
func TestNoRequestIsResentBehindTheBudget(t *testing.T) {
	s := startConnServer(t)
	hc := NewHTTPClient(5 * time.Second)
	c := newTestClient(t, "http://"+s.ln.Addr().String(), func(c *Config) { c.HTTPClient = hc })
	if _, err := c.SystemInfo(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, err := c.SystemInfo(context.Background())
	requests, connections, _ := s.counts()
	if requests != 2 || connections != 1 {
		t.Errorf("two requests reached the server as %d requests on %d connections; want 2 on 1 (none resent)", requests, connections)
	}
	if !IsTransient(err) {
		t.Errorf("the request whose connection closed unanswered: err %v, want a transient error", err)
	}
}
