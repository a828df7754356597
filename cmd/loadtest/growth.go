package main

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/largeaccount"
)

// Every growth run polls each endpoint at its default interval and budget,
// against each endpoint's published limit at the fake.
const (
	growthBudget        = client.DefaultBudget
	maxRSSAt100Accounts = 150_000_000 // 150 MB
	// maxRSSAtMore is issue 37's target at 1,000 realistic accounts
	// (about 550 bytes per series), held from 300 accounts on.
	maxRSSAtMore = 300_000_000 // 300 MB
	// maxCPUPerRequest is issue 47's target: a request's decoding,
	// signing and bookkeeping, garbage collection included.
	maxCPUPerRequest = 500 * time.Microsecond
)

// accountShape is what each account of a growth run holds.
type accountShape struct {
	name string
	keys int
	// historyRecords cycle through historyTypes, then historyTokens
	// tokens (TOK0000, ...); nil historyTypes is every type.
	historyRecords, historyTokens int
	historyTypes                  []string
	balances, positions           int
	transfers                     int
}

// largeShape is the first growth runs' account: 10 keys, a history of 240
// token x type pairs (9 tokens x 27 types), 9 balances, 2 transfers.
var largeShape = accountShape{name: "large", keys: 10, historyRecords: 240, historyTokens: 9, balances: 9, transfers: 2}

// realisticShape is an account of realistic size: 20 balance tokens, 300
// history records over 10 tokens and 8 types, 6 keys, 3 positions and 4
// transfers.
var realisticShape = accountShape{name: "realistic", keys: 6, historyRecords: 300, historyTokens: 10,
	historyTypes: []string{"DEPOSIT", "WITHDRAW", "SPOT_TRANSACTION", "TRANSACTION_FEE", "FUNDING_FEE", "REALIZED_PNL", "SUB_ACCOUNT_TRANSFER", "INTEREST"},
	balances:     20, positions: 3, transfers: 4}

// growthRow is one size's figures.
type growthRow struct {
	shape                        string
	accounts, series             int
	p50, p99, floorP50, floorP99 time.Duration
	scrapesPerSec, floorPerSec   float64
	peakRSS                      int64
	cpuPerMinute                 float64 // seconds of CPU per minute, pollers only
	requestsPerAccountMinute     float64
	// idleFrom and idleTo are the idle window, nobody scraping, and
	// idleRequestsPerAccountMinute the requests of an account a minute in
	// it: the pace of polling once the first polls are done, not slowed by
	// the start or by the floor rounds, when the exporter is stopped.
	idleFrom, idleTo             time.Time
	idleRequestsPerAccountMinute float64
	// idleRequests is every request of the process in the idle window,
	// public ones too, and idleCost what each cost the exporter.
	idleRequests int
	idleCost     requestCost
	idleCPU      time.Duration
	runtimeIdle  [2]runtimeSample
	// requestsPerMinute is every request the process sent, public ones
	// too: what the exchange sees from its IP.
	requestsPerMinute float64
	// busiestSecond is the most requests of the process within one second.
	busiestSecond int
	// busiest is, per private endpoint, the most requests of one account
	// within one limit window of the endpoint's published limit, beside what
	// the budget allows in it.
	busiest        map[string]windowUse
	readyAfterPoll time.Duration
	// longestSettle is the longest the exporter was left to settle after
	// a floor round (exporter.settle).
	longestSettle time.Duration
	// firstScrape is the first scrape in Prometheus' format, which encodes
	// every part.
	firstScrape time.Duration
	// quietPoll is, per paged endpoint, the requests a poll after each
	// account's first sent (the first when the run held no later one), and
	// quietFirst tells that it is the first's.
	quietPoll  map[string]float64
	quietFirst map[string]bool
	// agesTo is when the age window ended: the floor
	// rounds start after it.
	agesTo time.Time
	// ages is, per endpoint polled by default, the age of its data at the
	// exporter's scrapes.
	ages map[string]dataAge
}

