package fakeexchange

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestFaultKinds(t *testing.T) {
	for _, tc := range []struct {
		fault       Fault
		status      int
		contentType string
		check       func(t *testing.T, r reply)
	}{
		{Fault{Kind: FaultHTTPError}, 502, "text/html", nil},
		{Fault{Kind: FaultHTTPError, Status: 503}, 503, "text/html", nil},
		{Fault{Kind: FaultHTTPError, Status: 500}, 500, "application/json", func(t *testing.T, r reply) {
			wantError(t, r, 500, "-1000")
		}},
		{Fault{Kind: FaultHTTPError, Status: 500, HTML: true}, 500, "text/html", nil},
		{Fault{Kind: FaultMalformedJSON}, 200, "application/json", func(t *testing.T, r reply) {
			if json.Valid(r.body) {
				t.Errorf("body is valid JSON: %s", r.body)
			}
		}},
		{Fault{Kind: FaultTruncatedJSON}, 200, "application/json", func(t *testing.T, r reply) {
			if json.Valid(r.body) || !strings.HasPrefix(string(r.body), `{"success":true,"data":{"rows":[`) {
				t.Errorf("body is not a truncated answer: %s", r.body)
			}
		}},
		{Fault{Kind: FaultSuccessFalse}, 200, "application/json", func(t *testing.T, r reply) {
			wantError(t, r, 200, "-1000")
		}},
		{Fault{Kind: FaultMaintenance}, 400, "application/json", func(t *testing.T, r reply) {
			if !strings.Contains(string(r.body), `"code":"-1011"`) {
				t.Errorf("code not sent as string: %s", r.body)
			}
		}},
		{Fault{Kind: FaultRateLimitStorm}, 429, "application/json", func(t *testing.T, r reply) {
			wantError(t, r, 429, "-1003")
		}},
		{Fault{Kind: FaultWrongContent}, 200, "text/html", func(t *testing.T, r reply) {
			if !strings.HasPrefix(string(r.body), "<!DOCTYPE html>") {
				t.Errorf("body: %s", r.body)
			}
		}},
		{Fault{Kind: FaultOversizedBody, Size: 3 << 20}, 200, "application/json", func(t *testing.T, r reply) {
			if len(r.body) != 3<<20 || !json.Valid(r.body) {
				t.Errorf("body of %d bytes, valid JSON %v", len(r.body), json.Valid(r.body))
			}
		}},
	} {
		t.Run(string(tc.fault.Kind), func(t *testing.T) {
			h := newHarness(t, testScenario())
			tc.fault.Count = 1
			h.ex.InjectFault(tc.fault)
			r := h.get(PathCredentials, "", "a1")
			if r.status != tc.status {
				t.Fatalf("status %d, want %d; body %.200s", r.status, tc.status, r.body)
			}
			if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, tc.contentType) {
				t.Errorf("Content-Type %q, want %s", ct, tc.contentType)
			}
			if tc.check != nil {
				tc.check(t, r)
			}
			// Count 1: the next request is answered normally.
			wantOK(t, h.get(PathCredentials, "", "a1"))
			if rec := h.ex.Requests()[0]; rec.Fault != tc.fault.Kind || rec.Status != tc.status || rec.Account != "a" {
				t.Errorf("request record %+v", rec)
			}
		})
	}
}

func TestFaultDefaultOversizedBodyIs20MiB(t *testing.T) {
	h := newHarness(t, testScenario())
	h.ex.InjectFault(Fault{Kind: FaultOversizedBody, Endpoint: EndpointTokenNetwork})
	resp, err := h.srv.Client().Get(h.srv.URL + PathTokenNetwork)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil || n != DefaultOversizedBodySize || resp.ContentLength != DefaultOversizedBodySize {
		t.Errorf("read %d bytes (Content-Length %d), err %v", n, resp.ContentLength, err)
	}
}

func TestFaultConnectionReset(t *testing.T) {
	h := newHarness(t, testScenario())
	h.ex.InjectFault(Fault{Kind: FaultConnectionReset, Count: 1})
	resp, err := h.srv.Client().Do(h.signedRequest(PathTokenHistory, "", "a1"))
	if err == nil {
		resp.Body.Close()
		t.Fatalf("got status %d, want a transport error", resp.StatusCode)
	}
	wantOK(t, h.get(PathTokenHistory, "", "a1"))
	if rec := h.ex.Requests()[0]; rec.Fault != FaultConnectionReset || rec.Status != 0 {
		t.Errorf("request record %+v", rec)
	}
}

