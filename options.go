package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/alecthomas/kingpin/v2"
	"github.com/prometheus/common/model"
	"github.com/prometheus/common/version"
	"github.com/prometheus/exporter-toolkit/web"
	"github.com/prometheus/exporter-toolkit/web/kingpinflag"
	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/collector"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/server"
	"github.com/woox-exporter/woox_exporter/shard"
)

const exporterName = "woox_exporter"

// options are the command line's settings, as kube-state-metrics keeps them
// in pkg/options: AddFlags declares the flags, Validate checks them and
// resolves what follows from several of them together.
type options struct {
	web *web.FlagConfig
	// pollEvery, collectors and rateLimits are each endpoint's
	// --*.interval, --collector.* and (private endpoints) --*.rate-limit
	// flags, by endpoint name.
	pollEvery      map[string]*time.Duration
	collectors     map[string]*bool
	rateLimits     map[string]*rateLimitFlag
	walletLookback namedDuration
	// walletLookbackEvery and allowListFile are --wallet.lookback-interval
	// and --wallet.withdrawal-allowlist.
	walletLookbackEvery time.Duration
	allowListFile       string

	metricsPath string
	logLevel    string
	logFormat   string
	apiURL      string
	plainHTTP   bool
	configFile  string
	configCheck bool
	lifecycle   bool
	profiling   bool

	historyOverlap      time.Duration
	historyLookback     time.Duration
	historyLateInterval time.Duration
	historyLateWindow   time.Duration
	skipMalformedAfter  int
	historyStateFile    string
	showFullKey         bool
	rateLimit           string
	budget              float64
	maxPerSecond        float64
	requestTimeout      time.Duration
	seriesPerEndpoint   int
	maxAmountText       string
	maxAmount           decimal.Decimal

	shardCount        int
	shardIndex        int
	shardFromHostname bool
	shardIndexSet     bool

	// Set by Validate.
	shard     shard.Replica
	enabled   map[string]bool
	intervals map[string]time.Duration
	// limits are the private endpoints' limits per account, after
	// --api.rate-limit; accountIntervals the polls of account endpoints
	// that must fit them, checked once an account is configured.
	limits           map[string]client.RateLimit
	accountIntervals []namedInterval
	// publicIntervals are the polls of the public endpoints this replica
	// makes, which their per-IP limits must fit.
	publicIntervals []namedInterval
}

// newApp is the command line without its flags. --help and --version end
// the run, not the process, so tests can call run: *exited tells.
func newApp(stdout, stderr io.Writer) (app *kingpin.Application, exited *bool) {
	app = kingpin.New(exporterName, "Prometheus exporter for WOO X accounts and assets.")
	app.UsageWriter(stdout)
	app.ErrorWriter(stderr)
	exited = new(bool)
	app.Terminate(func(int) { *exited = true })
	app.Version(version.Print(exporterName))
	app.HelpFlag.Short('h')
	return app, exited
}

