package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/go-kit/log"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	versioncollector "github.com/prometheus/client_golang/prometheus/collectors/version"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/collector"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/largeaccount"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// smallBuffers shrinks the send buffer of every accepted connection, so that
// a client that stops reading blocks the server's write within a few KB
// instead of after megabytes of kernel buffering.
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(4096)
	}
	return c, err
}

// TestPollCompletesAndShowsWhileAMetricsClientStallsMidResponse serves
// /metrics through the handler chain Serve serves (newMux: the exposition
// handler over the exporter's source), stalls a real HTTP client
// in the middle of its response, and checks that meanwhile a token history
// poll against the fake exchange completes and a second scrape shows it. It
// fails if a poll waits on a scrape that is still being sent.
func TestPollCompletesAndShowsWhileAMetricsClientStallsMidResponse(t *testing.T) {
	// The large account makes the text answer about a megabyte, far more
	// than the shrunken socket buffers hold.
	fake, err := fakeexchange.New(largeaccount.Scenario(1000, 100))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if err := fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main",
		Records: largeaccount.History(10, 270, 1, now.Add(-30*time.Minute), now.Add(-20*time.Minute))}}); err != nil {
		t.Fatal(err)
	}
	fakeSrv := httptest.NewServer(fake)
	t.Cleanup(fakeSrv.Close)
	fakeURL := fakeSrv.URL

	reg := prometheus.NewRegistry()
	metrics := client.NewProcessMetrics(reg)
	limit := client.RateLimit{Requests: 1000, Window: time.Second}
	public, err := client.New(client.Config{BaseURL: fakeURL, RateLimit: limit, Budget: 1, Metrics: metrics})
	if err != nil {
		t.Fatal(err)
	}
	account, err := client.New(client.Config{BaseURL: fakeURL, Account: "main", RateLimit: limit, Budget: 1, Metrics: metrics,
		APIKey: largeaccount.MainKey, APISecret: largeaccount.MainSecret})
	if err != nil {
		t.Fatal(err)
	}
	exporter, err := collector.New(collector.Config{
		Public:   public,
		Accounts: []collector.Account{{Name: "main", APIKey: largeaccount.MainKey, API: account}},
		Intervals: map[string]time.Duration{endpoint.TokenNetwork: time.Hour, endpoint.Credentials: time.Hour,
			endpoint.TokenHistory: 50 * time.Millisecond},
		StallTimeout: time.Minute,
		Logger:       log.NewNopLogger(),
	})
	if err != nil {
		t.Fatal(err)
	}
	reg.MustRegister(
		versioncollector.NewCollector("woox_exporter"),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	mux, err := newMux(Config{MetricsPath: "/metrics", Source: exporter.Source(reg), Ready: exporter.Ready,
		Logger: log.NewNopLogger()})
	if err != nil {
		t.Fatal(err)
	}
	// The slow scrape is told apart by a header, to see whether its handler
	// is still sending.
	slowDone := make(chan struct{})
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Slow") != "" {
			defer close(slowDone)
		}
		mux.ServeHTTP(w, r)
	}))
	srv.Listener = smallBuffers{srv.Listener}
	srv.Start()
	t.Cleanup(srv.Close)

	ctx, cancel := context.WithCancel(context.Background())
	runDone := make(chan struct{})
	go func() {
		defer close(runDone)
		exporter.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-runDone
	})
	testsupport.WaitFor(t, "the first poll of every endpoint", func() bool { return exporter.Ready() })

	// A scrape that reads the start of its answer, then stops reading.
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	_ = conn.(*net.TCPConn).SetReadBuffer(4096)
	if _, err := fmt.Fprintf(conn, "GET /metrics HTTP/1.1\r\nHost: exporter\r\nX-Slow: 1\r\nAccept: text/plain;version=0.0.4\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(bufio.NewReader(conn), make([]byte, 1024)); err != nil {
		t.Fatal(err)
	}
	stalledAt := time.Now()

	if err := fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main",
		Records: []fakeexchange.HistoryRecord{{ID: fake.NextHistoryID("main"), Type: "DEPOSIT",
			Token: "STALLED", Amount: "1.5", Timestamp: time.Now().Add(-time.Minute).UnixMilli()}}}}); err != nil {
		t.Fatal(err)
	}
	fast := &http.Client{Timeout: 5 * time.Second}
	var lastErr error
	testsupport.WaitFor(t, "a token history poll that started after the stall to complete and show the new record", func() bool {
		samples, err := exportertest.Samples(fast, srv.URL+"/metrics")
		if lastErr = err; err != nil {
			return false
		}
		records := samples[`woox_token_history_records_total{account="main", token="STALLED", transaction_type="DEPOSIT"}`]
		success := samples[`woox_poll_last_success_timestamp_seconds{account="main", endpoint="token_history"}`]
		return records != nil && records.Value == 1 && success != nil && float64(success.Value) > float64(stalledAt.UnixNano())/1e9
	})
	if lastErr != nil {
		t.Fatalf("second scrape: %v", lastErr)
	}
	select {
	case <-slowDone:
		t.Fatal("the stalled scrape finished sending: its answer fit in the socket buffers, so nothing was stalled")
	default:
	}
}
