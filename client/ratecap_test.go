package client

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// A rate cap shows its rate, its queue and each account's requests and
// waits in Metrics; off, it shows a rate of 0. Its longest wait covers every
// request of one call.
func TestRateCapMetricsAndLongestWait(t *testing.T) {
	m := NewMetrics(prometheus.NewRegistry())
	for _, off := range []float64{0, -1} {
		if r := NewRateCap(off, m); r != nil {
			t.Errorf("NewRateCap(%v) = %+v, want nil (no cap)", off, r)
		}
	}
	if got := testutil.ToFloat64(m.capLimit); got != 0 {
		t.Errorf("woox_api_rate_cap_requests_per_second = %v uncapped, want 0", got)
	}
	r := NewRateCap(0.001, m) // a slot every 1000 s
	if got := testutil.ToFloat64(m.capLimit); got != 0.001 {
		t.Errorf("woox_api_rate_cap_requests_per_second = %v, want 0.001", got)
	}
	if got, want := r.LongestWait(10), time.Duration(DefaultMaxRetries+4)*10*1000*time.Second; got != want {
		t.Errorf("LongestWait(10) = %s, want %s", got, want)
	}
	if _, err := r.Wait(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := r.Wait(ctx, "b")
		done <- err
	}()
	testsupport.WaitFor(t, "b's request waiting", func() bool { return testutil.ToFloat64(m.capQueued) == 1 })
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("b's request, cancelled while waiting: %v", err)
	}
	for account, want := range map[string]float64{"a": 1, "b": 0} {
		if got := testutil.ToFloat64(m.account(account).capAdmitted); got != want {
			t.Errorf("account %s: %v requests admitted, want %v", account, got, want)
		}
		if got := testutil.ToFloat64(m.account(account).capWait); got != 0 {
			t.Errorf("account %s: waited %v s, want 0", account, got)
		}
	}
	if got := testutil.ToFloat64(m.capQueued); got != 0 {
		t.Errorf("woox_api_rate_cap_queued = %v after b gave up, want 0", got)
	}
}

// The slot OnTurn reserved is the first request's: it goes without waiting,
// and the next request of the same poll waits its own turn.
func TestReservedSlotServesOneRequest(t *testing.T) {
	m := NewMetrics(prometheus.NewRegistry())
	r := NewRateCap(0.001, m) // a slot every 1000 s
	c := &Client{cfg: Config{Account: "a", RateCap: r}}
	queued := func() float64 { return testutil.ToFloat64(m.capQueued) }
	var ran bool
	c.OnTurn(context.Background(), func(ctx context.Context) {
		ran = true
		if err := c.waitTurn(ctx); err != nil || queued() != 0 {
			t.Errorf("first request: %v, %v waiting; want it through on the reserved slot", err, queued())
		}
		wctx, cancel := context.WithCancel(ctx)
		done := make(chan error)
		go func() { done <- c.waitTurn(wctx) }()
		testsupport.WaitFor(t, "the second request waiting", func() bool { return queued() == 1 })
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("second request, cancelled while waiting: %v", err)
		}
	})
	if !ran {
		t.Fatal("OnTurn with a free slot did not run at once")
	}
}
