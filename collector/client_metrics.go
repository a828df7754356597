package collector

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/client"
)

// clientMetrics serves each account's request counters (client.AccountMetrics:
// requests by endpoint and code, the rate cap's wait) as a part per account,
// encoded again only after the account sent a request: at a thousand
// accounts they are tens of thousands of series, too many to gather on
// every scrape.
type clientMetrics struct {
	accounts []*client.AccountMetrics
}

var _ accountSplit = (*clientMetrics)(nil)

// newClientMetrics collects the account metrics of public and of every
// account's client, once each; nil when none has any (clients made
// without client.Metrics).
func newClientMetrics(public TokenNetworkAPI, accounts []Account) *clientMetrics {
	c := &clientMetrics{}
	seen := map[*client.AccountMetrics]bool{}
	add := func(api *client.Client) {
		if api == nil {
			return
		}
		if m := api.AccountMetrics(); m != nil && !seen[m] {
			seen[m] = true
			c.accounts = append(c.accounts, m)
		}
	}
	if api, ok := public.(*client.Client); ok {
		add(api)
	}
	for _, a := range accounts {
		add(a.API)
	}
	if len(c.accounts) == 0 {
		return nil
	}
	return c
}

// Describe implements prometheus.Collector.
func (c *clientMetrics) Describe(ch chan<- *prometheus.Desc) {
	for _, a := range c.accounts {
		a.Describe(ch)
	}
}

// Collect implements prometheus.Collector.
func (c *clientMetrics) Collect(ch chan<- prometheus.Metric) {
	for _, a := range c.accounts {
		a.Collect(ch)
	}
}

// accountNames implements accountSplit.
func (c *clientMetrics) accountNames() []string {
	return namesOf(c.accounts, func(i int) string { return c.accounts[i].Name() })
}

// collectAt implements accountSplit.
func (c *clientMetrics) collectAt(i int, ch chan<- prometheus.Metric) { c.accounts[i].Collect(ch) }

// generationAt implements accountSplit.
func (c *clientMetrics) generationAt(i int) uint64 { return c.accounts[i].Generation() }