// AddFlags declares every flag of the exporter on app.
func (o *options) AddFlags(app *kingpin.Application) {
	o.web = kingpinflag.AddFlags(app, server.DefaultListenAddress)
	o.addEndpointFlags(app)
	o.walletLookback = namedDuration{flag: "--wallet.lookback"}
	app.Flag("wallet.lookback", "How far back a wallet poll of the whole lookback (every --wallet.lookback-interval) reads deposits and withdrawals; one in flight for longer drops out of view.").
		Default("7d").SetValue(&o.walletLookback)
	app.Flag("wallet.lookback-interval", "How often a wallet poll reads the whole --wallet.lookback instead of the rows created since the newest seen: "+
		"how often the transfers in flight are refreshed.").Default("5m").DurationVar(&o.walletLookbackEvery)
	app.Flag("wallet.withdrawal-allowlist", "YAML file listing the addresses withdrawals may go to (network, address, optional tag and name); "+
		"each withdrawal is then counted as allowlisted or unlisted instead of known or new.").PlaceHolder("FILE").StringVar(&o.allowListFile)
	app.Flag("web.telemetry-path", "Path under which to expose metrics.").Default("/metrics").StringVar(&o.metricsPath)
	app.Flag("log.level", "Only log messages with the given severity or above. One of: [debug, info, warn, error]").Default("info").EnumVar(&o.logLevel, "debug", "info", "warn", "error")
	app.Flag("log.format", "Output format of log messages. One of: [logfmt, json]").Default("logfmt").EnumVar(&o.logFormat, "logfmt", "json")
	app.Flag("woox.api-url", "Base address of the WOO X REST API.").Default(client.DefaultBaseURL).StringVar(&o.apiURL)
	app.Flag("woox.allow-plain-http", "Allow an http:// --woox.api-url to a host other than loopback (127.0.0.0/8, ::1, localhost), which sends the API key and signatures unencrypted.").BoolVar(&o.plainHTTP)
	app.Flag("config.file", "YAML file listing the accounts to watch. Without it, one account is read from WOOX_API_KEY and WOOX_API_SECRET or WOOX_API_SECRET_FILE.").Default("").StringVar(&o.configFile)
	app.Flag("config.check", "Validate the configuration and flags, then exit.").BoolVar(&o.configCheck)
	app.Flag("web.enable-lifecycle", "Reload the configuration on POST or PUT /-/reload, as on SIGHUP (as Prometheus' flag does).").BoolVar(&o.lifecycle)
	app.Flag("web.enable-profiling", "Serve Go's profiles (CPU, heap, allocations, goroutines) under /debug/pprof/ and the runtime's own counters under /debug/runtime-metrics, for measuring the exporter; off, as profiles cost CPU while taken and show the command line.").BoolVar(&o.profiling)
	o.addHistoryFlags(app)
	app.Flag("credentials.show-full-key", "Show API keys whole in the api_key label instead of masked.").BoolVar(&o.showFullKey)
	app.Flag("api.rate-limit", "When set, the limit of every private endpoint per account, as REQUESTS/WINDOW, in place of each --ENDPOINT.rate-limit.").PlaceHolder("REQUESTS/WINDOW").StringVar(&o.rateLimit)
	app.Flag("api.budget", "Fraction of each endpoint's rate limit the exporter may use; the rest is left to the account's other users.").Default("0.5").Float64Var(&o.budget)
	app.Flag("api.timeout", "Timeout of one request to the exchange.").Default("30s").DurationVar(&o.requestTimeout)
	app.Flag("api.max-requests-per-second", "Most requests a second the whole exporter sends to the exchange, over every account and the public endpoints: "+
		"the exchange sees them all from one IP address. Requests beyond wait their turn, one account at a time. 0 turns the cap off.").
		Default(strconv.Itoa(client.DefaultMaxRequestsPerSecond)).Float64Var(&o.maxPerSecond)
	app.Flag("limits.series-per-endpoint", "Most distinct label sets (rows) each endpoint exports per account; the exchange's rows beyond it are dropped, "+
		"token history records beyond it counted under token=\"__other__\", both counted in woox_exporter_series_capped_total.").
		Default(strconv.Itoa(collector.DefaultSeriesPerEndpoint)).IntVar(&o.seriesPerEndpoint)
	app.Flag("limits.max-amount", "Largest magnitude of a decimal read from the exchange (amount, balance, price); a row with a larger one is unreadable. "+
		"float64 keeps about 15 significant digits: a counter past 1e15 no longer shows a 0.1 deposit.").
		Default(client.DefaultMaxAmount.String()).StringVar(&o.maxAmountText)
	o.addShardFlags(app)
}

// addEndpointFlags declares each endpoint's poll interval and switch, and
// each private endpoint's rate limit.
func (o *options) addEndpointFlags(app *kingpin.Application) {
	o.pollEvery = map[string]*time.Duration{}
	o.collectors = map[string]*bool{}
	o.rateLimits = map[string]*rateLimitFlag{}
	for _, ep := range endpoint.All {
		o.pollEvery[ep.Name] = app.Flag(ep.FlagName(), "How often to poll "+ep.Description+".").
			Default(ep.DefaultIntervalFlag()).Duration()
		if ep.PerAccount {
			f := &rateLimitFlag{flag: "--" + ep.RateLimitFlagName()}
			o.rateLimits[ep.Name] = f
			app.Flag(ep.RateLimitFlagName(), "The exchange's limit, per account, of the requests that read "+ep.Description+", as REQUESTS/WINDOW; the default is the published one.").
				Default(client.RateLimit(ep.Limit).String()).SetValue(f)
		}
		state := "enabled"
		if ep.OffByDefault {
			state = "disabled"
		}
		o.collectors[ep.Name] = app.Flag("collector."+ep.CollectorName(), "Poll "+ep.Description+" (default: "+state+").").
			Default(strconv.FormatBool(!ep.OffByDefault)).Bool()
	}
}