func TestFaultLatencyDelaysAndRespectsClientCancel(t *testing.T) {
	h := newHarness(t, testScenario())
	h.ex.InjectFault(Fault{Kind: FaultLatency, Delay: 200 * time.Millisecond, Count: 1})
	start := time.Now()
	wantOK(t, h.public())
	if d := time.Since(start); d < 200*time.Millisecond {
		t.Errorf("answer after %v, want at least 200ms", d)
	}

	h.ex.InjectFault(Fault{Kind: FaultLatency, Delay: time.Hour})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, h.srv.URL+PathTokenNetwork, nil)
	start = time.Now()
	if _, err := h.srv.Client().Do(req); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want deadline exceeded", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("cancel took %v", d)
	}
	h.ex.ClearFaults()
	wantOK(t, h.public())
}

// Clearing the faults answers the requests a latency fault holds at once,
// so a test can hold a poll for as long as it needs and then let it go.
func TestClearFaultsEndsLatencyUnderWay(t *testing.T) {
	h := newHarness(t, testScenario())
	h.ex.InjectFault(Fault{Kind: FaultLatency, Delay: time.Hour})
	answered := make(chan reply)
	go func() {
		req, _ := http.NewRequest(http.MethodGet, h.srv.URL+PathTokenNetwork, nil)
		resp, err := h.srv.Client().Do(req)
		if err != nil {
			answered <- reply{}
			return
		}
		resp.Body.Close()
		answered <- reply{status: resp.StatusCode}
	}()
	// A held request is recorded only once answered: give it time to
	// arrive and be held.
	select {
	case r := <-answered:
		t.Fatalf("answered (status %d) while the latency fault holds it", r.status)
	case <-time.After(200 * time.Millisecond):
	}
	h.ex.ClearFaults()
	select {
	case r := <-answered:
		if r.status != http.StatusOK {
			t.Errorf("status %d after the faults were cleared, want 200", r.status)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("still held 5s after the faults were cleared")
	}
}

func TestFaultLatencyCombinesWithAnswerFault(t *testing.T) {
	h := newHarness(t, testScenario())
	h.ex.InjectFault(Fault{Kind: FaultLatency, Delay: 50 * time.Millisecond, Count: 1})
	h.ex.InjectFault(Fault{Kind: FaultMaintenance, Count: 1})
	start := time.Now()
	wantError(t, h.public(), 400, "-1011")
	if d := time.Since(start); d < 50*time.Millisecond {
		t.Errorf("answer after %v", d)
	}
}

func TestFaultEndpointScopeAndCount(t *testing.T) {
	h := newHarness(t, testScenario(), WithRateLimit(0, 0))
	h.ex.InjectFault(Fault{Kind: FaultSuccessFalse, Endpoint: EndpointTokenHistory, Count: 2})
	wantOK(t, h.get(PathCredentials, "", "a1"))
	wantOK(t, h.public())
	wantError(t, h.get(PathTokenHistory, "", "a1"), 200, "-1000")
	wantError(t, h.get(PathTokenHistory, "", "b1"), 200, "-1000")
	wantOK(t, h.get(PathTokenHistory, "", "a1"))

	h.ex.InjectFault(Fault{Kind: FaultRateLimitStorm}) // until cleared
	for range 5 {
		wantError(t, h.public(), 429, "-1003")
	}
	h.ex.ClearFaults()
	wantOK(t, h.public())
}

func TestFaultedRequestsUseBudgetButAuthFailuresAreNotFaulted(t *testing.T) {
	h := newHarness(t, testScenario(), WithRateLimit(2, time.Minute))
	h.ex.InjectFault(Fault{Kind: FaultHTTPError, Count: 1})
	// An unauthenticated request is rejected before faults apply.
	wantError(t, h.get(PathCredentials, "", "a-trade"), 401, "-1002")
	if r := h.get(PathCredentials, "", "a1"); r.status != 502 {
		t.Fatalf("status %d, want the injected 502", r.status)
	}
	wantOK(t, h.get(PathCredentials, "", "a1"))
	wantError(t, h.get(PathCredentials, "", "a1"), 429, "-1003")
}

func TestInjectFaultPanicsOnInvalidFault(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	h := newHarness(t, testScenario())
	h.ex.InjectFault(Fault{Kind: "bogus"})
}
