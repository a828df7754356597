package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestLimitEncodingPassesTheAnswerThroughAndEndsTheEncoding(t *testing.T) {
	h := limitEncoding(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.WriteHeader(http.StatusTeapot)
		_, _ = w.Write([]byte("body"))
	}), 1)
	for i := range 3 { // one encoding at a time: each must end
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
		if rec.Code != http.StatusTeapot || rec.Header().Get("Content-Encoding") != "gzip" || rec.Body.String() != "body" {
			t.Fatalf("request %d: got %d %v %q", i, rec.Code, rec.Header(), rec.Body.String())
		}
	}
}

func TestLimitEncodingWaiterGivesUpWithItsClient(t *testing.T) {
	release := make(chan struct{})
	h := limitEncoding(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { <-release }), 1)
	go h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/metrics", nil))
	defer close(release)
	time.Sleep(10 * time.Millisecond) // the first request is encoding
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	done := make(chan struct{})
	go func() {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/metrics", nil).WithContext(ctx))
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("a waiting request did not return when its client gave up")
	}
}
