package collector

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-kit/log"
	"github.com/go-kit/log/level"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/allowlist"
	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/exposition"
	"github.com/woox-exporter/woox_exporter/ledger"
)

// Defaults for zero Config durations; they match the defaults of the
// command-line flags (docs/flags.md).
const (
	DefaultHistoryOverlap      = 5 * time.Minute
	DefaultHistoryLookback     = time.Hour
	DefaultHistoryLateInterval = time.Hour
	DefaultHistoryLateWindow   = 24 * time.Hour
)

// Account is one exchange account the exporter reads.
type Account struct {
	// Name is the account label value.
	Name string
	// APIKey is the key the exporter uses for this account, to find its own
	// row in the credentials list.
	APIKey string
	// API reads every per-account endpoint with the account's key.
	API *client.Client
}

// Config assembles an Exporter.
type Config struct {
	// Public reads the public endpoints; nil leaves them out (system info
	// also when Public cannot read it).
	Public   TokenNetworkAPI
	Accounts []Account

	// Collectors turns endpoints on (true) or off (false) by name; an
	// endpoint not in it is on unless Endpoint.OffByDefault. An endpoint
	// turned off sends no request and exports nothing.
	Collectors map[string]bool
	// Intervals are the poll intervals by endpoint name; an endpoint
	// missing or at zero polls every Endpoint.DefaultInterval.
	Intervals map[string]time.Duration
	// StallTimeout cancels a poll that makes no progress (no page arrives)
	// for this long, or for its interval if that is longer. It must exceed
	// client.LongestRequest, or a poll merely waiting its turn is cancelled.
	StallTimeout time.Duration

	// HistoryOverlap is how far each token history query window reaches back
	// before the newest record seen: the tolerance for records the
	// exchange shows late. HistoryLookback is how far back the first
	// query window reaches on a fresh start.
	HistoryOverlap  time.Duration
	HistoryLookback time.Duration
	// HistoryLateInterval is how often the late sweep re-reads the last
	// HistoryLateWindow behind the cursor for records listed after the
	// overlap passed them (see package ledger).
	HistoryLateInterval time.Duration
	HistoryLateWindow   time.Duration
	// HistorySkipMalformedAfter is how many failed polls a malformed
	// history row causes before it is skipped; zero never skips.
	HistorySkipMalformedAfter int

	// WalletLookback is how far back each wallet poll reads deposits and
	// withdrawals: one in flight for longer drops out of view.
	WalletLookback time.Duration
	// WalletLookbackInterval is how often a wallet poll reads the whole
	// WalletLookback rather than the rows created since the newest seen
	// (every poll does when its interval is twice as long or longer).
	WalletLookbackInterval time.Duration
	// WithdrawalAllowList, when set, counts each withdrawal as allowlisted
	// or unlisted instead of known or new; it needs the token network
	// list, which names a withdrawal's network.
	WithdrawalAllowList *allowlist.List
	// WalletNetworks, when set and the token network endpoint is off, is
	// read every token network interval only to split the wallet's
	// network-token ids; nothing of it is exported (a shard other than 0
	// exports no token networks, but its wallets still need them).
	WalletNetworks TokenNetworkAPI

	// Idle allows an exporter with nothing to poll: a shard whose share of
	// the accounts is empty still serves its health and is ready.
	Idle bool

	// ShowFullKey exports API keys unmasked in the api_key label.
	ShowFullKey bool

	// SeriesPerEndpoint bounds the distinct label sets (rows) each endpoint
	// keeps and exports per account; rows beyond it are dropped, token
	// history records beyond it counted under token "__other__". Zero
	// means DefaultSeriesPerEndpoint.
	SeriesPerEndpoint int

	// State, when set, keeps every account's token history across
	// restarts (its counted histories too, each in its section): an
	// account found in it resumes its counters and cursor, and its state
	// is saved after every token history poll and when Run returns. States
	// of accounts not configured are left alone.
	State StateStore

	// Handoff, when set, holds the ledgers of the exporter this one
	// replaces in the same process; an account in it continues from there
	// rather than from State.
	Handoff *Handoff

	Logger log.Logger
	// Now is the clock for poll timestamps and the first history query window;
	// nil means time.Now.
	Now func() time.Time
}

