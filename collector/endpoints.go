package collector

import (
	"context"
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/exposition"
)

// buildFunc makes an endpoint's collector and pollers; a nil collector
// means there is nothing to poll (no public API, no account).
type buildFunc func(b *builder) (prometheus.Collector, error)

// builds are the build functions of the endpoints of the table
// (endpoint.All), by name.
var builds = map[string]buildFunc{}

// register sets the build function of the endpoint called name: each
// collector file calls it once, at init, as node_exporter's collectors
// register themselves.
func register(name string, build buildFunc) {
	if _, ok := endpoint.Of(name); !ok {
		panic("collector: endpoint " + name + " is not in the endpoint table")
	}
	if builds[name] != nil {
		panic("collector: endpoint " + name + " registered twice")
	}
	builds[name] = build
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
	for _, ep := range endpoint.All {
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
