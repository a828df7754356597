package collector

import (
	"context"
	"sync/atomic"

	"github.com/go-kit/log"
	"github.com/go-kit/log/level"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/ledger"
)

var (
	tokenHistoryLabels = []string{"account", "token", "transaction_type"}

	// tokenHistoryMetrics are the counters of one ledger total.
	tokenHistoryMetrics = []struct {
		desc  *prometheus.Desc
		value func(ledger.Total) float64
	}{
		{
			prometheus.NewDesc(prometheus.BuildFQName(namespace, "token_history", "records_total"),
				"Token history records (balance changes) counted since the exporter started reading the account's history, each exactly once."+refreshed,
				tokenHistoryLabels, nil),
			func(t ledger.Total) float64 { return float64(t.Records) },
		},
		{
			prometheus.NewDesc(prometheus.BuildFQName(namespace, "token_history", "inflow_total"),
				"Sum of the positive token history amounts, in token units."+refreshed,
				tokenHistoryLabels, nil),
			func(t ledger.Total) float64 { return t.Inflow.InexactFloat64() },
		},
		{
			prometheus.NewDesc(prometheus.BuildFQName(namespace, "token_history", "outflow_total"),
				"Sum of the magnitudes of the negative token history amounts, in token units."+refreshed,
				tokenHistoryLabels, nil),
			func(t ledger.Total) float64 { return t.Outflow.InexactFloat64() },
		},
	}

	tokenHistoryInconsistentDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "token_history", "inconsistent_polls_total"),
		"Token history polls whose pages did not add up (meta.total changed while paging, or fewer distinct records than meta.total); "+
			"the window is read again, and accepted once a re-read finds nothing new. A steady rise means the exchange overstates meta.total.",
		[]string{"account"}, nil)

	tokenHistoryLastRecordDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "token_history", "last_record_timestamp_seconds"),
		"Unix time of the newest token history record counted."+refreshed,
		[]string{"account"}, nil)
)

// TokenHistoryCollector exports each account's token history totals, every
// record counted exactly once (see package ledger).
type TokenHistoryCollector struct {
	accounts []*historyAccount
}

var _ prometheus.Collector = (*TokenHistoryCollector)(nil)

type historyAccount struct {
	name   string
	api    TokenHistoryAPI
	ledger *ledger.Ledger
	logger log.Logger
	// pageSize is the rows per history page; tests lower it to page a lot.
	pageSize int
	// snap is what scrapes read, published by the poller after every page
	// that counted a record; published counts the publications.
	snap      atomic.Pointer[ledger.Snapshot]
	published atomic.Uint64
	// onPoll, when set, receives the ledger state after each successful poll.
	onPoll func(account string, st ledger.State)
	// inconsistent counts polls that were not consistent; shortStreak is
	// set while windows are accepted short, so that this is warned about
	// once, not on every poll. Poller only.
	inconsistent atomic.Uint64
	shortStreak  bool
}

func newHistoryAccount(name string, api TokenHistoryAPI, l *ledger.Ledger, logger log.Logger) *historyAccount {
	a := &historyAccount{name: name, api: api, ledger: l, logger: logger, pageSize: client.MaxPageSize}
	a.publish()
	return a
}

func (a *historyAccount) publish() {
	s := a.ledger.Snapshot()
	a.snap.Store(&s)
	a.published.Add(1)
}

// generation changes whenever any account publishes a new snapshot: most
// polls count nothing new, and regathering ~8,000 unchanged series after
// each would compete with scrapes for the CPU.
func (c *TokenHistoryCollector) generation() uint64 {
	var n uint64
	for _, a := range c.accounts {
		n += a.published.Load()
	}
	return n
}

// poll reads the window [cursor, now] page by page, counting records as they
// arrive, and advances the cursor only when every page came and the result
// set did not change while paging (see ledger.Ledger.Finish).
func (a *historyAccount) poll(ctx context.Context, progress func()) error {
	start, end := a.ledger.Window(a.api.ServerNow().UnixMilli())
	var check ledger.PollCheck
	err := a.api.TokenHistoryPages(ctx, client.HistoryQuery{StartTime: start, EndTime: end, PageSize: a.pageSize},
		func(p client.HistoryPage) error {
			check.Page(p)
			if a.ledger.ObservePage(p.Records, end) > 0 {
				a.publish()
			}
			progress()
			return nil
		})
	if err != nil {
		return err
	}
	if a.onPoll != nil {
		// Saved whatever Finish decides: the cursor moves only there, and
		// records already counted are remembered as seen.
		defer func() { a.onPoll(a.name, a.ledger.Export()) }()
	}
	result := a.ledger.Finish(&check, end)
	if result == ledger.PollComplete {
		a.shortStreak = false
		return nil
	}
	a.inconsistent.Add(1)
	a.published.Add(1) // the counter changed: regather
	// Nothing is lost either way: what arrived is counted, and an
	// incomplete window is read again next poll.
	kv := []any{"account", a.name, "meta_total", check.Total(), "distinct_records", check.Distinct(),
		"total_changed", check.Changed(), "start_ms", start, "end_ms", end}
	switch {
	case result == ledger.PollIncomplete:
		level.Info(a.logger).Log(append([]any{"msg", "token history pages did not add up; re-reading the window next poll"}, kv...)...)
	case !a.shortStreak:
		a.shortStreak = true
		level.Warn(a.logger).Log(append([]any{"msg", "the exchange promises more token history records than it serves; " +
			"accepting the window since a re-read found nothing new"}, kv...)...)
	default:
		level.Debug(a.logger).Log(append([]any{"msg", "token history window accepted short again"}, kv...)...)
	}
	return nil
}

// Describe implements prometheus.Collector.
func (c *TokenHistoryCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, m := range tokenHistoryMetrics {
		ch <- m.desc
	}
	ch <- tokenHistoryLastRecordDesc
	ch <- tokenHistoryInconsistentDesc
}

// Collect implements prometheus.Collector.
func (c *TokenHistoryCollector) Collect(ch chan<- prometheus.Metric) {
	for _, a := range c.accounts {
		snap := a.snap.Load()
		for _, t := range snap.Totals {
			for _, m := range tokenHistoryMetrics {
				ch <- prometheus.MustNewConstMetric(m.desc, prometheus.CounterValue, m.value(t), a.name, t.Token, t.Type)
			}
		}
		if snap.HasRecord {
			ch <- prometheus.MustNewConstMetric(tokenHistoryLastRecordDesc, prometheus.GaugeValue, float64(snap.LastRecordMs)/1000, a.name)
		}
		ch <- prometheus.MustNewConstMetric(tokenHistoryInconsistentDesc, prometheus.CounterValue, float64(a.inconsistent.Load()), a.name)
	}
}