// Exporter owns the pollers and the collectors that export what they read.
type Exporter struct {
	pollers []*poller
	// collectors are every collector in export order, byName the same by
	// endpoint name ("health" for the poll health).
	collectors []prometheus.Collector
	byName     map[string]prometheus.Collector
	ledgers    map[string]*ledgerInUse
	state      StateStore
	logger     log.Logger
	history    *TokenHistoryCollector
	// caps are the series caps of every endpoint and account, exported
	// with the poll health.
	caps []*seriesCap
	// counted are every account's state of every counted history, handed
	// over at a reload.
	counted []handoffer
	// networks are the token networks last listed, by which the wallet
	// splits its network-token ids.
	networks tokenNetworkIndex
	// settings are the account settings the account info and positions
	// polls see, nil until one of them is built.
	settings *settingWatch
	// parts are the data collectors and the poll health, each gathered
	// when it changed: see Source.
	parts []*exposition.Collected
	// served is what scrapes are served: the parts of the collectors that
	// are not per account, and a part per account and collector.
	served *exposition.Parts
	// epoch is added to every part's generation: an exporter that replaces
	// another in the same handler has generations the handler never saw.
	epoch uint64
}

// New checks cfg and builds the pollers and collectors; nothing is polled
// until Run.
func New(cfg Config) (*Exporter, error) {
	if cfg.Logger == nil {
		cfg.Logger = log.NewNopLogger()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	for _, d := range []struct {
		name string
		v    *time.Duration
		def  time.Duration
	}{
		{"token history overlap", &cfg.HistoryOverlap, DefaultHistoryOverlap},
		{"token history lookback", &cfg.HistoryLookback, DefaultHistoryLookback},
		{"token history late interval", &cfg.HistoryLateInterval, DefaultHistoryLateInterval},
		{"token history late window", &cfg.HistoryLateWindow, DefaultHistoryLateWindow},
		{"wallet lookback", &cfg.WalletLookback, DefaultWalletLookback},
		{"wallet lookback interval", &cfg.WalletLookbackInterval, DefaultWalletLookbackInterval},
	} {
		if *d.v < 0 {
			return nil, fmt.Errorf("%s %s: must not be negative", d.name, *d.v)
		}
		if *d.v == 0 {
			*d.v = d.def
		}
	}
	var err error
	if cfg.SeriesPerEndpoint, err = seriesPerEndpoint(cfg.SeriesPerEndpoint); err != nil {
		return nil, err
	}
	if cfg.HistorySkipMalformedAfter < 0 {
		return nil, fmt.Errorf("skip malformed rows after %d polls: must not be negative", cfg.HistorySkipMalformedAfter)
	}
	names := map[string]bool{}
	for i, a := range cfg.Accounts {
		switch {
		case a.Name == "":
			return nil, fmt.Errorf("account %d: no name", i+1)
		case names[a.Name]:
			return nil, fmt.Errorf("account %q: listed twice", a.Name)
		case a.API == nil:
			return nil, fmt.Errorf("account %q: no API", a.Name)
		}
		names[a.Name] = true
	}

	every, err := intervals(cfg)
	if err != nil {
		return nil, err
	}
	e := &Exporter{ledgers: map[string]*ledgerInUse{}, byName: map[string]prometheus.Collector{},
		state: cfg.State, logger: cfg.Logger}
	if cfg.WithdrawalAllowList != nil {
		e.networks.allowList = newAllowListCheck(cfg.WithdrawalAllowList, cfg.Logger)
	}
	for _, ep := range endpoint.All {
		if !ep.Enabled(cfg.Collectors) {
			continue
		}
		c, err := builds[ep.Name](&builder{cfg: &cfg, e: e, endpoint: ep.Name, interval: every[ep.Name], every: every})
		if err != nil {
			return nil, err
		}
		if c != nil {
			e.collectors = append(e.collectors, c)
			e.byName[ep.Name] = c
		}
	}
	if len(e.pollers) == 0 && !cfg.Idle {
		return nil, errors.New("nothing to poll: no public API and no account, or every collector that could poll turned off")
	}
	e.addHealth(cfg)
	for _, p := range e.parts {
		p.Refresh()
	}
	e.served = exposition.NewParts(e.parts...)
	return e, nil
}

// addHealth adds the poll health and the clients' request counters, as a
// part per account of the poll outcomes, and one of the poll times and the
// request counters, which every poll moves.
func (e *Exporter) addHealth(cfg Config) {
	health := newHealthCollector(e.pollers, e.caps)
	e.collectors = append(e.collectors, health)
	e.byName["health"] = health
	var moving accountSplit = health.times()
	if requests := newClientMetrics(cfg.Public, cfg.Accounts); requests != nil {
		e.collectors = append(e.collectors, requests)
		moving = pairSplits(health.times(), requests)
	}
	e.parts = append(e.parts, newDataPart(moving), newDataPart(health.outcomes()))
}

// Run starts every poller, each polling at once and then every interval at
// its account's place in the interval (nextPoll), and returns when ctx is
// done and every poller has stopped, after saving every account's token
// history state (records counted by a poll cut short by the shutdown are
// kept).
func (e *Exporter) Run(ctx context.Context) {
	var wg sync.WaitGroup
	firstPolled := e.firstPolls(time.Now())
	for _, p := range e.pollers {
		p.firstPolled = firstPolled
		wg.Add(1)
		p.start(ctx, wg.Done)
	}
	wg.Wait()
	if e.state != nil && e.history != nil {
		for _, a := range e.history.accounts {
			e.save(a.name, a.inUse.Load().Export())
		}
	}
}

// save writes one account's token history state; a failure is logged (the
// store counts it) and the next poll writes again.
func (e *Exporter) save(account string, st ledger.State) {
	if err := e.state.SaveSection(tokenHistorySection, account, st); err != nil {
		level.Error(e.logger).Log("msg", "cannot save token history state", "account", account, "err", err)
	}
}

// firstPolls returns what each poller calls once its first poll has
// finished; the last call logs, once, that the exporter is ready and how long
// its first polls took: after it the log holds only failures and recoveries.
func (e *Exporter) firstPolls(started time.Time) func() {
	var left atomic.Int64
	left.Store(int64(len(e.pollers)))
	return func() {
		if left.Add(-1) != 0 {
			return
		}
		failed, why := e.failing()
		level.Info(e.logger).Log("msg", "first polls done", "took", time.Since(started).Round(time.Millisecond),
			"pollers", len(e.pollers), "failed", failed, "why", why)
	}
}

// failing is how many pollers failed their last poll, and why: each reason
// with its count, and what to check where it is known ("" when none failed).
func (e *Exporter) failing() (failed int, why string) {
	var byReason [len(failureReasons)]int
	checks := map[string]bool{}
	for _, p := range e.pollers {
		if s := p.lastStatus(); s.polled && !s.success {
			failed++
			byReason[s.failedFor]++
			if s.check != "" {
				checks[s.check] = true
			}
		}
	}
	var parts []string
	for i, n := range byReason {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", failureReasons[i], n))
		}
	}
	parts = append(parts, slices.Sorted(maps.Keys(checks))...)
	return failed, strings.Join(parts, "; ")
}

// ReadyNote says, for the readiness check, which pollers failed their last
// poll and why, or "" when none did.
func (e *Exporter) ReadyNote() string {
	failed, why := e.failing()
	if failed == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %d pollers failed their last poll: %s", failed, len(e.pollers), why)
}

// Ready reports whether every poller has finished its first poll, with
// success or not.
func (e *Exporter) Ready() bool {
	for _, p := range e.pollers {
		if !p.lastStatus().polled {
			return false
		}
	}
	return true
}
