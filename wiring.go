package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/alecthomas/kingpin/v2"
	"github.com/go-kit/log"
	"github.com/go-kit/log/level"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	versioncollector "github.com/prometheus/client_golang/prometheus/collectors/version"
	"github.com/prometheus/common/version"

	"github.com/woox-exporter/woox_exporter/allowlist"
	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/collector"
	"github.com/woox-exporter/woox_exporter/config"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/server"
	"github.com/woox-exporter/woox_exporter/shard"
	"github.com/woox-exporter/woox_exporter/statefile"
)

// wiring builds the exporter from validated options: the clients, the
// accounts of this replica's shard, the collectors and the registry.
type wiring struct {
	o             *options
	logger        log.Logger
	reg           *prometheus.Registry
	clientMetrics *client.Metrics
	// Every client signs with one clock, asks the public endpoints through
	// one client, waits under one rate cap and shares one HTTP client's
	// connections: the exchange sees one host at one IP address.
	clock   *client.Clock
	public  *client.Client
	rateCap *client.RateCap
	http    *http.Client
	// configured are all the accounts of the configuration, accounts the
	// ones of this shard.
	configured []config.Account
	accounts   []config.Account
	// unread are the names of WOOX_ variables set but not read: most likely
	// a mistyped name, whose account is then not watched.
	unread []string
	// lock holds the state file for as long as the exporter runs.
	lock *statefile.Lock

	// What a reload needs: the environment and the command line (to tell
	// @file flags that changed), the clients, the state file, the count.
	env     []string
	app     *kingpin.Application
	args    []string
	clients map[string]*client.Client
	store   *statefile.Store
	watched prometheus.Gauge
	// allowList is --wallet.withdrawal-allowlist's, nil without one.
	allowList *allowlist.List
}

// prepare builds the public client, loads the accounts and checks the files
// read only later, all before --config.check's OK.
func prepare(o *options, env []string, logger log.Logger) (*wiring, error) {
	w := &wiring{o: o, logger: logger, reg: prometheus.NewRegistry(), clock: client.NewClock(nil), env: env, http: client.NewHTTPClient(o.requestTimeout)}
	w.clientMetrics = client.NewProcessMetrics(w.reg)
	w.rateCap = client.NewRateCap(o.maxPerSecond, w.clientMetrics)
	client.SetMaxAmount(o.maxAmount)
	// Built before --config.check's OK: the client checks the exchange URL.
	var err error
	if w.public, err = w.newClient("", "", ""); err != nil {
		return nil, fmt.Errorf("--woox.api-url: %w", err)
	}
	if w.configured, err = config.Load(o.configFile, config.LookupIn(env)); err != nil {
		if o.configFile == "" {
			err = withUnread(err, config.UnreadVariables(env, config.ReadVariables(nil)))
		}
		return nil, err
	}
	w.unread = config.UnreadVariables(env, config.ReadVariables(w.configured))
	if o.allowListFile != "" {
		if w.allowList, err = config.LoadAllowList(o.allowListFile); err != nil {
			return nil, fmt.Errorf("--wallet.withdrawal-allowlist: %w", err)
		}
	}
	for _, a := range w.configured {
		if o.shard.Owns(a.Name) {
			w.accounts = append(w.accounts, a)
		}
	}
	if len(w.configured) > 0 {
		if err := o.checkAccountIntervals(); err != nil {
			return nil, err
		}
	}
	// exporter-toolkit reads the web config only once it listens: check it,
	// and the state file's directory, before polling or --config.check's OK.
	if f := *o.web.WebConfigFile; f != "" {
		if err := server.CheckWebConfigFile(f); err != nil {
			return nil, err
		}
	}
	if o.historyStateFile != "" {
		if err := statefile.Check(o.historyStateFile); err != nil {
			return nil, fmt.Errorf("--token-history.state-file: %w", err)
		}
		// Before listening or polling, and under --config.check too: a
		// second exporter on the file would overwrite the first's accounts.
		if w.lock, err = statefile.Acquire(o.historyStateFile); err != nil {
			return nil, fmt.Errorf("--token-history.state-file: %w", err)
		}
	}
	return w, nil
}

// newClient builds the client of one account, or the public client when
// key is empty and w.public not yet set.
func (w *wiring) newClient(name, key, secret string) (*client.Client, error) {
	o := w.o
	// The public client keeps to the published per-IP limits.
	var limits map[string]client.RateLimit
	if key != "" {
		limits = o.limits
	}
	return client.New(client.Config{
		BaseURL: o.apiURL, Account: name, APIKey: key, APISecret: secret, Endpoints: endpoint.Names(key != "", o.enabled),
		RateLimits: limits, Budget: o.budget, Metrics: w.clientMetrics, Logger: w.logger,
		HTTPClient: w.http, Clock: w.clock, Public: w.public, RateCap: w.rateCap,
	})
}

