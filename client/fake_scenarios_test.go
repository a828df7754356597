package client_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// fastRetries lets a client retry at once and often, against a fake that
// limits nothing a test does not ask it to.
func fastRetries(c *client.Config) {
	c.RateLimit = client.RateLimit{Requests: 1000, Window: time.Minute}
	c.MaxRetries = 3
	c.Sleep = func(ctx context.Context, d time.Duration) error {
		select {
		case <-time.After(min(d, 5*time.Millisecond)):
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// requestLog is the fake's requests from the index from on, as
// "endpoint status".
func requestLog(f *fakeexchange.Exchange, from int) []string {
	var out []string
	for _, r := range f.Requests()[from:] {
		out = append(out, fmt.Sprintf("%s %d", r.Endpoint, r.Status))
	}
	return out
}

func TestMalformedRowIsReportedAndTheGoodRowsArrive(t *testing.T) {
	eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
		s.MalformedIDs = []int64{2}
		h := newHarness(t, s)
		base := time.Now().Add(-time.Hour).UnixMilli()
		if err := h.fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main",
			Records: records(1, 3, base)}}); err != nil {
			t.Fatal(err)
		}
		recs, bad, err := h.client(t, nil).TokenHistory(context.Background(), client.HistoryQuery{})
		if err != nil {
			t.Fatalf("one bad row failed the poll: %v", err)
		}
		if len(recs) != 2 || recs[0].ID != 3 || recs[1].ID != 1 || recs[1].Timestamp != rowTime(s, base) {
			t.Errorf("records = %+v, want ids 3 and 1", recs)
		}
		if len(bad) != 1 || bad[0].ID != "2" || bad[0].Key != "id:2" || bad[0].Timestamp != rowTime(s, base+1) ||
			!strings.HasPrefix(bad[0].Err, `amount: invalid decimal "1.2.3"`) {
			t.Errorf("malformed = %+v, want the row with id 2 and its bad amount", bad)
		}
	})
}

// Error answers may carry a timestamp that is not the server's time (here
// 72 hours ahead, in milliseconds or microseconds): it never moves the
// clock, whatever the error.
func TestBogusTimestampOfErrorAnswersDoesNotMoveTheClock(t *testing.T) {
	for _, unit := range []string{fakeexchange.ErrorTimestampMillis, fakeexchange.ErrorTimestampMicros} {
		t.Run(unit, func(t *testing.T) {
			eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
				clk := newTestClock()
				s.ErrorTimestamp = &fakeexchange.ErrorTimestamp{Offset: 72 * time.Hour, Unit: unit}
				h := newHarness(t, s, fakeexchange.WithClock(clk.Now), fakeexchange.WithRateLimit(1000, time.Minute))
				for _, tc := range []struct {
					name  string
					fault fakeexchange.Fault
					mod   func(*client.Config)
				}{
					{"HTTP 500", fakeexchange.Fault{Kind: fakeexchange.FaultHTTPError, Status: 500, Count: 1}, nil},
					{"success false", fakeexchange.Fault{Kind: fakeexchange.FaultSuccessFalse, Count: 1}, nil},
					{"maintenance", fakeexchange.Fault{Kind: fakeexchange.FaultMaintenance, Count: 1}, nil},
					{"429", fakeexchange.Fault{Kind: fakeexchange.FaultRateLimitStorm, Count: 1}, nil},
					{"wrong secret", fakeexchange.Fault{}, func(c *client.Config) { c.APISecret = "wrong" }},
				} {
					if tc.fault.Kind != "" {
						h.fake.InjectFault(tc.fault)
					}
					c := h.client(t, func(c *client.Config) {
						c.Now, c.MaxRetries = clk.Now, -1
						c.RateLimit = client.RateLimit{Requests: 1000, Window: 10 * time.Millisecond}
						if tc.mod != nil {
							tc.mod(c)
						}
					})
					if _, _, err := c.Credentials(context.Background()); err == nil {
						t.Fatalf("%s: no error", tc.name)
					}
					// A system info answer asked on the way may have set
					// the true offset, 0; nothing else may.
					if off, ok := c.ClockOffset(); off != 0 || !c.ServerNow().Equal(clk.Now()) {
						t.Errorf("%s: offset %v (known %v), ServerNow %v off the exchange's clock", tc.name, off, ok, c.ServerNow().Sub(clk.Now()))
					}
					h.fake.ClearFaults()
				}
				if got := gaugeValue(t, h.reg, "woox_api_clock_skew_seconds"); got != 0 {
					t.Errorf("skew gauge %v", got)
				}
				if strings.Contains(h.logbuf.String(), "implausibly") || strings.Contains(h.logbuf.String(), "drifting") {
					t.Errorf("a bogus error timestamp reached the clock:\n%s", h.logbuf.String())
				}
				var bogus int
				for _, r := range h.fake.Requests() {
					if r.Status >= 400 || r.Code != 0 {
						bogus++
					}
				}
				if bogus < 5 {
					t.Fatalf("only %d error answers: the faults did not hit", bogus)
				}
			})
		})
	}
}