// growth measures how the exporter's cost grows with its accounts.
func growth(ctx context.Context, c config, r *report) error {
	var rows, large []growthRow
	for _, run := range []struct {
		shape  accountShape
		counts []int
	}{{largeShape, c.growthAccounts}, {realisticShape, c.realisticAccounts}} {
		for _, n := range run.counts {
			if n <= 0 {
				continue
			}
			row, err := growthRun(ctx, c, run.shape, n, r)
			if err != nil {
				return fmt.Errorf("%d %s accounts: %w", n, run.shape.name, err)
			}
			rows = append(rows, row)
			if run.shape.name == largeShape.name {
				large = append(large, row)
			}
		}
	}
	fmt.Println("\ncost growth:")
	fmt.Println("| accounts | account size | series | scrape p50 (floor) | scrape p99 (floor) | scrapes/s, 20 scrapers (floor) | peak RSS | RSS per series | CPU s/min polling | requests/min idle | CPU a request (GC share) | allocations (bytes) a request | GCs/min | requests per account per minute, run (idle) | requests per minute, whole process | fullest limit window per account and endpoint (allowed) | positions data age p99 (limit) |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, g := range rows {
		fmt.Printf("| %d | %s | %d | %s (%s) | %s (%s) | %.0f (%.0f) | %.1f MB | %.0f B | %.2f | %.0f | %s (%.0f %%) | %.0f (%.0f) | %.1f | %.1f (%.1f) | %.0f | %s | %s |\n",
			g.accounts, g.shape, g.series, format(g.p50), format(g.floorP50), format(g.p99), format(g.floorP99), g.scrapesPerSec, g.floorPerSec,
			mb(g.peakRSS), float64(g.peakRSS)/float64(g.series), g.cpuPerMinute, float64(g.idleRequests)/g.idleTo.Sub(g.idleFrom).Minutes(),
			format(g.idleCost.cpu), 100*g.idleCost.gcShare, g.idleCost.allocs, g.idleCost.bytes, g.idleCost.gcsPerMinute,
			g.requestsPerAccountMinute, g.idleRequestsPerAccountMinute, g.requestsPerMinute, fullest(g.busiest), positionsAge(g.ages))
	}
	printAges(rows)
	if c.chart != "" {
		if err := writeGrowthChart(c.chart, large); err != nil {
			return fmt.Errorf("chart: %w", err)
		}
		fmt.Printf("chart: %s\n", c.chart)
	}
	return nil
}

// growthFake holds n accounts of the given shape, named acct-000 ..., each
// with shape.keys keys (the first READ-only, the one the exporter uses).
func growthFake(c config, shape accountShape, n int) (*fakeexchange.Exchange, []string, error) {
	s := largeaccount.Scenario(c.networks, 0)
	s.RateLimit, s.PublicRateLimit = "", ""
	s.Accounts = nil
	now := time.Now()
	var env []string
	for i := range n {
		a := fakeexchange.Account{Name: fmt.Sprintf("acct-%03d", i), AccountName: fmt.Sprintf("Desk %d", i), UserID: int64(20000 + i)}
		for k := range shape.keys {
			perms := []string{"READ", "TRADE"}
			if k == 0 {
				perms = []string{"READ"}
			}
			a.Keys = append(a.Keys, fakeexchange.Key{APIKey: fmt.Sprintf("growth-%03d-%02d==", i, k), APISecret: fmt.Sprintf("GROWTHSECRET%03d%013d", i, k), Permissions: perms})
		}
		for t := range shape.balances {
			a.Balances = append(a.Balances, fakeexchange.Balance{Token: fmt.Sprintf("TOK%04d", t), Holding: fmt.Sprintf("%d.5", i+t),
				AvailableBalance: fmt.Sprintf("%d.5", i+t), Frozen: "0", Staked: "0", MarkPrice: "1.25"})
		}
		a.Transfers = growthTransfers(i, shape.transfers)
		a.Positions = growthPositions(shape.positions)
		s.Accounts = append(s.Accounts, a)
		env = append(env, fmt.Sprintf("GROWTH_SECRET_%03d=%s", i, a.Keys[0].APISecret))
	}
	fake, err := fakeexchange.New(s, fakeexchange.WithRequestLogLimit(1_000_000))
	if err != nil {
		return nil, nil, err
	}
	for i := range n {
		recs := growthHistory(shape, int64(1+i*shape.historyRecords), now.Add(-50*time.Minute), now.Add(-time.Minute))
		if err := fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: fmt.Sprintf("acct-%03d", i), Records: recs}}); err != nil {
			return nil, nil, err
		}
	}
	return fake, env, nil
}

