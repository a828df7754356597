// Command woox_exporter exports the health of WOO X accounts and assets to
// Prometheus: token network deposit and withdrawal flags and fees, the
// exchange's maintenance status, API key permissions and IP restrictions,
// token balance-change history, margin and fees, balances, deposits and
// withdrawals in flight, and sub-accounts.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/alecthomas/kingpin/v2"
	"github.com/go-kit/log/level"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	versioncollector "github.com/prometheus/client_golang/prometheus/collectors/version"
	"github.com/prometheus/common/model"
	"github.com/prometheus/common/version"
	"github.com/prometheus/exporter-toolkit/web"
	"github.com/prometheus/exporter-toolkit/web/kingpinflag"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/collector"
	"github.com/woox-exporter/woox_exporter/config"
	"github.com/woox-exporter/woox_exporter/statefile"
)

const exporterName = "woox_exporter"

// defaultListenAddress uses a port from the Prometheus default port
// allocations that no listed exporter uses.
const defaultListenAddress = ":10110"

// defaultGCPercent replaces Go's default GOGC of 100 unless GOGC is set.
// The live heap is small and garbage comes in bursts when a poll regathers
// its metric families: a heap goal of 1.5x live instead of 2x keeps the
// RSS of a large account within its target for a little more GC work per
// poll; scrapes allocate little.
const defaultGCPercent = 50

func main() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(defaultGCPercent)
	}
	fillVersion(debug.ReadBuildInfo())
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, os.Getenv))
}