// configOK is what --config.check prints when everything checked out.
func (w *wiring) configOK(stdout io.Writer) {
	w.warnUnread()
	w.warnOverRateCap()
	w.checkAllowListNetworks()
	if s := w.o.shard; s.Count > 1 {
		fmt.Fprintf(stdout, "configuration OK: %d of %d account(s) on shard %d of %d\n", len(w.accounts), len(w.configured), s.Index, s.Count)
	} else {
		fmt.Fprintf(stdout, "configuration OK: %d account(s)\n", len(w.accounts))
	}
}

// allowListCheckWithin bounds --config.check's read of the token networks.
const allowListCheckWithin = 10 * time.Second

// checkAllowListNetworks warns, under --config.check, of each allow-list
// entry on a network the exchange does not list, or that it could not read
// the token networks to check.
func (w *wiring) checkAllowListNetworks() {
	if w.allowList == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), allowListCheckWithin)
	defer cancel()
	rows, _, err := w.public.TokenNetworks(ctx)
	if err != nil {
		level.Warn(w.logger).Log("msg", "could not check the allow-list's networks: the exchange's token networks could not be read", "err", err)
		return
	}
	networks := make([]string, 0, len(rows))
	for _, r := range rows {
		networks = append(networks, r.Network)
	}
	collector.ReportUnlisted(w.logger, w.allowList.Unlisted(networks))
}

// exporter opens the state file, builds a client per account and the
// exporter, and registers them with the process-wide collectors.
func (w *wiring) exporter() (*collector.Exporter, *statefile.Store, error) {
	o := w.o
	if o.historyStateFile != "" {
		store, err := statefile.Open(o.historyStateFile, time.Now(), statefile.SectionsOf(collector.StateSections())...)
		if err != nil {
			return nil, nil, fmt.Errorf("--token-history.state-file: %w", err)
		}
		w.store = store
		w.reg.MustRegister(store)
	}
	w.clients = map[string]*client.Client{}
	for _, a := range w.accounts {
		c, err := w.newClient(a.Name, a.APIKey, a.Secret.Reveal())
		if err != nil {
			return nil, nil, err
		}
		w.clients[a.Name] = c
	}
	exporter, err := w.newExporter(w.accounts, w.clients, nil)
	if err != nil {
		return nil, nil, err
	}
	w.watched = prometheus.NewGauge(prometheus.GaugeOpts{Name: "woox_exporter_accounts",
		Help: "Accounts this replica watches: the configured ones of its shard (woox_exporter_shard_ordinal); 0 in public-only mode."})
	w.watched.Set(float64(len(w.accounts)))
	w.reg.MustRegister(
		w.watched,
		shard.Collector(o.shard.Index, o.shard.Count),
		versioncollector.NewCollector("woox_exporter"),
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
	)
	return exporter, w.store, nil
}

// newExporter builds the exporter of accounts, each polled through its
// client in clients, its ledgers continued from handoff when set.
func (w *wiring) newExporter(accounts []config.Account, clients map[string]*client.Client, handoff *collector.Handoff) (*collector.Exporter, error) {
	cfg := w.collectorConfig(len(accounts))
	if w.store != nil {
		cfg.State = w.store
	}
	cfg.Handoff = handoff
	for _, a := range accounts {
		cfg.Accounts = append(cfg.Accounts, collector.Account{Name: a.Name, APIKey: a.APIKey, API: clients[a.Name]})
	}
	return collector.New(cfg)
}

// collectorConfig is the exporter's configuration but for its accounts and
// state store, for n accounts.
func (w *wiring) collectorConfig(n int) collector.Config {
	o := w.o
	return collector.Config{
		Public:                 w.public,
		Collectors:             o.enabled,
		Intervals:              o.intervals,
		WalletLookback:         time.Duration(o.walletLookback.d),
		WalletLookbackInterval: o.walletLookbackEvery,
		WithdrawalAllowList:    w.allowList,
		// A poll waiting out the budget, 429s, back-offs or its turns under
		// the rate cap is not stuck.
		StallTimeout: client.LongestRequest(o.longestLimit(), o.requestTimeout) +
			w.rateCap.LongestWait(2*o.pollers(n)) + 10*time.Second,
		HistoryOverlap:            o.historyOverlap,
		HistoryLookback:           o.historyLookback,
		HistoryLateInterval:       o.historyLateInterval,
		HistoryLateWindow:         o.historyLateWindow,
		HistorySkipMalformedAfter: o.skipMalformedAfter,
		ShowFullKey:               o.showFullKey,
		SeriesPerEndpoint:         o.seriesPerEndpoint,
		Idle:                      o.shard.Count > 1,
		// Shards other than 0 export no token networks, but their
		// wallets still split the exchange's ids by them.
		WalletNetworks: walletNetworks(w.public, o.shard.Index, *o.collectors[endpoint.TokenNetwork]),
		Logger:         w.logger,
	}
}