// growthTransfers are n transfers of account i, every other one in flight.
func growthTransfers(i, n int) []fakeexchange.Transfer {
	var ts []fakeexchange.Transfer
	for j := range n {
		side, status := "WITHDRAW", "PROCESSING"
		if j%2 == 1 {
			side, status = "DEPOSIT", "COMPLETED"
		}
		ts = append(ts, fakeexchange.Transfer{ID: fmt.Sprintf("g%03d-%d", i, j+1), Token: fmt.Sprintf("TOK%04d", j), Side: side,
			Amount: strconv.Itoa(j + 1), Status: status, CreatedAgo: time.Duration(j+1) * time.Hour})
	}
	return ts
}

// growthPositions are n positions like the captured one, on n symbols.
func growthPositions(n int) []fakeexchange.Position {
	symbols := []string{"PERP_LTC_USDT", "PERP_BTC_USDT", "PERP_ETH_USDT", "PERP_SOL_USDT", "PERP_WOO_USDT"}
	var ps []fakeexchange.Position
	for j := range n {
		p := fakeexchange.CapturedPosition()
		p.Symbol = symbols[j%len(symbols)]
		if j >= len(symbols) {
			p.Symbol += strconv.Itoa(j)
		}
		ps = append(ps, p)
	}
	return ps
}

// growthHistory is an account's history of the given shape, ids from firstID
// (every type when shape.historyTypes is nil), as largeaccount.History spreads it.
func growthHistory(shape accountShape, firstID int64, from, to time.Time) []fakeexchange.HistoryRecord {
	recs := largeaccount.History(shape.historyTokens, shape.historyRecords, firstID, from, to)
	if types := shape.historyTypes; types != nil {
		for i := range recs {
			recs[i].Type = types[i%len(types)]
			recs[i].Token = fmt.Sprintf("TOK%04d", (i/len(types))%shape.historyTokens)
		}
	}
	return recs
}

func growthRun(ctx context.Context, c config, shape accountShape, n int, r *report) (growthRow, error) {
	row := growthRow{shape: shape.name, accounts: n}
	fake, env, err := growthFake(c, shape, n)
	if err != nil {
		return row, err
	}
	answers := &answerLog{h: fake}
	fakeURL, stopFake, err := serve(answers)
	if err != nil {
		return row, err
	}
	defer stopFake()
	dir, err := os.MkdirTemp("", "loadtest-growth-")
	if err != nil {
		return row, err
	}
	defer os.RemoveAll(dir)
	cfgPath, err := writeGrowthAccounts(dir, n)
	if err != nil {
		return row, err
	}
	started := time.Now()
	// Profiling serves the runtime's counters the costs a request are
	// read from; profiles are taken only with --profile-dir.
	p, err := exportertest.StartBinary(ctx, c.exporter, slices.Concat(os.Environ(), env, c.exporterEnv),
		"--woox.api-url="+fakeURL, "--config.file="+cfgPath, "--log.level=warn", "--web.enable-profiling")
	if err != nil {
		return row, err
	}
	ex := &exporter{Process: p}
	defer ex.stop()
	readyAt, err := ex.Ready(60 * time.Second)
	if err != nil {
		return row, err
	}
	if k, last := answers.last(); k > 0 {
		row.readyAfterPoll = max(readyAt.Sub(last), 0)
	}

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4 * c.scrapers, DisableCompression: true}, Timeout: 60 * time.Second}
	mfs, err := gatherProto(client, ex.URL()+"/metrics")
	if err != nil {
		return row, err
	}
	for _, mf := range mfs {
		row.series += len(mf.GetMetric())
	}
	floorURL, stopFloor, err := startFloor(mfs)
	if err != nil {
		return row, err
	}
	defer stopFloor()

	if err := measureIdle(ctx, c, ex, client, n, &row); err != nil {
		return row, err
	}

	if err := measureGrowthScrapes(c, ex, client, floorURL, readyAt, &row); err != nil {
		return row, err
	}
	_, row.peakRSS = ex.memory()

	tooMany, err := growthBudgetUse(fake, n, started, &row)
	if err != nil {
		return row, err
	}
	row.idleCost = costPerRequest(row.idleCPU, row.runtimeIdle[0], row.runtimeIdle[1], row.idleRequests, row.idleTo.Sub(row.idleFrom))

	reportGrowth(r, row, tooMany, readyAt.Sub(started))
	return row, ex.checkLog()
}