// run is main without the process exit, so tests can drive it.
func run(args []string, stdout, stderr io.Writer, getenv func(string) string) int {
	app := kingpin.New(exporterName, "Prometheus exporter for WOO X accounts and assets.")
	app.UsageWriter(stdout)
	app.ErrorWriter(stderr)
	// --help and --version end the run, not the process, so tests can call run.
	exited := false
	app.Terminate(func(int) { exited = true })
	app.Version(version.Print(exporterName))
	app.HelpFlag.Short('h')

	webFlags := kingpinflag.AddFlags(app, defaultListenAddress)
	intervalFlags := map[string]*time.Duration{}
	collectorFlags := map[string]*bool{}
	for _, ep := range collector.Endpoints {
		intervalFlags[ep.Name] = app.Flag(ep.FlagName(), "How often to poll "+ep.Description+".").
			Default(shortDuration(ep.DefaultInterval)).Duration()
		state := "enabled"
		if ep.OffByDefault {
			state = "disabled"
		}
		collectorFlags[ep.Name] = app.Flag("collector."+ep.CollectorName(), "Poll "+ep.Description+" (default: "+state+").").
			Default(strconv.FormatBool(!ep.OffByDefault)).Bool()
	}
	walletLookback := namedDuration{flag: "--wallet.lookback"}
	app.Flag("wallet.lookback", "How far back each wallet poll reads deposits and withdrawals; one in flight for longer drops out of view.").
		Default("7d").SetValue(&walletLookback)
	var (
		metricsPath = app.Flag("web.telemetry-path", "Path under which to expose metrics.").Default("/metrics").String()
		logLevel    = app.Flag("log.level", "Only log messages with the given severity or above. One of: [debug, info, warn, error]").Default("info").Enum("debug", "info", "warn", "error")
		logFormat   = app.Flag("log.format", "Output format of log messages. One of: [logfmt, json]").Default("logfmt").Enum("logfmt", "json")
		apiURL      = app.Flag("woox.api-url", "Base address of the WOO X REST API.").Default(client.DefaultBaseURL).String()
		configFile  = app.Flag("config.file", "YAML file listing the accounts to watch. Without it, one account is read from WOOX_API_KEY and WOOX_API_SECRET or WOOX_API_SECRET_FILE.").Default("").String()
		configCheck = app.Flag("config.check", "Validate the configuration and flags, then exit.").Bool()

		historyOverlap      = app.Flag("token-history.overlap", "How far before the newest record already seen each token history poll starts, to catch late records.").Default("5m").Duration()
		historyLookback     = app.Flag("token-history.lookback", "How far in the past token history counting starts on a fresh start.").Default("1h").Duration()
		historyLateInterval = app.Flag("token-history.late-interval", "How often a slow sweep re-reads --token-history.late-window behind the cursor for records the exchange listed after the overlap passed them.").Default("1h").Duration()
		historyLateWindow   = app.Flag("token-history.late-window", "How far back the late sweep reads, and how long record ids are remembered.").Default("24h").Duration()
		skipMalformedAfter  = app.Flag("token-history.skip-malformed-after", "Skip a malformed token history row (counted in woox_token_history_malformed_rows_total) after it failed this many polls; 0 never skips.").Default("10").Int()
		historyStateFile    = app.Flag("token-history.state-file", "File that keeps every account's token history counters and cursor across restarts, rewritten after each poll. Empty keeps them in memory only.").Default("").String()
		showFullKey         = app.Flag("credentials.show-full-key", "Show API keys whole in the api_key label instead of masked.").Bool()
		rateLimit           = app.Flag("api.rate-limit", "The exchange's published limit for each private endpoint per account, as REQUESTS/WINDOW.").Default("10/60s").String()
		budget              = app.Flag("api.budget", "Fraction of the rate limit the exporter may use; the rest is left to the account's other users.").Default("0.5").Float64()
		requestTimeout      = app.Flag("api.timeout", "Timeout of one request to the exchange.").Default("30s").Duration()

		shardCount        = app.Flag("shard.count", "Number of replicas the accounts are split across; each account is polled by the one whose --shard.index its name hashes to.").Default("1").Int()
		shardIndex        = app.Flag("shard.index", "This replica's shard, 0 to --shard.count - 1. Shard 0 also polls and exports the public endpoints; the others read only the token network list, for their wallets' labels.").Default("0").Int()
		shardFromHostname = app.Flag("shard.from-hostname", "Take --shard.index from the number after the last - of the host name (a StatefulSet pod's ordinal).").Bool()
		shardIndexSet     bool
	)
	app.GetFlag("shard.index").IsSetByUser(&shardIndexSet)
	_, err := app.Parse(args)
	if exited {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", exporterName, err)
		return 2
	}
	logger, slogger := newLogger(stderr, *logFormat, *logLevel)

	if err := checkTelemetryPath(*metricsPath); err != nil {
		return fail(stderr, err)
	}
	if err := checkListenAddresses(*webFlags.WebListenAddresses); err != nil {
		return fail(stderr, err)
	}
	if *requestTimeout <= 0 {
		// Zero would turn the request timeout off.
		return fail(stderr, fmt.Errorf("--api.timeout %s: must be greater than 0", *requestTimeout))
	}

	shardOf, err := shardFlags(*shardCount, *shardIndex, shardIndexSet, *shardFromHostname)
	if err != nil {
		return fail(stderr, err)
	}

	limit, err := client.ParseRateLimit(*rateLimit)
	if err != nil {
		return fail(stderr, fmt.Errorf("--api.rate-limit: %w", err))
	}
	var named []namedInterval
	intervals := map[string]time.Duration{}
	enabled := map[string]bool{}
	for _, ep := range collector.Endpoints {
		// The public endpoints are polled by shard 0 alone: N replicas cost
		// the public limit no more than one.
		enabled[ep.Name] = *collectorFlags[ep.Name] && (ep.PerAccount || shardOf.index == 0)
		intervals[ep.Name] = *intervalFlags[ep.Name]
		// A shard other than 0 still reads the token networks for its wallets.
		walletReads := ep.Name == client.EndpointTokenNetwork && *collectorFlags[ep.Name] && *collectorFlags[client.EndpointWallet]
		if enabled[ep.Name] || walletReads {
			named = append(named, namedInterval{"--" + ep.FlagName(), *intervalFlags[ep.Name], ep.RequestsPerPoll()})
		}
	}
	if walletLookback.d <= 0 {
		return fail(stderr, fmt.Errorf("--wallet.lookback %s: must be greater than 0", walletLookback.d))
	}
	if err := checkIntervals(limit, *budget, named); err != nil {
		return fail(stderr, err)
	}
	if *historyOverlap < 0 || *historyLookback < 0 {
		return fail(stderr, fmt.Errorf("--token-history.overlap and --token-history.lookback must not be negative"))
	}
	if *historyLateInterval <= 0 || *historyLateWindow <= 0 {
		return fail(stderr, fmt.Errorf("--token-history.late-interval and --token-history.late-window must be positive"))
	}
	if *skipMalformedAfter < 0 {
		return fail(stderr, fmt.Errorf("--token-history.skip-malformed-after %d: must not be negative", *skipMalformedAfter))
	}
	reg := prometheus.NewRegistry()
	clientMetrics := client.NewMetrics(reg)
	// Every client signs with one clock and asks the public endpoints
	// through one client: they measure the same exchange from one host.
	var public *client.Client
	clock := client.NewClock(nil)
	newClient := func(name, key, secret string) (*client.Client, error) {
		return client.New(client.Config{
			BaseURL: *apiURL, Account: name, APIKey: key, APISecret: secret, Endpoints: collector.EndpointNames(key != "", enabled),
			RateLimit: limit, Budget: *budget, Metrics: clientMetrics, Logger: logger,
			HTTPClient: client.NewHTTPClient(*requestTimeout), Clock: clock, Public: public,
		})
	}
	// Built before --config.check's OK: the client checks the exchange URL.
	public, err = newClient("", "", "")
	if err != nil {
		return fail(stderr, fmt.Errorf("--woox.api-url: %w", err))
	}
	configured, err := config.Load(*configFile, getenv)
	if err != nil {
		return fail(stderr, err)
	}
	accounts := shardOf.accounts(configured)
	// exporter-toolkit reads the web config only once it listens: check it,
	// and the state file's directory, before polling or --config.check's OK.
	if f := *webFlags.WebConfigFile; f != "" {
		if err := checkWebConfigFile(f); err != nil {
			return fail(stderr, fmt.Errorf("--web.config.file %s: %w", f, err))
		}
		if err := web.Validate(f); err != nil {
			return fail(stderr, fmt.Errorf("--web.config.file %s: %w", f, err))
		}
	}
	if *historyStateFile != "" {
		if err := statefile.Check(*historyStateFile); err != nil {
			return fail(stderr, fmt.Errorf("--token-history.state-file: %w", err))
		}
	}
	if *configCheck {
		if shardOf.count > 1 {
			fmt.Fprintf(stdout, "configuration OK: %d of %d account(s) on shard %d of %d\n", len(accounts), len(configured), shardOf.index, shardOf.count)
		} else {
			fmt.Fprintf(stdout, "configuration OK: %d account(s)\n", len(accounts))
		}
		return 0
	}

	var store *statefile.Store
	if *historyStateFile != "" {
		if store, err = statefile.Open(*historyStateFile, time.Now()); err != nil {
			return fail(stderr, fmt.Errorf("--token-history.state-file: %w", err))
		}
		reg.MustRegister(store)
	}
	cfg := collector.Config{
		Public:         public,
		Collectors:     enabled,
		Intervals:      intervals,
		WalletLookback: time.Duration(walletLookback.d),
		// A poll waiting out the budget, 429s or back-offs is not stuck.
		StallTimeout:              client.LongestRequest(limit, *requestTimeout) + 10*time.Second,
		HistoryOverlap:            *historyOverlap,
		HistoryLookback:           *historyLookback,
		HistoryLateInterval:       *historyLateInterval,
		HistoryLateWindow:         *historyLateWindow,
		HistorySkipMalformedAfter: *skipMalformedAfter,
		ShowFullKey:               *showFullKey,
		Idle:                      shardOf.count > 1,
		// Shards other than 0 export no token networks, but their
		// wallets still split the exchange's ids by them.
		WalletNetworks: walletNetworks(public, shardOf.index, *collectorFlags[client.EndpointTokenNetwork]),
		Logger:         logger,
	}
	if store != nil {
		cfg.State = store
	}
	for _, a := range accounts {
		c, err := newClient(a.Name, a.APIKey, a.Secret.Reveal())
		if err != nil {
			return fail(stderr, err)
		}
		cfg.Accounts = append(cfg.Accounts, collector.Account{Name: a.Name, APIKey: a.APIKey, API: c})
	}
	exporter, err := collector.New(cfg)
	if err != nil {
		return fail(stderr, err)
	}
	reg.MustRegister(
		shardOf.collector(),
		versioncollector.NewCollector("woox_exporter"),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	// Listening before the first poll: an address in use stops the exporter
	// before it calls the exchange.
	listeners, err := listen(webFlags, defaultServerLimits.maxConnections)
	if err != nil {
		return fail(stderr, err)
	}

	level.Info(logger).Log("msg", "starting "+exporterName, "version", version.Info(), "build_context", version.BuildContext())
	if shardOf.count > 1 {
		level.Info(logger).Log("msg", "sharded", "shard", shardOf.index, "shards", shardOf.count, "accounts", len(accounts), "configured", len(configured),
			"public_endpoints", shardOf.index == 0)
	}
	if len(configured) == 0 {
		level.Info(logger).Log("msg", "no account configured; exporting the public token networks and system status only")
	}
	for _, a := range accounts {
		level.Info(logger).Log("msg", "watching account", "account", a.Name, "api_key", collector.MaskAPIKey(a.APIKey, false))
	}
	if c := store.Corruption(); c != nil {
		level.Warn(logger).Log("msg", "token history state file unusable: set aside, counters start from zero",
			"path", c.Path, "set_aside_as", c.SetAsideAs, "err", c.Err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	pollersDone := make(chan struct{})
	go func() {
		defer close(pollersDone)
		exporter.Run(ctx)
	}()

	err = serve(ctx, listeners, serverConfig{
		flags: webFlags, metricsPath: *metricsPath, source: exporter.Source(reg), ready: exporter.Ready,
		limits: defaultServerLimits, logger: logger, slogger: slogger,
	})
	stop()
	<-pollersDone // every account's token history state is saved by now
	if err != nil {
		level.Error(logger).Log("msg", "HTTP server failed", "err", err)
		return 1
	}
	level.Info(logger).Log("msg", "stopped")
	return 0
}

// namedInterval is a poll interval, the flag that set it and the fewest
// requests one poll sends.
type namedInterval struct {
	flag     string
	interval time.Duration
	requests int
}

// checkIntervals refuses a poll interval that would spend more than the
// budget allows, naming the flag and the smallest interval that fits.
func checkIntervals(limit client.RateLimit, budget float64, intervals []namedInterval) error {
	if budget <= 0 || budget > 1 {
		return fmt.Errorf("--api.budget %v: must be greater than 0 and at most 1", budget)
	}
	minimum, err := limit.MinInterval(budget)
	if err != nil {
		return fmt.Errorf("--api.budget %v with --api.rate-limit %s: %w", budget, limit, err)
	}
	for _, i := range intervals {
		if least := minimum * time.Duration(max(i.requests, 1)); i.interval < least {
			return fmt.Errorf("%s %s does not fit the API budget (%d of %s per account and endpoint, %d request(s) a poll): the smallest interval that fits is %s",
				i.flag, i.interval, limit.Allowed(budget), limit, max(i.requests, 1), least)
		}
	}
	return nil
}

func fail(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "%s: %v\n", exporterName, err)
	return 1
}

// shortDuration prints d as flags take it: 5m, not 5m0s.
func shortDuration(d time.Duration) string {
	s := d.String()
	for _, zero := range []string{"0s", "0m"} {
		if len(s) > len(zero) && strings.HasSuffix(s, zero) {
			s = strings.TrimSuffix(s, zero)
		}
	}
	return s
}

// namedDuration is a flag value in Prometheus' duration syntax (7d, 1w,
// 90m) whose parse error names its flag.
type namedDuration struct {
	flag string
	d    model.Duration
}

func (n *namedDuration) Set(s string) error {
	d, err := model.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("%s: %w", n.flag, err)
	}
	n.d = d
	return nil
}

func (n *namedDuration) String() string { return n.d.String() }

// walletNetworks is where the wallet reads the token network list when its
// own collector does not: on a shard other than 0, unless the token networks
// are turned off.
func walletNetworks(public *client.Client, shard int, tokenNetworksOn bool) collector.TokenNetworkAPI {
	if shard == 0 || !tokenNetworksOn {
		return nil
	}
	return public
}