func (o *options) addHistoryFlags(app *kingpin.Application) {
	app.Flag("token-history.overlap", "How far before the newest record already seen each token history poll starts, to catch late records.").Default("5m").DurationVar(&o.historyOverlap)
	app.Flag("token-history.lookback", "How far in the past token history counting starts on a fresh start.").Default("1h").DurationVar(&o.historyLookback)
	app.Flag("token-history.late-interval", "How often a slow sweep re-reads --token-history.late-window behind the cursor for records the exchange listed after the overlap passed them.").Default("1h").DurationVar(&o.historyLateInterval)
	app.Flag("token-history.late-window", "How far back the late sweep reads, and how long record ids are remembered.").Default("24h").DurationVar(&o.historyLateWindow)
	app.Flag("token-history.skip-malformed-after", "Skip a malformed token history row (counted in woox_token_history_malformed_rows_total) after it failed this many polls; 0 never skips.").Default("10").IntVar(&o.skipMalformedAfter)
	app.Flag("token-history.state-file", "File that keeps every account's token history counters and cursor across restarts, rewritten after each poll. Empty keeps them in memory only.").Default("").StringVar(&o.historyStateFile)
}

func (o *options) addShardFlags(app *kingpin.Application) {
	app.Flag("shard.count", "Number of replicas the accounts are split across; each account is polled by the one whose --shard.index its name hashes to.").Default("1").IntVar(&o.shardCount)
	app.Flag("shard.index", "This replica's shard, 0 to --shard.count - 1. Shard 0 also polls and exports the public endpoints; the others read only the token network list, for their wallets' labels.").Default("0").IntVar(&o.shardIndex)
	app.Flag("shard.from-hostname", "Take --shard.index from the number after the last - of the host name (a StatefulSet pod's ordinal).").BoolVar(&o.shardFromHostname)
	app.GetFlag("shard.index").IsSetByUser(&o.shardIndexSet)
}

// Validate checks the flags that need no file or client, in the order the
// exporter always checked them, and returns the first error, which names
// its flag. It resolves the shard, the rate limit and which endpoints this
// replica polls how often.
func (o *options) Validate() error {
	if err := server.CheckTelemetryPath(o.metricsPath); err != nil {
		return err
	}
	if err := server.CheckListenAddresses(*o.web.WebListenAddresses); err != nil {
		return err
	}
	if err := o.checkPlainHTTP(); err != nil {
		return err
	}
	if o.requestTimeout <= 0 {
		// Zero would turn the request timeout off.
		return fmt.Errorf("--api.timeout %s: must be greater than 0", o.requestTimeout)
	}
	if !(o.maxPerSecond >= 0) || math.IsInf(o.maxPerSecond, 0) {
		return fmt.Errorf("--api.max-requests-per-second %v: must be a number of requests, or 0 for no cap", o.maxPerSecond)
	}
	if o.seriesPerEndpoint <= 0 {
		return fmt.Errorf("--limits.series-per-endpoint %d: must be greater than 0", o.seriesPerEndpoint)
	}
	if err := o.validateMaxAmount(); err != nil {
		return err
	}
	var err error
	if o.shard, err = shard.Resolve(o.shardCount, o.shardIndex, o.shardIndexSet, o.shardFromHostname, os.Hostname); err != nil {
		return err
	}
	if err := o.resolveLimits(); err != nil {
		return err
	}
	o.resolveEndpoints()
	if err := o.validateWallet(); err != nil {
		return err
	}
	if o.budget <= 0 || o.budget > 1 {
		return fmt.Errorf("--api.budget %v: must be greater than 0 and at most 1", o.budget)
	}
	if err := checkIntervals(o.budget, o.publicIntervals); err != nil {
		return err
	}
	return o.validateHistory()
}

