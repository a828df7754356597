// Command loadtest measures the woox_exporter binary on loopback against the
// performance targets in docs/performance.md, and prints each figure beside
// its floor or target with PASS or FAIL.
//
// It hosts the fake exchange in process, serves the floor from a second
// process of its own (--serve-floor), and runs the exporter binary as a
// subprocess, three times: on the large account with
// hourly polls (start-up: every request is then part of a first poll), on
// the large account with polls every 2 s (scrape cost, memory, exchange
// requests with and without scrapers), and on a 50,000-record history
// backlog (catch-up at the rate limit); then, unless turned off, on 1 to 100
// accounts (cost growth) and on 100 accounts under a process rate cap at half
// what they need (fair turns). The exporter and the floor are
// measured in alternating rounds, the exporter stopped (SIGSTOP) while the
// floor runs, so neither the exporter's polls nor drift in the machine's
// load count against the floor.
//
// The exit status is 1 when a hard invariant fails: a 429 from the exchange,
// inexact counters, more exchange requests under scrape load, RSS at or
// above the limit, an account starved or the cap exceeded under the rate
// cap. Timing ratios depend on the machine and only fail the run
// with --strict.
package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// Targets: see docs/performance.md.
const (
	maxP99Ratio        = 0.25
	minThroughputRatio = 4.0
	maxRSSBytes        = 50_000_000 // 50 MB
	minCatchUpRatio    = 0.9
	maxReadyAfterPoll  = 2 * time.Second
)

// rounds is how many rounds the exporter and the floor each take when they
// are compared.
const rounds = 3

func main() {
	c := parseFlags(os.Args[1:])
	if c.floorFile != "" {
		if err := serveFloor(c.floorFile, c.floorAddress); err != nil {
			fmt.Fprintln(os.Stderr, "loadtest floor:", err)
			os.Exit(2)
		}
		return
	}

	r := &report{}
	if err := run(context.Background(), c, r); err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(2)
	}
	if r.failed(c.strict) {
		fmt.Println("\nRESULT: FAIL")
		os.Exit(1)
	}
	fmt.Println("\nRESULT: PASS")
}

// run measures the three runs one after another, adding each figure to r.
func run(ctx context.Context, c config, r *report) error {
	requests, limitWindow, err := fakeexchange.ParseRateLimit(c.rateLimit)
	if err != nil {
		return err
	}
	fmt.Printf("loadtest: rate limit %s, budget %.2f, %d scrapers; large account %d networks, %d keys, %d tokens x %d types\n\n",
		c.rateLimit, c.budget, c.scrapers, c.networks, c.keys, c.tokens, len(fakeexchange.HistoryTypes()))
	if c.onlyGrowth {
		return growth(ctx, c, r)
	}
	if c.onlyRateCap {
		return rateCap(ctx, c, r)
	}
	if err := startUp(ctx, c, requests, limitWindow, r); err != nil {
		return fmt.Errorf("start-up: %w", err)
	}
	if err := largeAccount(ctx, c, requests, limitWindow, r); err != nil {
		return fmt.Errorf("large account: %w", err)
	}
	if err := catchUp(ctx, c, requests, limitWindow, r); err != nil {
		return fmt.Errorf("catch-up: %w", err)
	}
	if len(c.growthAccounts)+len(c.realisticAccounts) > 0 {
		if err := growth(ctx, c, r); err != nil {
			return fmt.Errorf("cost growth: %w", err)
		}
	}
	if c.capAccounts > 0 {
		if err := rateCap(ctx, c, r); err != nil {
			return fmt.Errorf("rate cap: %w", err)
		}
	}
	return nil
}

// serve runs h on a loopback port until the returned stop is called.
func serve(h http.Handler) (url string, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() { _ = srv.Close() }, nil
}