// writeGrowthAccounts writes the configuration of n accounts into dir and
// returns its path.
func writeGrowthAccounts(dir string, n int) (string, error) {
	var cfg strings.Builder
	cfg.WriteString("accounts:\n")
	for i := range n {
		fmt.Fprintf(&cfg, "  - {name: acct-%03d, api_key: %q, api_secret_env: GROWTH_SECRET_%03d}\n", i, fmt.Sprintf("growth-%03d-00==", i), i)
	}
	cfgPath := filepath.Join(dir, "accounts.yml")
	return cfgPath, os.WriteFile(cfgPath, []byte(cfg.String()), 0o600)
}

// measureIdle measures the pollers' CPU, allocations and collections with
// nobody scraping, taking profiles of them with --profile-dir.
func measureIdle(ctx context.Context, c config, ex *exporter, client *http.Client, n int, row *growthRow) error {
	var err error
	if row.runtimeIdle[0], err = readRuntime(client, ex.URL()); err != nil {
		return err
	}
	cpu0, err := ex.cpuTime()
	if err != nil {
		return err
	}
	row.idleFrom = time.Now()
	waitProfiles := func() error { return nil }
	if c.profileDir != "" {
		waitProfiles = profiles(ctx, ex.URL(), c.profileDir, fmt.Sprintf("growth-%d-%s", n, row.shape), c.growthIdle)
	}
	time.Sleep(c.growthIdle)
	cpu1, err := ex.cpuTime()
	if err != nil {
		return err
	}
	row.idleTo = time.Now()
	if row.runtimeIdle[1], err = readRuntime(client, ex.URL()); err != nil {
		return err
	}
	row.idleCPU = cpu1 - cpu0
	row.cpuPerMinute = row.idleCPU.Seconds() / row.idleTo.Sub(row.idleFrom).Minutes()
	ex.idleCPU = row.cpuPerMinute / 60
	return waitProfiles()
}

// measureGrowthScrapes measures the age of the data in a scrape every
// second (measureAges), then scrape latency and throughput of the exporter
// and of the floor in alternating rounds.
func measureGrowthScrapes(c config, ex *exporter, client *http.Client, floorURL string, readyAt time.Time, row *growthRow) error {
	// The first scrape in Prometheus' format encodes every part; it is
	// reported on its own, and the rounds measure the scrapes after it.
	t := time.Now()
	if _, err := scrape(client, ex.URL()+"/metrics"); err != nil {
		return err
	}
	row.firstScrape = time.Since(t)
	if err := measureAges(c, ex, client, readyAt, row); err != nil {
		return err
	}
	var exLat, flLat []time.Duration
	if err := ex.alternate(rounds, func() error {
		lat, _, err := sequential(client, ex.URL()+"/metrics", c.latencyDur/rounds)
		exLat = append(exLat, lat...)
		return err
	}, func() error {
		lat, _, err := sequential(client, floorURL+"/metrics", c.latencyDur/rounds)
		flLat = append(flLat, lat...)
		return err
	}); err != nil {
		return err
	}
	row.p50, row.p99, row.floorP50, row.floorP99 = quantile(exLat, 0.5), quantile(exLat, 0.99), quantile(flLat, 0.5), quantile(flLat, 0.99)
	var exScrapes, flScrapes int64
	var exTime, flTime time.Duration
	if err := ex.alternate(rounds, func() error {
		k, d, err := concurrent(client, ex.URL()+"/metrics", c.scrapers, c.loadDur/rounds)
		exScrapes, exTime = exScrapes+k, exTime+d
		return err
	}, func() error {
		k, d, err := concurrent(client, floorURL+"/metrics", c.scrapers, c.loadDur/rounds)
		flScrapes, flTime = flScrapes+k, flTime+d
		return err
	}); err != nil {
		return err
	}
	row.scrapesPerSec, row.floorPerSec = float64(exScrapes)/exTime.Seconds(), float64(flScrapes)/flTime.Seconds()
	row.longestSettle = ex.longestSettle
	return nil
}