// checkPlainHTTP refuses an http:// --woox.api-url to a host other than
// loopback unless --woox.allow-plain-http allows it.
func (o *options) checkPlainHTTP() error {
	if o.plainHTTP {
		return nil
	}
	if err := client.CheckPlainHTTP(o.apiURL); err != nil {
		return fmt.Errorf("--woox.api-url %w; use https://, or pass --woox.allow-plain-http if the network path is otherwise protected (loopback addresses need neither)", err)
	}
	return nil
}

// resolveLimits sets the limit of each private endpoint: --api.rate-limit
// when given, else the endpoint's own flag.
func (o *options) resolveLimits() error {
	o.limits = map[string]client.RateLimit{}
	var all client.RateLimit
	if o.rateLimit != "" {
		var err error
		if all, err = client.ParseRateLimit(o.rateLimit); err != nil {
			return fmt.Errorf("--api.rate-limit: %w", err)
		}
	}
	for name, f := range o.rateLimits {
		o.limits[name] = f.limit
		if o.rateLimit != "" {
			o.limits[name] = all
		}
	}
	return nil
}

// limitFlag names the flag that set the limit of a private endpoint.
func (o *options) limitFlag(ep endpoint.Endpoint) string {
	if o.rateLimit != "" {
		return "--api.rate-limit"
	}
	return "--" + ep.RateLimitFlagName()
}

// checkAccountIntervals holds the account endpoints' intervals to their
// limits; it matters only once an account is configured.
func (o *options) checkAccountIntervals() error {
	return checkIntervals(o.budget, o.accountIntervals)
}

// longestLimit is the limit with the longest limit window of any endpoint this
// replica may call: a poll waiting out a 429 waits that long.
func (o *options) longestLimit() client.RateLimit {
	longest := client.DefaultRateLimit
	for _, l := range o.limits {
		if l.Window > longest.Window {
			longest = l
		}
	}
	for _, ep := range endpoint.All {
		if !ep.PerAccount && ep.Limit.Window > longest.Window {
			longest = client.RateLimit(ep.Limit)
		}
	}
	return longest
}

// resolveEndpoints sets which endpoints this replica polls and how often,
// and the intervals each endpoint's limit must fit: per account, or per IP
// for the public ones.
func (o *options) resolveEndpoints() {
	o.intervals = map[string]time.Duration{}
	o.enabled = map[string]bool{}
	o.accountIntervals, o.publicIntervals = nil, nil
	for _, ep := range endpoint.All {
		// The public endpoints are polled by shard 0 alone: N replicas cost
		// the public limit no more than one.
		o.enabled[ep.Name] = *o.collectors[ep.Name] && (ep.PerAccount || o.shard.Index == 0)
		o.intervals[ep.Name] = *o.pollEvery[ep.Name]
		// A shard other than 0 still reads the token networks for its wallets.
		walletReads := ep.Name == endpoint.TokenNetwork && *o.collectors[ep.Name] && *o.collectors[endpoint.Wallet]
		if !o.enabled[ep.Name] && !walletReads {
			continue
		}
		i := namedInterval{flag: "--" + ep.FlagName(), interval: *o.pollEvery[ep.Name]}
		if ep.PerAccount {
			i.limit, i.limitFlag, i.scope = o.limits[ep.Name], o.limitFlag(ep), ep.Scope()
			o.accountIntervals = append(o.accountIntervals, i)
			continue
		}
		i.limit, i.limitFlag, i.scope = client.RateLimit(ep.Limit), "the published limit", ep.Scope()
		o.publicIntervals = append(o.publicIntervals, i)
	}
}

// validateWallet checks the wallet's lookback and interval, and that an
// allow-list has a wallet to judge and the token networks that name a
// withdrawal's network.
func (o *options) validateWallet() error {
	switch {
	case o.walletLookback.d <= 0:
		return fmt.Errorf("--wallet.lookback %s: must be greater than 0", o.walletLookback.d)
	case o.walletLookbackEvery <= 0:
		return fmt.Errorf("--wallet.lookback-interval %s: must be greater than 0", o.walletLookbackEvery)
	case o.allowListFile != "" && !*o.collectors[endpoint.Wallet]:
		return fmt.Errorf("--wallet.withdrawal-allowlist needs the wallet collector (--collector.wallet)")
	case o.allowListFile != "" && !*o.collectors[endpoint.TokenNetwork]:
		return fmt.Errorf("--wallet.withdrawal-allowlist needs the token network list, which names each withdrawal's network (--collector.token-network)")
	}
	return nil
}

