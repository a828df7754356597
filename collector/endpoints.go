package collector

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/exposition"
)

// Endpoint is one exchange endpoint the exporter polls: its entry of the
// endpoint table and the build function its collector file registers.
type Endpoint struct {
	endpoint.Endpoint
	// build makes the endpoint's collector and pollers; a nil collector
	// means there is nothing to poll (no public API, no account).
	build buildFunc
}

// buildFunc makes an endpoint's collector and pollers.
type buildFunc func(b *builder) (prometheus.Collector, error)

// Endpoints are every endpoint of the table (endpoint.All), in its order,
// which is the order their collectors export.
var Endpoints = func() []Endpoint {
	out := make([]Endpoint, len(endpoint.All))
	for i, ep := range endpoint.All {
		out[i] = Endpoint{Endpoint: ep}
	}
	return out
}()

// register sets the build function of the endpoint called name: each
// collector file calls it once, at init, as node_exporter's collectors
// register themselves.
func register(name string, build buildFunc) {
	for i := range Endpoints {
		if Endpoints[i].Name == name {
			if Endpoints[i].build != nil {
				panic("collector: endpoint " + name + " registered twice")
			}
			Endpoints[i].build = build
			return
		}
	}
	panic("collector: endpoint " + name + " is not in the endpoint table")
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

// PublishedLimit is the exchange's published limit of the endpoint, as
// the client keeps it (every endpoint of the table has one).
func (ep Endpoint) PublishedLimit() client.PublishedLimit {
	l, _ := client.PublishedLimitOf(ep.Name)
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
		stallAfter: max(interval, b.cfg.StallTimeout), poll: refreshing(b.part, fn), onTurn: b.onTurnOf(account), logger: b.cfg.Logger, now: b.cfg.Now})
}

// onTurnOf is what runs a poll of account ("" for a public endpoint) at its
// turn under the rate cap; nil when it has no client that takes turns.
func (b *builder) onTurnOf(account string) func(context.Context, func(context.Context)) {
	if account == "" {
		if c, ok := b.cfg.Public.(*client.Client); ok && c != nil {
			return c.OnTurn
		}
		return nil
	}
	for _, a := range b.cfg.Accounts {
		if a.Name == account && a.API != nil {
			return a.API.OnTurn
		}
	}
	return nil
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