// An exchange clock 10 minutes off the local one: once any client sharing
// the Clock has a successful answer, signed requests carry the exchange's
// time; and a client that shares no clock learns it from the system info
// after its first rejected request, and that request still succeeds.
func TestExchangeClockTenMinutesOffStillPolls(t *testing.T) {
	for _, off := range []time.Duration{10 * time.Minute, -10 * time.Minute} {
		t.Run(off.String(), func(t *testing.T) {
			eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
				s.ServerTimeOffset = off
				h := newHarness(t, s, fakeexchange.WithRateLimit(1000, time.Minute))
				base := time.Now().Add(off - time.Hour).UnixMilli()
				if err := h.fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main",
					Records: records(1, 3, base)}}); err != nil {
					t.Fatal(err)
				}
				shared := client.NewClock(nil)
				public := h.client(t, func(c *client.Config) { c.Account, c.APIKey, c.APISecret, c.Clock = "", "", "", shared })
				account := h.client(t, func(c *client.Config) { c.Clock = shared; fastRetries(c) })
				if _, _, err := public.TokenNetworks(context.Background()); err != nil {
					t.Fatal(err)
				}
				from := len(h.fake.Requests())
				if _, _, err := account.Credentials(context.Background()); err != nil {
					t.Fatal(err)
				}
				// A query window ending at the exchange's now holds the records.
				recs, _, err := account.TokenHistory(context.Background(), client.HistoryQuery{StartTime: base, EndTime: account.ServerNow().UnixMilli()})
				if err != nil || len(recs) != 3 {
					t.Fatalf("history: %d records, %v", len(recs), err)
				}
				want := "credentials 200, token_history 200"
				if got := strings.Join(requestLog(h.fake, from), ", "); got != want {
					t.Errorf("requests %s, want %s: signed with the shared offset from the first", got, want)
				}

				alone := h.client(t, fastRetries)
				from = len(h.fake.Requests())
				if _, _, err := alone.Credentials(context.Background()); err != nil {
					t.Fatalf("first signed call of a client with its own clock: %v", err)
				}
				want = "credentials 401, system_info 200, credentials 200"
				if got := strings.Join(requestLog(h.fake, from), ", "); got != want {
					t.Errorf("requests %s, want %s", got, want)
				}
				if got, ok := alone.ClockOffset(); !ok || (got-off).Abs() > time.Second {
					t.Errorf("offset %v (known %v), want %v", got, ok, off)
				}
			})
		})
	}
}

// -1011 while the system status says all is normal is a passing error:
// retried with back-off, and the call succeeds once it clears.
func TestMinus1011WithNormalSystemStatusIsRetried(t *testing.T) {
	eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
		h := newHarness(t, s, fakeexchange.WithRateLimit(1000, time.Minute))
		h.fake.InjectFault(fakeexchange.Fault{Kind: fakeexchange.FaultMaintenance, Endpoint: endpoint.Credentials, Count: 2})
		if _, _, err := h.client(t, fastRetries).Credentials(context.Background()); err != nil {
			t.Fatalf("not retried through two -1011s: %v", err)
		}
		// The status is asked once for the call, not once per -1011.
		want := "credentials 400, system_info 200, credentials 400, credentials 200"
		if got := strings.Join(requestLog(h.fake, 0), ", "); got != want {
			t.Errorf("requests %s, want %s", got, want)
		}
	})
}