// validateMaxAmount reads --limits.max-amount: positive, and within what a
// float64 holds.
func (o *options) validateMaxAmount() error {
	d, err := decimal.NewFromString(o.maxAmountText)
	if err != nil || d.Sign() <= 0 || math.IsInf(d.InexactFloat64(), 0) {
		return fmt.Errorf("--limits.max-amount %q: want a positive number within float64", o.maxAmountText)
	}
	o.maxAmount = d
	return nil
}

func (o *options) validateHistory() error {
	if o.historyOverlap < 0 || o.historyLookback < 0 {
		return fmt.Errorf("--token-history.overlap and --token-history.lookback must not be negative")
	}
	if o.historyLateInterval <= 0 || o.historyLateWindow <= 0 {
		return fmt.Errorf("--token-history.late-interval and --token-history.late-window must be positive")
	}
	if o.skipMalformedAfter < 0 {
		return fmt.Errorf("--token-history.skip-malformed-after %d: must not be negative", o.skipMalformedAfter)
	}
	return nil
}

// namedInterval is an endpoint's poll interval, the flag that set it, and
// the limit its polls must fit: its value, the flag that set it and whom it
// is shared by. A quiet poll sends one request, of a paged endpoint too: a
// poll that needs more pages waits its turn in the budget limiter.
type namedInterval struct {
	flag             string
	interval         time.Duration
	limit            client.RateLimit
	limitFlag, scope string
}

// checkIntervals refuses a poll interval that would spend more than the
// budget allows of its endpoint's limit, naming the flags and the smallest
// interval that fits.
func checkIntervals(budget float64, intervals []namedInterval) error {
	for _, i := range intervals {
		minimum, err := i.limit.MinInterval(budget)
		if err != nil {
			return fmt.Errorf("--api.budget %v with %s %s (%s): %w", budget, i.limitFlag, i.limit, i.flag, err)
		}
		// Rounded up to a millisecond, so that the interval named fits.
		least := (minimum + time.Millisecond - 1).Truncate(time.Millisecond)
		if i.interval < least {
			return fmt.Errorf("%s %s does not fit the API budget (%d of %s %s and endpoint, from %s and --api.budget; 1 request(s) a poll): the smallest interval that fits is %s",
				i.flag, i.interval, i.limit.Allowed(budget), i.limit, i.scope, i.limitFlag, least)
		}
	}
	return nil
}

// rateLimitFlag is a flag value REQUESTS/WINDOW whose parse error names its
// flag.
type rateLimitFlag struct {
	flag  string
	limit client.RateLimit
}

func (f *rateLimitFlag) Set(s string) error {
	l, err := client.ParseRateLimit(s)
	if err != nil {
		return fmt.Errorf("%s: %w", f.flag, err)
	}
	f.limit = l
	return nil
}

func (f *rateLimitFlag) String() string { return f.limit.String() }

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

// nameFlag names the flag whose value did not parse: kingpin's own errors
// for a value ("strconv.ParseFloat: parsing \"half\"") do not. It parses
// each flag of args alone until one fails.
func nameFlag(args []string, err error) error {
	if strings.HasPrefix(err.Error(), "--") {
		return err
	}
	app, _ := newApp(io.Discard, io.Discard)
	(&options{}).AddFlags(app)
	pc, perr := app.ParseContext(args)
	if perr != nil {
		return err
	}
	for _, el := range pc.Elements {
		f, ok := el.Clause.(*kingpin.FlagClause)
		if !ok || el.Value == nil {
			continue
		}
		name := "--" + f.Model().Name
		probe, _ := newApp(io.Discard, io.Discard)
		(&options{}).AddFlags(probe)
		if _, ferr := probe.Parse([]string{name + "=" + *el.Value}); ferr != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return err
}