// logStart logs what this replica watches.
func (w *wiring) logStart(store *statefile.Store) {
	logger, s := w.logger, w.o.shard
	level.Info(logger).Log("msg", "starting "+exporterName, "version", version.Info(), "build_context", version.BuildContext())
	if s.Count > 1 {
		level.Info(logger).Log("msg", "sharded", "shard", s.Index, "shards", s.Count, "accounts", len(w.accounts), "configured", len(w.configured),
			"public_endpoints", s.Index == 0)
	}
	w.warnUnread()
	if len(w.configured) == 0 {
		level.Warn(logger).Log("msg", "no account configured: exporting the public endpoints only (token networks, system status, instruments, perpetuals); "+
			"to watch an account set "+config.EnvAPIKey+" and "+config.EnvAPISecretFile+" (or "+config.EnvAPISecret+"), or list accounts in --config.file")
	}
	w.warnOverRateCap()
	for _, a := range w.accounts {
		level.Info(logger).Log("msg", "watching account", "account", a.Name, "api_key", client.MaskAPIKey(a.APIKey, false))
	}
	if removed := store.RemovedTemporaries(); len(removed) > 0 {
		level.Info(logger).Log("msg", "removed the temporary files of a state file save cut short by a crash",
			"files", len(removed), "first", removed[0])
	}
	if w.allowList != nil {
		level.Info(logger).Log("msg", "withdrawals judged against the allow-list", "path", w.o.allowListFile, "entries", w.allowList.Len())
	}
	if c := store.Corruption(); c != nil {
		level.Warn(logger).Log("msg", "token history state file unusable: set aside, counters start from zero",
			"path", c.Path, "set_aside_as", c.SetAsideAs, "err", c.Err)
	}
}

// warnUnread names each WOOX_ variable set but not read, at start and under
// --config.check alike: a mistyped name leaves its account unwatched.
func (w *wiring) warnUnread() {
	for _, name := range w.unread {
		level.Warn(w.logger).Log("msg", "environment variable not read by the exporter: mistyped? It reads "+
			config.EnvAPIKey+", "+config.EnvAPISecret+", "+config.EnvAPISecretFile+" and the api_secret_env variables of --config.file", "variable", name)
	}
}

// withUnread adds to an error of the environment's account the WOOX_
// variables set but not read: "WOOX_API_KEY is not set" beside a set
// WOOX_APIKEY is a typo, and the error is the only line the user sees.
func withUnread(err error, unread []string) error {
	if len(unread) == 0 {
		return err
	}
	return fmt.Errorf("%w; the exporter does not read %s: mistyped?", err, strings.Join(unread, ", "))
}

// warnOverRateCap warns when this replica's quiet polls alone need more
// requests a second than --api.max-requests-per-second. A warning, not a
// refusal as for an interval its endpoint's budget cannot fit: every poll
// still runs, late by its turn in the queue, and an account more in the
// configuration should not stop the others' monitoring.
func (w *wiring) warnOverRateCap() {
	perSecond := w.o.maxPerSecond
	need := w.o.quietPerSecond(len(w.accounts))
	if perSecond <= 0 || need <= perSecond {
		return
	}
	level.Warn(w.logger).Log("msg", "the accounts' polls need more requests a second than --api.max-requests-per-second allows: requests wait their turn and polls fall behind their intervals; "+
		"raise the flag, lengthen the intervals, or split the accounts over replicas on different IP addresses (--shard.count)",
		"requests_per_second_needed", strconv.FormatFloat(need, 'f', 1, 64), "max_requests_per_second", perSecond, "accounts", len(w.accounts))
}

// quietPerSecond is the requests a second this replica sends with accounts
// when every poll is quiet (one request, as checkIntervals counts): each
// account endpoint's per account, the public ones once.
func (o *options) quietPerSecond(accounts int) float64 {
	total := 0.0
	for _, i := range o.publicIntervals {
		total += 1 / i.interval.Seconds()
	}
	if accounts == 0 {
		// Unchecked then, an interval may be 0.
		return total
	}
	for _, i := range o.accountIntervals {
		total += float64(accounts) / i.interval.Seconds()
	}
	return total
}

// pollers is how many pollers this replica runs with accounts. Each has
// at most two requests waiting for the rate cap at once: its own, and the
// public client's on its behalf (the exchange's time, the system status).
func (o *options) pollers(accounts int) int {
	return len(o.publicIntervals) + accounts*len(o.accountIntervals)
}

// walletNetworks is where the wallet reads the token network list when its
// own collector does not: on a shard other than 0, unless the token networks
// are turned off.
func walletNetworks(public *client.Client, shard int, tokenNetworksOn bool) collector.TokenNetworkAPI {
	if shard == 0 || !tokenNetworksOn {
		return nil
	}
	return public
}