// reportGrowth adds one size's checks to the report.
func reportGrowth(r *report, row growthRow, tooMany int, startToReady time.Duration) {
	label := fmt.Sprintf("%d %s account(s)", row.accounts, row.shape)
	hard := row.accounts >= 100
	r.ratio("growth, "+label+": scrape p99 (exporter vs floor)", row.p99, row.floorP99, maxP99Ratio, true, false)
	r.add("growth, "+label+": longest settle after a floor round", row.longestSettle.Round(time.Millisecond), maxSettle, "", true, false,
		"(left to run the polls that fell due while it was stopped)")
	r.add("growth, "+label+": first scrape in Prometheus' format (every part encoded)", row.firstScrape, "-", "", true, false,
		fmt.Sprintf("(floor p50 %s)", format(row.floorP50)))
	for _, ep := range slices.Sorted(maps.Keys(row.busiest)) {
		u := row.busiest[ep]
		r.add(fmt.Sprintf("growth, %s: busiest %s limit window per account, %s (limit %s)", label, u.limit.Window, ep, u.limit), u.busiest, u.allowed, "requests",
			u.busiest <= u.allowed && tooMany == 0, true, fmt.Sprintf("(%d 429s in the run)", tooMany))
	}
	r.add("growth, "+label+": CPU a request to the exchange, nobody scraping", row.idleCost.cpu.Round(time.Microsecond), maxCPUPerRequest, "", row.idleCost.cpu <= maxCPUPerRequest, false,
		fmt.Sprintf("(%.2f CPU s/min over %d requests, %.0f %% of it garbage collection; %.0f allocations and %.0f bytes a request; %.1f collections a minute)",
			row.cpuPerMinute, row.idleRequests, 100*row.idleCost.gcShare, row.idleCost.allocs, row.idleCost.bytes, row.idleCost.gcsPerMinute))
	r.add("growth, "+label+": requests per minute", fmt.Sprintf("%.1f", row.requestsPerMinute), "-", "",
		true, false, fmt.Sprintf("(whole process, public included; %.1f per account; %.1f per account while idle)",
			row.requestsPerAccountMinute, row.idleRequestsPerAccountMinute))
	// The cap's slots put at most N + 1 in any second; the fake reads a
	// request's time when its handler runs, a few ms late on a busy
	// machine, which moves a second's count by about 1 % at 600 a second.
	capAtFake := client.DefaultMaxRequestsPerSecond + 1 + client.DefaultMaxRequestsPerSecond/100
	r.add("growth, "+label+": busiest second, whole process", row.busiestSecond, client.DefaultMaxRequestsPerSecond, "requests",
		row.busiestSecond <= capAtFake, false, fmt.Sprintf("(vs the default --api.max-requests-per-second, at most %d as the fake times them; the first polls come at once)", capAtFake))
	for _, ep := range slices.Sorted(maps.Keys(row.quietPoll)) {
		note, allowed := "(polls while nobody scraped, or after each account's first)", 1.0
		if row.quietFirst[ep] {
			note = "(each account's first poll, the only one in the run; its list fits one page)"
			// A fresh client reads on past a first page of DefaultPageSize rows or more.
			if ep == endpoint.TokenHistory && firstPageRows(row.shape) >= client.DefaultPageSize {
				note, allowed = "(each account's first poll, the only one in the run: its history's one page, and the empty page after it that a fresh client reads to know the list ended)", 2
			}
		}
		r.add("growth, "+label+": requests per quiet poll, "+ep, fmt.Sprintf("%.2f", row.quietPoll[ep]), fmt.Sprintf("%.2f", allowed), "",
			row.quietPoll[ep] <= allowed, true, note)
	}
	reportAges(r, label, row.ages)
	r.add("growth, "+label+": /-/ready after the last first-poll answer", row.readyAfterPoll, maxReadyAfterPoll, "",
		row.readyAfterPoll <= maxReadyAfterPoll, hard, fmt.Sprintf("(start to ready %s)", startToReady.Round(time.Millisecond)))
	if hard {
		limit := int64(maxRSSAt100Accounts)
		if row.accounts > 100 {
			limit = maxRSSAtMore
		}
		r.add("growth, "+label+": peak RSS (VmHWM)", mb(row.peakRSS), mb(limit), "MB", row.peakRSS <= limit, true,
			fmt.Sprintf("(%d series, %.0f bytes per series)", row.series, float64(row.peakRSS)/float64(row.series)))
	}
}

// firstPageRows is how many rows the first token history page of an
// account of the shape named holds.
func firstPageRows(shape string) int {
	for _, sh := range []accountShape{largeShape, realisticShape} {
		if sh.name == shape {
			return min(sh.historyRecords, client.MaxPageSize)
		}
	}
	return 0
}
