package e2e

import (
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/common/model"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// TestSoak runs the real binary for WOOX_SOAK_DURATION (e.g. 30s; skipped
// when unset) against a fake exchange that injects random faults (seeded by
// WOOX_SOAK_SEED, default 1) while 20 scrapers hit /metrics and a generator
// appends history. After the faults stop it checks that the scraped and the
// saved counters equal the exact sums of every record served, that no
// rate-limit window at the fake saw more requests than the budget allows,
// and that heap, RSS and goroutines came back to what they were while idle.
func TestSoak(t *testing.T) {
	duration, err := time.ParseDuration(os.Getenv("WOOX_SOAK_DURATION"))
	if err != nil || duration <= 0 {
		t.Skip("set WOOX_SOAK_DURATION (e.g. 30s) to run the soak test")
	}
	seed := uint64(1)
	if s := os.Getenv("WOOX_SOAK_SEED"); s != "" {
		if _, err := fmt.Sscan(s, &seed); err != nil {
			t.Fatalf("WOOX_SOAK_SEED: %v", err)
		}
	}
	const (
		limit  = 10
		window = time.Second
	)
	fake, err := fakeexchange.New(fakeexchange.DefaultScenario(), fakeexchange.WithRateLimit(limit, window),
		fakeexchange.WithPublicRateLimit(limit, window), fakeexchange.WithRequestLogLimit(1_000_000))
	if err != nil {
		t.Fatal(err)
	}
	url, conns := serveCountingConnections(t, fake)
	dir := t.TempDir()
	state := filepath.Join(dir, "state.json")
	p := exportertest.Start(t, defaultSecrets, append([]string{"--woox.api-url=" + url, "--config.file=" + accountsConfig(t, dir, "main", "sub"),
		"--api.rate-limit=10/1s", "--token-history.overlap=1m", "--api.timeout=300ms", "--token-history.state-file=" + state},
		exportertest.IntervalFlags(400*time.Millisecond)...)...)
	p.WaitReady(t)
	// Baseline while idle: the first polls are done, no scraper runs yet.
	base := p.Scrape(t)
	baseRSS := value(t, base, "process_resident_memory_bytes")
	baseHeap := value(t, base, "go_memstats_heap_inuse_bytes")
	baseGoroutines := slices.Min(goroutinesBesidesConnections(t, p, conns))

	stop := make(chan struct{})
	var wg sync.WaitGroup
	var scrapes, scrapeErrors atomic.Int64
	for range 20 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if code, _, err := p.Get("/metrics"); err != nil || code != 200 {
					scrapeErrors.Add(1)
				}
				scrapes.Add(1)
			}
		})
	}
	var mu sync.Mutex
	rnd := rand.New(rand.NewPCG(seed, 2))
	wg.Go(func() { // history generator
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			mu.Lock()
			account := []string{"main", "sub"}[rnd.IntN(2)]
			amount := []string{"0.000000000000000000000000000001", "-1.5", "12345.678901234567890123", "0", "-0.00000001"}[rnd.IntN(5)]
			typ := []string{"DEPOSIT", "WITHDRAW", "TRANSACTION_FEE", "LIQUIDATION"}[rnd.IntN(4)]
			mu.Unlock()
			rec := fakeexchange.HistoryRecord{ID: fake.NextHistoryID(account), Type: typ, Token: "USDT", Amount: amount, Timestamp: time.Now().UnixMilli() - 1}
			if err := fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: account,
				Records: []fakeexchange.HistoryRecord{rec}}}); err != nil {
				t.Error(err)
			}
		}
	})
	kinds := []fakeexchange.Fault{
		{Kind: fakeexchange.FaultHTTPError, Status: 503}, {Kind: fakeexchange.FaultLatency, Delay: time.Second},
		{Kind: fakeexchange.FaultConnectionReset, Count: 2}, {Kind: fakeexchange.FaultRateLimitStorm},
		{Kind: fakeexchange.FaultMaintenance}, {Kind: fakeexchange.FaultSuccessFalse},
		{Kind: fakeexchange.FaultTruncatedJSON}, {Kind: fakeexchange.FaultMalformedJSON},
		{Kind: fakeexchange.FaultOversizedBody, Size: 9 << 20}, {Kind: fakeexchange.FaultWrongContent},
	}
	endpoints := []string{"", endpoint.TokenNetwork, endpoint.Credentials, endpoint.TokenHistory}
	wg.Go(func() { // fault injector
		for {
			mu.Lock()
			f := kinds[rnd.IntN(len(kinds))]
			f.Endpoint = endpoints[rnd.IntN(len(endpoints))]
			pause := time.Duration(100+rnd.IntN(900)) * time.Millisecond
			mu.Unlock()
			fake.InjectFault(f)
			select {
			case <-stop:
				fake.ClearFaults()
				return
			case <-time.After(pause):
			}
			fake.ClearFaults()
		}
	})

	// Halfway, a look under load, for the log.
	time.Sleep(duration / 2)
	mid := p.Scrape(t)
	midGoroutines := value(t, mid, "go_goroutines") - 2*float64(conns.Load())
	time.Sleep(duration - duration/2)
	close(stop)
	wg.Wait()
	// Each scraper's keep-alive connection holds a goroutine in the exporter.
	http.DefaultTransport.(*http.Transport).CloseIdleConnections()
	gcAtStop := value(t, p.Scrape(t), "go_gc_duration_seconds_count")

	// Catch up: faults cleared, the generator stopped; wait until every
	// record is counted and saved.
	stopped := time.Now()
	var lastErr string
	for {
		samples := p.Scrape(t)
		ok := true
		for _, ep := range []string{`woox_poll_success{account="main", endpoint="token_history"}`, `woox_poll_success{account="sub", endpoint="token_history"}`} {
			if s, found := samples[ep]; !found || s.Value != 1 {
				ok = false
			}
		}
		if ok {
			scraped := scrapedMatches(fake, samples, "main") + scrapedMatches(fake, samples, "sub")
			if saved, err := readStateQuiet(state); err == nil && scraped == "" && exactMatches(fake, saved["main"], "main") == "" && exactMatches(fake, saved["sub"], "sub") == "" {
				break
			} else if err != nil {
				lastErr = err.Error()
			} else {
				lastErr = scraped + exactMatches(fake, saved["main"], "main") + exactMatches(fake, saved["sub"], "sub")
			}
		}
		if time.Since(stopped) > 30*time.Second {
			t.Fatalf("counters did not reach the exact sums within 30s: %s\n%s", lastErr, tail(p.Output(), 40))
		}
		time.Sleep(200 * time.Millisecond)
	}
	caughtUp := time.Since(stopped)

	// Garbage from the load is gone after two GC cycles (sync.Pool keeps
	// buffers through one); scraping allocates, so cycles come quickly.
	var end map[string]*model.Sample
	gcWait := time.Now()
	for {
		end = p.Scrape(t)
		if value(t, end, "go_gc_duration_seconds_count") >= gcAtStop+2 {
			break
		}
		if time.Since(gcWait) > time.Minute {
			t.Fatalf("fewer than two GC cycles within a minute of scraping after the load stopped")
		}
		time.Sleep(20 * time.Millisecond)
	}
	endRSS := value(t, end, "process_resident_memory_bytes")
	endHeap := value(t, end, "go_memstats_heap_inuse_bytes")
	endGoroutines := slices.Min(goroutinesBesidesConnections(t, p, conns))
	for _, account := range []string{"main", "sub"} {
		if diff := scrapedMatches(fake, end, account); diff != "" {
			t.Errorf("final scrape:\n%s", diff)
		}
	}
	p.Stop(t)

	allowed := 5 // 10/1s at budget 0.5
	perKey := map[string][]time.Time{}
	var faulted int
	for _, r := range fake.Requests() {
		perKey[r.Account+"/"+r.Endpoint] = append(perKey[r.Account+"/"+r.Endpoint], r.Time)
		if r.Fault != "" {
			faulted++
		}
	}
	busiest := 0
	for k, ts := range perKey {
		slices.SortFunc(ts, func(a, b time.Time) int { return a.Compare(b) })
		j := 0
		for i := range ts {
			for j < len(ts) && ts[j].Sub(ts[i]) < window {
				j++
			}
			if j-i > allowed {
				t.Errorf("%s: %d requests within %s at the fake; the budget allows %d", k, j-i, window, allowed)
				break
			}
			busiest = max(busiest, j-i)
		}
	}
	records := len(fake.ServedHistory("main")) + len(fake.ServedHistory("sub"))
	t.Logf("soak %s (seed %d): %d scrapes (%d failed), %d exchange requests (%d faulted), busiest window %d of %d allowed, %d history records, caught up in %s",
		duration, seed, scrapes.Load(), scrapeErrors.Load(), len(fake.Requests()), faulted, busiest, allowed, records, caughtUp.Round(time.Millisecond))
	const mib = 1 << 20
	t.Logf("idle → under load → end: heap in use %.1f → %.1f → %.1f MiB, RSS %.1f → %.1f → %.1f MiB, goroutines besides the connections' %v → %v → %v (fewest of 10 samples while idle and at the end) (end after %v GC cycles since the load stopped)",
		baseHeap/mib, value(t, mid, "go_memstats_heap_inuse_bytes")/mib, endHeap/mib,
		baseRSS/mib, value(t, mid, "process_resident_memory_bytes")/mib, endRSS/mib,
		baseGoroutines, midGoroutines, endGoroutines, value(t, end, "go_gc_duration_seconds_count")-gcAtStop)
	if scrapeErrors.Load() > 0 {
		t.Errorf("%d scrapes failed", scrapeErrors.Load())
	}
	if endGoroutines > baseGoroutines+10 {
		t.Errorf("goroutines besides those of the connections to the exchange grew from %v while idle to %v after the load (the fewest of 10 samples each)", baseGoroutines, endGoroutines)
	}
	if endHeap > baseHeap+16*mib {
		t.Errorf("heap in use grew from %.1f MiB while idle to %.1f MiB after the load and two GC cycles; at most 16 MiB more is allowed", baseHeap/mib, endHeap/mib)
	}
	if endRSS > 2*baseRSS+32*mib {
		t.Errorf("RSS grew from %.1f MiB while idle to %.1f MiB", baseRSS/mib, endRSS/mib)
	}
}

// goroutinesBesidesConnections samples the exporter's goroutines, less the
// two of net/http's that each connection to the exchange holds, 10 times
// over 2 s. A poll waiting for its rate limit holds two goroutines for a
// while and a connection is counted at the fake a moment before or after
// the exporter's goroutines for it start or end, so one sample says little;
// the fewest of each end are compared, as a leak is in every sample.
func goroutinesBesidesConnections(t *testing.T, p *exportertest.Process, conns *atomic.Int64) []float64 {
	var counts []float64
	for range 10 {
		counts = append(counts, value(t, p.Scrape(t), "go_goroutines")-2*float64(conns.Load()))
		time.Sleep(200 * time.Millisecond)
	}
	return counts
}

// serveCountingConnections serves h on loopback and counts the connections
// open to it.
func serveCountingConnections(t *testing.T, h http.Handler) (string, *atomic.Int64) {
	srv := httptest.NewUnstartedServer(h)
	var open atomic.Int64
	srv.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		switch state {
		case http.StateNew:
			open.Add(1)
		case http.StateClosed, http.StateHijacked:
			open.Add(-1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL, &open
}
