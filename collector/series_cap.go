package collector

import (
	"fmt"
	"slices"
	"sync/atomic"

	"github.com/go-kit/log"
	"github.com/go-kit/log/level"
	"github.com/prometheus/client_golang/prometheus"
)

// DefaultSeriesPerEndpoint is the default of Config.SeriesPerEndpoint: ten
// times the 1,000 token networks of the load test's large account (no public
// source gives the exchange's own count), so only an exchange gone wrong
// reaches it.
const DefaultSeriesPerEndpoint = 10000

var seriesCappedDesc = prometheus.NewDesc("woox_exporter_series_capped_total",
	"Rows the exchange sent beyond --limits.series-per-endpoint distinct label sets of the endpoint for the account: "+
		"rows of gauges dropped, token history records counted under token=\"__other__\" (their sums stay exact). "+
		"Exists at 0 for every endpoint and account whose rows the exchange decides.",
	[]string{"endpoint", "account"}, nil)

// seriesCap bounds the distinct label sets (rows) one endpoint keeps and
// exports for one account ("" for a public endpoint): the exchange decides
// how many rows it sends, and nothing else bounds the exporter's memory
// and series.
type seriesCap struct {
	endpoint, account string
	limit             int
	logger            log.Logger
	capped            atomic.Uint64
	warned            atomic.Bool
}

// note counts n rows capped, and warns the first time.
func (s *seriesCap) note(n int) {
	if n <= 0 {
		return
	}
	s.capped.Add(uint64(n))
	if s.warned.CompareAndSwap(false, true) {
		level.Warn(s.logger).Log("msg", "the exchange sent more distinct rows than --limits.series-per-endpoint; the rows beyond it are dropped, "+
			"token history records beyond it counted under token=\"__other__\" (counted in woox_exporter_series_capped_total; warned once)",
			"endpoint", s.endpoint, "account", s.account, "limit", s.limit, "capped", n)
	}
}

// capRows keeps the first s.limit rows, in their order, and counts the
// rest; the kept rows are copied so that the whole answer can be freed. A
// nil cap keeps every row.
func capRows[T any](s *seriesCap, rows []T) []T {
	if s == nil || len(rows) <= s.limit {
		return rows
	}
	s.note(len(rows) - s.limit)
	return slices.Clone(rows[:s.limit])
}

// seriesPerEndpoint resolves Config.SeriesPerEndpoint: zero is the default.
func seriesPerEndpoint(n int) (int, error) {
	switch {
	case n < 0:
		return 0, fmt.Errorf("series per endpoint %d: must be greater than 0", n)
	case n == 0:
		return DefaultSeriesPerEndpoint, nil
	}
	return n, nil
}

// seriesCap is the cap of the endpoint being built for account, made on
// first use and exported from then on.
func (b *builder) seriesCap(account string) *seriesCap {
	for _, s := range b.e.caps {
		if s.endpoint == b.endpoint && s.account == account {
			return s
		}
	}
	s := &seriesCap{endpoint: b.endpoint, account: account, limit: b.cfg.SeriesPerEndpoint, logger: b.cfg.Logger}
	b.e.caps = append(b.e.caps, s)
	return s
}
