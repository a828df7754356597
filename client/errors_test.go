package client

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
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
		{"403 without code", 403, `{"success":false,"message":"forbidden"}`, IsAuth, 0},
		{"-1002 on a 200", 200, `{"success":false,"code":-1002,"message":"no permission"}`, IsAuth, -1002},
		// The system status answers -1011 too here: -1011 is then transient.
		{"-1011 without system status", 400, `{"success":false,"code":"-1011","message":"system under maintenance"}`, IsTransient, -1011},
		{"-1011 with 200 without system status", 200, `{"success":false,"code":-1011,"message":"system under maintenance"}`, IsTransient, -1011},
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
			_, _, err := newTestClient(t, srv.URL, nil).Credentials(context.Background())
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
	_, _, err := newTestClient(t, srv.URL, func(c *Config) { c.MaxBodyBytes = 1024 }).TokenNetworks(context.Background())
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
	_, _, err = newTestClient(t, "http://"+addr, nil).TokenNetworks(context.Background())
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
	if _, _, err := c.TokenNetworks(context.Background()); !IsTransient(err) {
		t.Fatalf("err = %v", err)
	}
}

// pathServer answers each path with its own status and body and counts the
// requests per path.
func pathServer(t *testing.T, answers map[string]func() (int, string)) (*httptest.Server, func(path string) int) {
	t.Helper()
	var mu sync.Mutex
	calls := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls[r.URL.Path]++
		mu.Unlock()
		status, body := 404, `{"success":false,"code":-1006,"message":"not found"}`
		if a, ok := answers[r.URL.Path]; ok {
			status, body = a()
		}
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv, func(path string) int {
		mu.Lock()
		defer mu.Unlock()
		return calls[path]
	}
}

func fixed(status int, body string) func() (int, string) {
	return func() (int, string) { return status, body }
}

// A rejected signature is not retried as such: the only extra request is
// the one system info request that tries to learn the exchange's time,
// and with that unreadable nothing is sent again.
func TestAuthErrorsAreNotRetried(t *testing.T) {
	srv, calls := pathServer(t, map[string]func() (int, string){
		endpoint.PathOf(endpoint.Credentials): fixed(401, `{"success":false,"code":-1001,"message":"invalid signature"}`),
		endpoint.PathOf(endpoint.SystemInfo):  fixed(401, `{"success":false,"code":-1001,"message":"invalid signature"}`),
	})
	c := newTestClient(t, srv.URL, func(c *Config) { c.MaxRetries = 3 })
	if _, _, err := c.Credentials(context.Background()); !IsAuth(err) {
		t.Fatalf("err = %v", err)
	}
	if n, m := calls(endpoint.PathOf(endpoint.Credentials)), calls(endpoint.PathOf(endpoint.SystemInfo)); n != 1 || m != 1 {
		t.Errorf("auth error sent %d credentials and %d system info requests, want 1 and 1", n, m)
	}
	// The time is known once the system info answers: a wrong key then
	// fails after one more try, and later calls do not ask again.
	srv2, calls2 := pathServer(t, map[string]func() (int, string){
		endpoint.PathOf(endpoint.Credentials): fixed(401, `{"success":false,"code":-1002,"message":"unknown key"}`),
		endpoint.PathOf(endpoint.SystemInfo):  fixed(200, `{"success":true,"data":{"status":0,"msg":"ok"},"timestamp":`+strconv.FormatInt(time.Now().UnixMilli(), 10)+`}`),
	})
	c = newTestClient(t, srv2.URL, func(c *Config) { c.MaxRetries = 3 })
	for range 2 {
		if _, _, err := c.Credentials(context.Background()); !IsAuth(err) {
			t.Fatalf("err = %v", err)
		}
	}
	if n, m := calls2(endpoint.PathOf(endpoint.Credentials)), calls2(endpoint.PathOf(endpoint.SystemInfo)); n != 3 || m != 1 {
		t.Errorf("two calls with a wrong key sent %d credentials and %d system info requests, want 3 and 1", n, m)
	}
}

