package main

import (
	"time"

	"github.com/alecthomas/kingpin/v2"
)

// config is the command line: what to measure and how long.
type config struct {
	exporter    string
	latencyDur  time.Duration
	loadDur     time.Duration
	pollEvery   time.Duration
	scrapers    int
	networks    int
	keys        int
	tokens      int
	backlog     int
	rateLimit   string
	budget      float64
	catchUpWait time.Duration
	strict      bool
	// growthAccounts are the sizes of the cost-growth run; none skips it.
	growthAccounts []int
	// realisticAccounts are the sizes of the cost-growth run on accounts
	// of realistic size; none skips it.
	realisticAccounts []int
	growthIdle        time.Duration
	growthAgeWindow   time.Duration
	chart             string
	onlyGrowth        bool
	// profileDir, when set, receives CPU and allocation profiles of each
	// growth run's idle window.
	profileDir string
	// exporterEnv are KEY=VALUE pairs added to the growth runs' exporter
	// environment (GOGC, GOMEMLIMIT), not to the load test's own.
	exporterEnv []string
	// capAccounts realistic accounts run under a cap of capShare of what
	// they need, for capWindow; none skips it.
	capAccounts int
	capShare    float64
	capWindow   time.Duration
	onlyRateCap bool
	// floorFile and floorAddress make this process the floor server.
	floorFile    string
	floorAddress string
}

// parseFlags reads the command line, or exits with kingpin's error.
func parseFlags(args []string) config {
	var c config
	app := kingpin.New("loadtest", "Load test of the woox_exporter binary against the fake exchange.")
	app.Flag("exporter", "Path of the woox_exporter binary.").Default("./woox_exporter").StringVar(&c.exporter)
	app.Flag("latency-duration", "How long one scraper scrapes the exporter, and then the floor, for p50/p99, in 3 alternating rounds.").Default("10s").DurationVar(&c.latencyDur)
	app.Flag("load-duration", "How long the concurrent scrapers run against each server, in 3 alternating rounds; also the idle and the loaded window for exchange requests; keep it a multiple of --poll-interval so both windows hold as many polls.").Default("16s").DurationVar(&c.loadDur)
	app.Flag("poll-interval", "Interval of every poller of the exporter on the large account (scrape cost, exchange cost); 1h leaves the pollers idle after their first polls.").Default("2s").DurationVar(&c.pollEvery)
	app.Flag("scrapers", "Concurrent scrapers for throughput.").Default("20").IntVar(&c.scrapers)
	app.Flag("networks", "Token network rows of the large account.").Default("1000").IntVar(&c.networks)
	app.Flag("keys", "API keys of the large account.").Default("100").IntVar(&c.keys)
	app.Flag("tokens", "Tokens of the large account's history (x 27 transaction types).").Default("100").IntVar(&c.tokens)
	app.Flag("backlog", "History records waiting when the exporter starts, for the catch-up run.").Default("50000").IntVar(&c.backlog)
	app.Flag("rate-limit", "Published limit of each private endpoint, REQUESTS/WINDOW, on the fake and the exporter.").Default("10/2s").StringVar(&c.rateLimit)
	app.Flag("budget", "The exporter's --api.budget.").Default("0.5").Float64Var(&c.budget)
	app.Flag("catch-up-timeout", "Give up on the catch-up after this long.").Default("3m").DurationVar(&c.catchUpWait)
	app.Flag("strict", "Also fail on missed timing targets.").BoolVar(&c.strict)
	app.Flag("growth-accounts", "Account counts of the cost-growth run (each 10 keys, 240 token x type pairs, default intervals, the published limit); repeatable; none skips it.").Default("1", "10", "100").IntsVar(&c.growthAccounts)
	app.Flag("growth-realistic-accounts", "Account counts of the cost-growth run on accounts of realistic size (each 20 balances, 300 history records over 10 tokens x 8 types, 6 keys, 3 positions, 4 transfers); repeatable; 0 skips it.").Default("100").IntsVar(&c.realisticAccounts)
	app.Flag("growth-idle", "How long the cost-growth run watches the pollers' CPU with nobody scraping.").Default("60s").DurationVar(&c.growthIdle)
	app.Flag("growth-age-window", "How long the cost-growth run scrapes once a second, as Prometheus would, to read the age of the data, before any floor round stops the exporter.").Default("40s").DurationVar(&c.growthAgeWindow)
	app.Flag("chart", "Write the cost-growth chart (PNG) here.").Default("").StringVar(&c.chart)
	app.Flag("profile-dir", "Write a CPU and an allocation profile of each cost-growth run's idle window here (profiling costs a little CPU).").Default("").StringVar(&c.profileDir)
	app.Flag("exporter-env", "KEY=VALUE added to the environment of the cost-growth runs' exporter only, such as GOGC=50; repeatable.").StringsVar(&c.exporterEnv)
	app.Flag("only-growth", "Run the cost-growth measurement alone.").BoolVar(&c.onlyGrowth)
	app.Flag("rate-cap-accounts", "Realistic accounts of the rate cap run, at the default intervals under --api.max-requests-per-second set to --rate-cap-share of what they need; 0 skips it.").Default("100").IntVar(&c.capAccounts)
	app.Flag("rate-cap-share", "The rate cap run's --api.max-requests-per-second, as a share of what its accounts need at the default intervals.").Default("0.5").Float64Var(&c.capShare)
	app.Flag("rate-cap-window", "How long the rate cap run counts each account's requests, once every first poll is through and a quarter of it more.").Default("60s").DurationVar(&c.capWindow)
	app.Flag("only-rate-cap", "Run the rate cap measurement alone.").BoolVar(&c.onlyRateCap)
	app.Flag("serve-floor", "Internal: serve the metric families in this file (delimited protobuf) as the floor, until interrupted.").Hidden().StringVar(&c.floorFile)
	app.Flag("floor-address", "Internal: where --serve-floor listens.").Hidden().StringVar(&c.floorAddress)
	kingpin.MustParse(app.Parse(args))
	return c
}
