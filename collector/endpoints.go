package collector

import (
	"fmt"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/exposition"
)

// Endpoint is one exchange endpoint the exporter polls. Adding an endpoint
// means one entry here, its collector file (with its build function), its
// client file and its fake exchange file (docs/development.md, Adding an endpoint).
type Endpoint struct {
	// Name is the value of the endpoint label and the budget key; its
	// interval flag is FlagName.
	Name string
	// PerAccount endpoints are polled for each account with its key, the
	// others once per exporter without one.
	PerAccount bool
	// DefaultInterval is the poll interval when Config.Intervals has none.
	DefaultInterval time.Duration
	// Description says what is polled, for the interval flag's help.
	Description string
	// Paged endpoints read a list page by page. A quiet poll still sends
	// one request: its one page is clearly the last (see client.paginate).
	Paged bool
	// OffByDefault endpoints are polled only when Config.Collectors (the
	// --collector.NAME flag) turns them on.
	OffByDefault bool
	// build makes the endpoint's collector and pollers; a nil collector
	// means there is nothing to poll (no public API, no account).
	build func(b *builder) (prometheus.Collector, error)
}

// Endpoints are every endpoint the exporter polls, in the order their
// collectors export.
var Endpoints = []Endpoint{
	{Name: client.EndpointTokenNetwork, DefaultInterval: 5 * time.Minute,
		Description: "the public token networks", build: buildTokenNetwork},
	// A key's allow-list or permissions changed is a security event: one
	// request a quiet poll, 1 of the 10 a minute the endpoint allows.
	{Name: client.EndpointCredentials, PerAccount: true, Paged: true, DefaultInterval: time.Minute,
		Description: "each account's API keys", build: buildCredentials},
	{Name: client.EndpointTokenHistory, PerAccount: true, Paged: true, DefaultInterval: time.Minute,
		Description: "each account's token history", build: buildTokenHistory},
	{Name: client.EndpointSystemInfo, DefaultInterval: time.Minute,
		Description: "the exchange's public system status", build: buildSystemInfo},
	// Margin ratio, balances and positions move with prices: polled as
	// often as their limits sensibly allow, so that a liquidation is paged
	// minutes before it.
	{Name: client.EndpointAccountInfo, PerAccount: true, DefaultInterval: 15 * time.Second,
		Description: "each account's margin and fees", build: buildAccountInfo},
	{Name: client.EndpointBalances, PerAccount: true, DefaultInterval: 15 * time.Second,
		Description: "each account's token balances", build: buildBalances},
	// A withdrawal to an address nobody expects pages within a minute of
	// its row: new rows every 15 s, 4 of the 5 requests a minute the
	// budget allows (--api.budget of 10 per 60 s); the whole lookback,
	// for the transfers in flight, replaces one of them every
	// --wallet.lookback-interval.
	{Name: client.EndpointWallet, PerAccount: true, Paged: true, DefaultInterval: 15 * time.Second,
		Description: "each account's deposits and withdrawals", build: buildWallet},
	{Name: client.EndpointSubAccounts, PerAccount: true, DefaultInterval: 15 * time.Minute, OffByDefault: true,
		Description: "each main account's sub-accounts", build: buildSubAccounts},
	{Name: client.EndpointPositions, PerAccount: true, DefaultInterval: 5 * time.Second,
		Description: "each account's futures positions", build: buildPositions},
	// One request a quiet poll, a tenth of the budget (--api.budget of 20
	// per 60 s), leaving the rest to pages of a busy day.
	{Name: client.EndpointTransferHistory, PerAccount: true, Paged: true, DefaultInterval: time.Minute,
		Description: "each account's transfers to and from its main or sub-accounts", build: buildTransferHistory},
	// Cheap (10 requests a second published) and a haircut moves margin at
	// once: polled with the account's margin.
	{Name: client.EndpointTokenConfig, PerAccount: true, DefaultInterval: 15 * time.Second,
		Description: "each account's collateral ratio and margin limits by token", build: buildTokenConfig},
}

