package client

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-kit/log"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// newStepClock is a local clock that moves only when told.
func newStepClock() *testsupport.Clock {
	return testsupport.NewClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
}

// clockServer answers token networks with status and an envelope whose
// timestamp is the step clock plus ahead, after moving the clock by trip.
func clockServer(t *testing.T, clk *testsupport.Clock, status int, success bool, ahead, trip time.Duration) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		clk.Add(trip)
		w.WriteHeader(status)
		ts := clk.Now().Add(ahead).UnixMilli()
		if success {
			fmt.Fprintf(w, `{"success":true,"data":{"rows":[]},"timestamp":%d}`, ts)
			return
		}
		fmt.Fprintf(w, `{"success":false,"code":-1000,"message":"oops","timestamp":%d}`, ts)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// Only a successful answer that came back quickly, with a time within a
// day of the local clock, sets the offset.
func TestClockTrustsOnlyQuickSuccessfulPlausibleAnswers(t *testing.T) {
	for _, tc := range []struct {
		name     string
		status   int
		success  bool
		ahead    time.Duration
		trip     time.Duration
		trusted  bool
		logged   string
		mustFail bool
	}{
		{"success", 200, true, 10 * time.Minute, 100 * time.Millisecond, true, "local clock is drifting", false},
		{"success behind", 200, true, -10 * time.Minute, 100 * time.Millisecond, true, "local clock is drifting", false},
		{"round trip at the bound", 200, true, 10 * time.Minute, maxClockRoundTrip, true, "", false},
		{"round trip too long", 200, true, 10 * time.Minute, maxClockRoundTrip + time.Millisecond, false, "round trip unfit", false},
		{"offset at the bound", 200, true, maxClockOffset - time.Second, 0, true, "", false},
		{"offset beyond a day", 200, true, 72 * time.Hour, 0, false, "exchange time is implausibly far", false},
		{"offset a day behind", 200, true, -25 * time.Hour, 0, false, "exchange time is implausibly far", false},
		{"HTTP 500", 500, false, 10 * time.Minute, 0, false, "", true},
		{"HTTP 400", 400, false, 10 * time.Minute, 0, false, "", true},
		{"success false", 200, false, 10 * time.Minute, 0, false, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clk := newStepClock()
			srv := clockServer(t, clk, tc.status, tc.success, tc.ahead, tc.trip)
			var logs bytes.Buffer
			m := NewMetrics(nil)
			c := newTestClient(t, srv.URL, func(c *Config) { c.Now = clk.Now; c.Logger = log.NewLogfmtLogger(&logs); c.Metrics = m })
			_, _, err := c.TokenNetworks(context.Background())
			if (err != nil) != tc.mustFail {
				t.Fatalf("err = %v", err)
			}
			off, ok := c.ClockOffset()
			if ok != tc.trusted {
				t.Fatalf("offset %v known %v, want known %v", off, ok, tc.trusted)
			}
			if tc.trusted {
				// The server time is taken as the midpoint of the trip.
				if want := tc.ahead + tc.trip/2; off != want {
					t.Errorf("offset %v, want %v", off, want)
				}
				if d := c.ServerNow().Sub(clk.Now().Add(tc.ahead)); d != tc.trip/2 {
					t.Errorf("ServerNow is %v off the exchange's clock", d)
				}
			} else if !c.ServerNow().Equal(clk.Now()) {
				t.Errorf("ServerNow %v moved from the local clock %v without a trusted answer", c.ServerNow(), clk.Now())
			}
			if got := testutil.ToFloat64(m.clockSkew); tc.trusted != (got != 0) {
				t.Errorf("skew gauge %v after an answer trusted %v", got, tc.trusted)
			}
			if tc.logged != "" && !strings.Contains(logs.String(), tc.logged) {
				t.Errorf("log lacks %q:\n%s", tc.logged, logs.String())
			}
		})
	}
}

// An implausible offset is reported once on arrival and then at most once
// a minute, not on every answer.
func TestImplausibleOffsetWarningIsRateLimited(t *testing.T) {
	clk := newStepClock()
	srv := clockServer(t, clk, 200, true, 72*time.Hour, 0)
	var logs bytes.Buffer
	c := newTestClient(t, srv.URL, func(c *Config) {
		c.Now = clk.Now
		c.Logger = log.NewLogfmtLogger(&logs)
		c.RateLimit = RateLimit{Requests: 1000, Window: time.Minute}
	})
	warnings := func() int { return strings.Count(logs.String(), "implausibly far") }
	for range 3 {
		if _, _, err := c.TokenNetworks(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if n := warnings(); n != 1 {
		t.Fatalf("%d warnings after three answers, want 1", n)
	}
	clk.Add(time.Minute)
	if _, _, err := c.TokenNetworks(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := warnings(); n != 2 {
		t.Fatalf("%d warnings a minute later, want 2", n)
	}
	if !strings.Contains(logs.String(), "level=warn") || !strings.Contains(logs.String(), "offset=72h0m0s") {
		t.Errorf("warning without level or offset:\n%s", logs.String())
	}
}

// Signed requests carry the exchange's time, not the local clock's.
func TestSignedTimestampIsCorrectedByTheTrustedOffset(t *testing.T) {
	clk := newStepClock()
	clock := NewClock(clk.Now)
	public := clockServer(t, clk, 200, true, 10*time.Minute, 0)
	pc := newTestClient(t, public.URL, func(c *Config) { c.Now = clk.Now; c.Clock = clock; c.APIKey, c.APISecret = "", "" })
	if _, _, err := pc.TokenNetworks(context.Background()); err != nil {
		t.Fatal(err)
	}
	srv, requests := queryServer(t)
	ac := newTestClient(t, srv.URL, func(c *Config) { c.Now = clk.Now; c.Clock = clock })
	if _, _, err := ac.Credentials(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprint(clk.Now().Add(10 * time.Minute).UnixMilli())
	if got := requests()[0].Header.Get("x-api-timestamp"); got != want {
		t.Errorf("x-api-timestamp %s, want the exchange's time %s", got, want)
	}
}
