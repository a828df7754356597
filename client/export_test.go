package client

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"
)

// What only tests use. One registry shows every account's counters, which
// the exporter instead serves per client (Client.AccountMetrics).

// NewMetrics creates the client metrics and registers them all on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := NewProcessMetrics(reg)
	if reg != nil {
		reg.MustRegister(m.AllAccounts())
	}
	return m
}

// AllAccounts collects every account's counters, of clients made later too (unchecked).
func (m *Metrics) AllAccounts() prometheus.Collector { return allAccounts{m} }

type allAccounts struct{ m *Metrics }

func (allAccounts) Describe(chan<- *prometheus.Desc) {}

func (c allAccounts) Collect(ch chan<- prometheus.Metric) {
	c.m.mu.Lock()
	accounts := make([]*AccountMetrics, 0, len(c.m.accounts))
	for _, a := range c.m.accounts {
		accounts = append(accounts, a)
	}
	c.m.mu.Unlock()
	for _, a := range accounts {
		a.Collect(ch)
	}
}

var (
	decodeSubAccounts  = rowsOnly(decodeSubAccountsPage)
	decodeTokenConfigs = rowsOnly(decodeTokenConfigPage)
)

// TokenHistory returns every record matching q, all pages, in the order
// sent, and the rows that could not be read. Records may repeat across
// pages if the result set shifts: callers deduplicate by ID.
func (c *Client) TokenHistory(ctx context.Context, q HistoryQuery) ([]HistoryRecord, []MalformedRow, error) {
	var all []HistoryRecord
	var malformed []MalformedRow
	err := c.TokenHistoryPages(ctx, q, func(p HistoryPage) error {
		all = append(all, p.Records...)
		malformed = append(malformed, p.Malformed...)
		return nil
	})
	return all, malformed, err
}