// -1011 means maintenance only when the system status says so; otherwise
// it is one of the exchange's passing internal errors and is retried.
func TestMaintenanceCodeFollowsTheSystemStatus(t *testing.T) {
	const maint = `{"success":false,"code":"-1011","message":"system under maintenance"}`
	for _, tc := range []struct {
		name       string
		systemInfo func() (int, string)
		maint      bool
		attempts   int
	}{
		{"status normal", fixed(200, `{"success":true,"data":{"status":0,"msg":"System is functioning properly."},"timestamp":1}`), false, 4},
		{"trading maintenance", fixed(200, `{"success":true,"data":{"status":1,"msg":"trading maintenance"},"timestamp":1}`), true, 1},
		{"system maintenance as a string", fixed(200, `{"success":true,"data":{"status":"2","msg":"upgrade","estimated_end_time":"1749963600362"},"timestamp":1}`), true, 1},
		{"unknown status", fixed(200, `{"success":true,"data":{"status":3},"timestamp":1}`), false, 4},
		{"status unreadable", fixed(200, `<html>`), false, 4},
		{"status endpoint under -1011 too", fixed(400, maint), false, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, calls := pathServer(t, map[string]func() (int, string){
				endpoint.PathOf(endpoint.TokenNetwork): fixed(400, maint),
				endpoint.PathOf(endpoint.SystemInfo):   tc.systemInfo,
			})
			c := newTestClient(t, srv.URL, func(c *Config) { c.MaxRetries = 3; c.Sleep = func(context.Context, time.Duration) error { return nil } })
			_, _, err := c.TokenNetworks(context.Background())
			if IsMaintenance(err) != tc.maint || (!tc.maint && !IsTransient(err)) {
				t.Errorf("err = %v, want maintenance %v", err, tc.maint)
			}
			var e *Error
			if !errors.As(err, &e) || e.Code != CodeMaintenance {
				t.Errorf("err = %v, want code -1011 kept", err)
			}
			// One system info request per call, however many -1011s.
			if n, m := calls(endpoint.PathOf(endpoint.TokenNetwork)), calls(endpoint.PathOf(endpoint.SystemInfo)); n != tc.attempts || m != 1 {
				t.Errorf("%d requests and %d system info requests, want %d and 1", n, m, tc.attempts)
			}
		})
	}
}

// A run of -1011 answers asks the system status once, until an answer
// succeeds or the status is a minute old.
func TestMinus1011EpisodeAsksTheSystemStatusOnce(t *testing.T) {
	var failing atomic.Bool
	srv, calls := pathServer(t, map[string]func() (int, string){
		endpoint.PathOf(endpoint.TokenNetwork): func() (int, string) {
			if failing.Load() {
				return 400, `{"success":false,"code":-1011,"message":"system under maintenance"}`
			}
			return 200, `{"success":true,"data":{"rows":[]},"timestamp":1}`
		},
		endpoint.PathOf(endpoint.SystemInfo): fixed(200, `{"success":true,"data":{"status":2,"msg":"upgrade"},"timestamp":1}`),
	})
	clk := newStepClock()
	c := newTestClient(t, srv.URL, func(c *Config) {
		c.Now = clk.Now
		c.RateLimit = RateLimit{Requests: 1000, Window: time.Minute}
	})
	call := func(wantMaintenance bool, wantAsked int) {
		t.Helper()
		_, _, err := c.TokenNetworks(context.Background())
		if IsMaintenance(err) != wantMaintenance || (!wantMaintenance && err != nil) {
			t.Fatalf("err = %v, want maintenance %v", err, wantMaintenance)
		}
		if n := calls(endpoint.PathOf(endpoint.SystemInfo)); n != wantAsked {
			t.Fatalf("system status asked %d times, want %d", n, wantAsked)
		}
	}
	failing.Store(true)
	call(true, 1)
	call(true, 1) // the same episode
	clk.Add(systemStatusFresh - time.Second)
	call(true, 1)
	clk.Add(time.Second)
	call(true, 2) // a minute old: asked again
	failing.Store(false)
	call(false, 2) // ends the episode
	failing.Store(true)
	call(true, 3) // a new episode
}

// The system status endpoint's own -1011 does not ask the system status.
func TestSystemInfoDoesNotAskItselfAboutMinus1011(t *testing.T) {
	srv, calls := pathServer(t, map[string]func() (int, string){
		endpoint.PathOf(endpoint.SystemInfo): fixed(400, `{"success":false,"code":-1011,"message":"internal error"}`),
	})
	c := newTestClient(t, srv.URL, func(c *Config) { c.MaxRetries = 2; c.Sleep = func(context.Context, time.Duration) error { return nil } })
	if _, err := c.SystemInfo(context.Background()); !IsTransient(err) {
		t.Errorf("err = %v, want transient", err)
	}
	if n := calls(endpoint.PathOf(endpoint.SystemInfo)); n != 3 {
		t.Errorf("%d system info requests, want 1 + 2 retries", n)
	}
}

func TestTransientErrorsRetryWithGrowingBackoff(t *testing.T) {
	srv, calls := cannedServer(t, 503, `{"success":false,"code":-1000,"message":"busy"}`)
	var waits []time.Duration
	c := newTestClient(t, srv.URL, func(c *Config) {
		c.MaxRetries = 3
		c.Sleep = func(ctx context.Context, d time.Duration) error { waits = append(waits, d); return nil }
	})
	if _, _, err := c.TokenNetworks(context.Background()); !IsTransient(err) {
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
	if _, _, err := c.Credentials(context.Background()); !IsAuth(err) {
		t.Fatalf("err = %v", err)
	}
	if calls.Load() != 0 {
		t.Error("request sent without a key")
	}
}