// CollectorName is the endpoint's name in flags: token_history is polled
// every --token-history.interval and turned off by
// --no-collector.token-history.
func (ep Endpoint) CollectorName() string { return strings.ReplaceAll(ep.Name, "_", "-") }

// FlagName is the command-line flag of the endpoint's poll interval.
func (ep Endpoint) FlagName() string { return ep.CollectorName() + ".interval" }

// DefaultIntervalFlag is DefaultInterval as the interval flag takes it: 5m,
// not 5m0s.
func (ep Endpoint) DefaultIntervalFlag() string {
	s := ep.DefaultInterval.String()
	for _, zero := range []string{"0s", "0m"} {
		if len(s) > len(zero) && strings.HasSuffix(s, zero) {
			s = strings.TrimSuffix(s, zero)
		}
	}
	return s
}

// RateLimitFlagName is the command-line flag of a private endpoint's rate
// limit per account.
func (ep Endpoint) RateLimitFlagName() string { return ep.CollectorName() + ".rate-limit" }

// PublishedLimit is the exchange's published limit of the endpoint.
func (ep Endpoint) PublishedLimit() client.PublishedLimit {
	l, ok := client.PublishedLimitOf(ep.Name)
	if !ok {
		return client.PublishedLimit{Endpoint: ep.Name, Limit: client.DefaultRateLimit, PerIP: !ep.PerAccount}
	}
	return l
}

// Enabled reports whether the endpoint is polled under collectors, which
// overrides the endpoints it names (Config.Collectors).
func (ep Endpoint) Enabled(collectors map[string]bool) bool {
	if on, ok := collectors[ep.Name]; ok {
		return on
	}
	return !ep.OffByDefault
}

// EndpointNames returns the names of the enabled public endpoints, or of the
// enabled per-account ones: what a client of that kind will call.
func EndpointNames(perAccount bool, collectors map[string]bool) []string {
	var names []string
	for _, ep := range Endpoints {
		if ep.PerAccount == perAccount && ep.Enabled(collectors) {
			names = append(names, ep.Name)
		}
	}
	return names
}

// builder is what an endpoint's build function works with.
type builder struct {
	cfg      *Config
	e        *Exporter
	endpoint string
	interval time.Duration
	// every is the poll interval of every endpoint, by name.
	every map[string]time.Duration
	// part is what scrapes gather of the endpoint's collector, made with
	// its first poller.
	part *exposition.Collected
}

// poll adds a poller of the endpoint for account ("" for a public one)
// that runs fn and then regathers collector c for scrapes. A list
// endpoint's poller is added with pollList.
func (b *builder) poll(c prometheus.Collector, account string, fn pollFunc) {
	b.pollEndpoint(b.endpoint, b.interval, c, account, withoutRows(fn))
}

// pollEndpoint is pollList for another endpoint than the one being built,
// on its own interval.
func (b *builder) pollEndpoint(endpoint string, interval time.Duration, c prometheus.Collector, account string, fn listPollFunc) {
	if b.part == nil {
		b.part = newDataPart(c)
		b.e.parts = append(b.e.parts, b.part)
	}
	b.e.pollers = append(b.e.pollers, &poller{endpoint: endpoint, account: account, interval: interval,
		stallAfter: max(interval, b.cfg.StallTimeout), poll: refreshing(b.part, fn), logger: b.cfg.Logger, now: b.cfg.Now})
}

// intervals resolves the poll interval of every endpoint from cfg.
func intervals(cfg Config) (map[string]time.Duration, error) {
	out := map[string]time.Duration{}
	for _, ep := range Endpoints {
		out[ep.Name] = ep.DefaultInterval
	}
	for name := range cfg.Collectors {
		if _, ok := out[name]; !ok {
			return nil, fmt.Errorf("collector of unknown endpoint %q", name)
		}
	}
	for name, d := range cfg.Intervals {
		if _, ok := out[name]; !ok {
			return nil, fmt.Errorf("interval of unknown endpoint %q", name)
		}
		if d < 0 {
			return nil, fmt.Errorf("%s interval %s: must not be negative", name, d)
		}
		if d > 0 {
			out[name] = d
		}
	}
	return out, nil
}