// -1011 while the system status says maintenance is maintenance: not
// retried, and the next call after it ends succeeds.
func TestMinus1011DuringMaintenanceIsNotRetried(t *testing.T) {
	for _, status := range []int{client.SystemTradingMaintenance, client.SystemMaintenance} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
				s.SystemStatus = &fakeexchange.SystemStatus{Status: status, Msg: "upgrade", EstimatedEndTime: time.Now().Add(time.Hour).UnixMilli()}
				h := newHarness(t, s, fakeexchange.WithRateLimit(1000, time.Minute))
				h.fake.InjectFault(fakeexchange.Fault{Kind: fakeexchange.FaultMaintenance, Endpoint: endpoint.Credentials})
				c := h.client(t, fastRetries)
				_, _, err := c.Credentials(context.Background())
				if !client.IsMaintenance(err) {
					t.Fatalf("err = %v, want maintenance", err)
				}
				if got, want := strings.Join(requestLog(h.fake, 0), ", "), "credentials 400, system_info 200"; got != want {
					t.Errorf("requests %s, want %s", got, want)
				}
				h.fake.ClearFaults()
				if err := h.fake.Apply(fakeexchange.Event{SystemStatus: &fakeexchange.Change[fakeexchange.SystemStatus]{Row: fakeexchange.SystemStatus{Msg: "System is functioning properly."}}}); err != nil {
					t.Error(err)
				}
				if _, _, err := c.Credentials(context.Background()); err != nil {
					t.Errorf("after maintenance: %v", err)
				}
			})
		})
	}
}

func TestSystemInfoFromTheFake(t *testing.T) {
	eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
		s.SystemStatus = &fakeexchange.SystemStatus{Status: 1, Msg: "trading maintenance", EstimatedEndTime: 1749963600362}
		h := newHarness(t, s)
		public := h.client(t, func(c *client.Config) { c.Account, c.APIKey, c.APISecret = "", "", "" })
		info, err := public.SystemInfo(context.Background())
		want := client.SystemInfo{Status: 1, Message: "trading maintenance", EstimatedEndTime: 1749963600362}
		if err != nil || info != want {
			t.Errorf("got %+v, %v; want %+v", info, err, want)
		}
	})
}

// An exchange that serves 500 rows a page when 1000 are asked, says 1000
// in meta, and understates the total by 1,200 loses no record.
func TestCappedPagesWithUnderstatedTotalYieldEveryRecord(t *testing.T) {
	eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
		s.PageCap, s.UnderstateTotal = 500, 1200
		h := newHarness(t, s, fakeexchange.WithRateLimit(1000, time.Minute))
		if err := h.fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main",
			Records: records(1, 2500, time.Now().Add(-time.Hour).UnixMilli())}}); err != nil {
			t.Fatal(err)
		}
		recs, _, err := h.client(t, fastRetries).TokenHistory(context.Background(), client.HistoryQuery{PageSize: 1000})
		if err != nil {
			t.Fatal(err)
		}
		ids := map[int64]bool{}
		for _, r := range recs {
			ids[r.ID] = true
		}
		if len(ids) != 2500 {
			t.Errorf("%d distinct records, want 2500", len(ids))
		}
		// Five pages of 500 and the empty page that ends the list.
		if n := len(requestLog(h.fake, 0)); n != 6 {
			t.Errorf("%d requests, want 6", n)
		}
	})
}

// An exchange that answers a page beyond the last with the last again
// ends paging after one repeat. The last page is full, so nothing but the
// repeat tells it is the last; credentials' two keys end on their page.
func TestClampedPagesEndPaging(t *testing.T) {
	eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
		s.ClampPages = true
		h := newHarness(t, s, fakeexchange.WithRateLimit(1000, time.Minute))
		if err := h.fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main",
			Records: records(1, 200, time.Now().Add(-time.Hour).UnixMilli())}}); err != nil {
			t.Fatal(err)
		}
		c := h.client(t, fastRetries)
		recs, _, err := c.TokenHistory(context.Background(), client.HistoryQuery{PageSize: 100})
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != 300 {
			t.Errorf("%d records, want 200 and the 100 of the repeated last page", len(recs))
		}
		creds, _, err := c.Credentials(context.Background())
		if err != nil || len(creds) != 2 {
			t.Fatalf("%d keys, %v; want the 2 keys once each", len(creds), err)
		}
		want := "token_history 200, token_history 200, token_history 200, credentials 200"
		if got := strings.Join(requestLog(h.fake, 0), ", "); got != want {
			t.Errorf("requests %s, want %s", got, want)
		}
	})
}

// gaugeValue is the value of the unlabelled gauge name in reg, 0 when absent.
func gaugeValue(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() == name && len(mf.GetMetric()) == 1 {
			return mf.GetMetric()[0].GetGauge().GetValue()
		}
	}
	return 0
}
