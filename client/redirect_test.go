package client

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// A redirect from the exchange address is answered, not followed: following
// it would send x-api-key and x-api-signature to another host and spend a
// request the budget never counted.
func TestRedirectIsNotFollowedAndIsABadResponse(t *testing.T) {
	for _, tc := range []struct {
		name string
		http func() *http.Client
	}{
		{"default client", func() *http.Client { return nil }},
		{"NewHTTPClient", func() *http.Client { return NewHTTPClient(5 * time.Second) }},
		// A caller's client that would follow redirects is not trusted.
		{"caller's plain client", func() *http.Client { return &http.Client{} }},
	} {
		for _, status := range []int{301, 302, 307, 308} {
			t.Run(tc.name+"/"+http.StatusText(status), func(t *testing.T) {
				var elsewhere atomic.Int32
				other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					elsewhere.Add(1)
					_, _ = w.Write([]byte(`{"success":true,"data":{"rows":[]},"timestamp":1}`))
				}))
				t.Cleanup(other.Close)
				var calls atomic.Int32
				srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					calls.Add(1)
					http.Redirect(w, r, other.URL+r.URL.Path+"?leak=LOCATION-QUERY-4711", status)
				}))
				t.Cleanup(srv.Close)

				hc := tc.http()
				c := newTestClient(t, srv.URL, func(c *Config) { c.HTTPClient = hc; c.MaxRetries = 3 })
				_, _, err := c.Credentials(context.Background())
				if n := elsewhere.Load(); n != 0 {
					t.Fatalf("the redirect target received %d requests", n)
				}
				if !IsBadResponse(err) {
					t.Fatalf("err = %v, want a bad response", err)
				}
				msg := err.Error()
				if want := "HTTP " + strconv.Itoa(status); !strings.Contains(msg, want) || !strings.Contains(msg, "redirect") {
					t.Errorf("error %q does not name the redirect and %s", msg, want)
				}
				if strings.Contains(msg, "LOCATION-QUERY-4711") {
					t.Errorf("error %q holds the Location's query", msg)
				}
				if n := calls.Load(); n != 1 {
					t.Errorf("%d requests to the exchange, want 1 (a bad response is not retried)", n)
				}
				if hc != nil && hc.CheckRedirect != nil && tc.name == "caller's plain client" {
					t.Error("the caller's client was modified")
				}
			})
		}
	}
}
