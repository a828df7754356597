package client

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// cannedServer answers every request with the given status and body, so the
// client's handling of each kind of answer can be checked byte for byte.
func cannedServer(t *testing.T, status int, body string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

const testSecret = "SECRET-Zq7xVvJ3-never-print-me"

func newTestClient(t *testing.T, baseURL string, mod func(*Config)) *Client {
	t.Helper()
	cfg := Config{
		BaseURL: baseURL, Account: "main", APIKey: "test-key-123456", APISecret: testSecret,
		MaxRetries: -1, Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() },
	}
	if mod != nil {
		mod(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestErrorClasses(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		body   string
		is     func(error) bool
		code   int
	}{
		{"http 429", 429, `{"success":false,"code":-1003,"message":"too many requests"}`, IsRateLimited, -1003},
		{"code -1003 as string", 400, `{"success":false,"code":"-1003","message":"too many requests"}`, IsRateLimited, -1003},
		{"bad signature", 401, `{"success":false,"code":-1001,"message":"invalid signature"}`, IsAuth, -1001},
		{"unauthorized", 401, `{"success":false,"code":-1002,"message":"ip not allowed"}`, IsAuth, -1002},
		{"401 without body", 401, ``, IsAuth, 0},
		{"maintenance", 400, `{"success":false,"code":"-1011","message":"system under maintenance"}`, IsMaintenance, -1011},
		{"maintenance with 200", 200, `{"success":false,"code":-1011,"message":"system under maintenance"}`, IsMaintenance, -1011},
		{"502 html", 502, `<html>bad gateway</html>`, IsTransient, 0},
		{"500 envelope", 500, `{"success":false,"code":-1000,"message":"unknown"}`, IsTransient, -1000},
		{"not json", 200, `<html>hello</html>`, IsBadResponse, 0},
		{"truncated", 200, `{"success":true,"data":{"rows":[{"token":"US`, IsBadResponse, 0},
		{"success false", 200, `{"success":false,"code":-1000,"message":"oops"}`, IsBadResponse, -1000},
		{"no success field", 200, `{"data":{"rows":[]}}`, IsBadResponse, 0},
		{"success without data", 200, `{"success":true,"timestamp":1}`, IsBadResponse, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := cannedServer(t, tc.status, tc.body)
			_, err := newTestClient(t, srv.URL, nil).Credentials(context.Background())
			if err == nil {
				t.Fatal("no error")
			}
			if !tc.is(err) {
				t.Fatalf("wrong class: %v", err)
			}
			var e *Error
			if !errors.As(err, &e) || e.Code != tc.code {
				t.Fatalf("code = %d, want %d (%v)", e.Code, tc.code, err)
			}
			if e.StatusCode != tc.status {
				t.Errorf("status = %d, want %d", e.StatusCode, tc.status)
			}
			if !strings.HasPrefix(err.Error(), "get credentials page 1: ") {
				t.Errorf("error does not name the operation: %v", err)
			}
		})
	}
}

func TestOversizedBodyIsBadResponse(t *testing.T) {
	srv, _ := cannedServer(t, 200, `{"success":true,"data":{"rows":[]},"pad":"`+strings.Repeat("x", 4096)+`"}`)
	_, err := newTestClient(t, srv.URL, func(c *Config) { c.MaxBodyBytes = 1024 }).TokenNetworks(context.Background())
	if !IsBadResponse(err) || !strings.Contains(err.Error(), "exceeds 1024 bytes") {
		t.Fatalf("err = %v", err)
	}
}

func TestConnectionErrorIsTransient(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, err = newTestClient(t, "http://"+addr, nil).TokenNetworks(context.Background())
	if !IsTransient(err) {
		t.Fatalf("err = %v", err)
	}
}

func TestTimeoutIsTransient(t *testing.T) {
	block := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-block:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(block)
	c := newTestClient(t, srv.URL, func(c *Config) { c.HTTPClient = &http.Client{Timeout: 50 * time.Millisecond} })
	if _, err := c.TokenNetworks(context.Background()); !IsTransient(err) {
		t.Fatalf("err = %v", err)
	}
}

func TestAuthErrorsAreNotRetried(t *testing.T) {
	srv, calls := cannedServer(t, 401, `{"success":false,"code":-1001,"message":"invalid signature"}`)
	c := newTestClient(t, srv.URL, func(c *Config) { c.MaxRetries = 3 })
	if _, err := c.Credentials(context.Background()); !IsAuth(err) {
		t.Fatalf("err = %v", err)
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("auth error sent %d requests, want 1", n)
	}
}

func TestTransientErrorsRetryWithGrowingBackoff(t *testing.T) {
	srv, calls := cannedServer(t, 503, `{"success":false,"code":-1000,"message":"busy"}`)
	var waits []time.Duration
	c := newTestClient(t, srv.URL, func(c *Config) {
		c.MaxRetries = 3
		c.Sleep = func(ctx context.Context, d time.Duration) error { waits = append(waits, d); return nil }
	})
	if _, err := c.TokenNetworks(context.Background()); !IsTransient(err) {
		t.Fatalf("err = %v", err)
	}
	if n := calls.Load(); n != 4 {
		t.Errorf("sent %d requests, want 1 + 3 retries", n)
	}
	if len(waits) != 3 || !(waits[0] < waits[1] && waits[1] < waits[2]) || waits[2] > maxBackoff+maxBackoff/10 {
		t.Errorf("backoff waits = %v, want 3 growing waits under %v", waits, maxBackoff)
	}
}

func TestUnsignedClientRefusesPrivateEndpoints(t *testing.T) {
	srv, calls := cannedServer(t, 200, `{}`)
	c, err := New(Config{BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Credentials(context.Background()); !IsAuth(err) {
		t.Fatalf("err = %v", err)
	}
	if calls.Load() != 0 {
		t.Error("request sent without a key")
	}
}
