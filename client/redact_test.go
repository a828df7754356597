package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// echoServer plays an exchange that quotes the request's headers in its
// error message, in the answer shape given (status, success:false).
func echoServer(t *testing.T, status int, message func(r *http.Request) string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := json.Marshal(map[string]any{"success": false, "code": -1001, "message": message(r)})
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestErrorMessageHidesTheKeySignaturesAndHexRuns(t *testing.T) {
	const hex40 = "0123456789abcdef0123456789ABCDEF01234567"
	for _, tc := range []struct {
		name    string
		status  int
		message func(r *http.Request) string
		want    string
	}{
		{"headers echoed", 401, func(r *http.Request) string {
			return "bad sig " + r.Header.Get("x-api-signature") + " key " + r.Header.Get("x-api-key")
		}, "bad sig [REDACTED] key [REDACTED]"},
		{"success false", 200, func(r *http.Request) string {
			return r.Header.Get("x-api-key") + "/" + hex40
		}, "[REDACTED]/[REDACTED]"},
		// Cut first, the key's head would stay.
		{"key across the cut", 401, func(r *http.Request) string {
			return strings.Repeat(".", 58) + r.Header.Get("x-api-key")
		}, strings.Repeat(".", 58) + "[REDAC..."},
		{"signature in capitals", 400, func(r *http.Request) string {
			return "sig=" + strings.ToUpper(r.Header.Get("x-api-signature"))
		}, "sig=[REDACTED]"},
		{"short hex kept", 400, func(*http.Request) string { return "order 0123456789abcdef failed" }, "order 0123456789abcdef failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestClient(t, echoServer(t, tc.status, tc.message).URL, nil)
			_, _, err := c.Credentials(context.Background())
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v, want *Error", err)
			}
			if e.Message != tc.want {
				t.Errorf("message %q, want %q", e.Message, tc.want)
			}
			if s := err.Error(); strings.Contains(s, "test-key") || hexRun.MatchString(s) {
				t.Errorf("error %q holds the key or a hex run", s)
			}
		})
	}
}

// An answer may quote a signature of an earlier request, still valid for
// SigningWindow: the client redacts its recent ones, whatever their shape.
func TestSignatureRingRedactsTheRecentSignatures(t *testing.T) {
	var r signatureRing
	for i := range recentSignatures + 1 {
		r.add("sig-" + strings.Repeat("x", i+1) + "-end")
	}
	first := "sig-x-end"
	last := "sig-" + strings.Repeat("x", recentSignatures+1) + "-end"
	if got := r.redact(first + " " + last); got != first+" [REDACTED]" {
		t.Errorf("redact = %q, want the oldest evicted and the latest redacted", got)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			r.add("concurrent")
			_ = r.redact("concurrent")
		})
	}
	wg.Wait()
}
