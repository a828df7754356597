package collector

import (
	"context"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/client"
)

// perAccount is the collector of a per-account endpoint whose poll reads one
// answer and keeps it: each account's latest answer, exported by emit. An
// endpoint with more of its own (balances, wallet) embeds it.
type perAccount[T any] struct {
	accounts []*latest[T]
	// changes counts, for the whole collector, the answers that differed
	// from the one before: the collector's generation, so an unchanged
	// answer is neither gathered nor encoded again.
	changes atomic.Uint64
	descs   []*prometheus.Desc
	// emit exports one account's latest answer.
	emit func(ch chan<- prometheus.Metric, account string, v *T)
}

var _ prometheus.Collector = (*perAccount[struct{}])(nil)

// readFunc reads one account's answer once: what to keep, and the rows the
// answer held that could not be read.
type readFunc[T any] func(ctx context.Context) (T, []client.RejectedRow, error)

// pollEach adds a poller of each account of b that runs the reader read
// made for that account (read is called once per account, while building)
// and keeps each successful answer. outer is what scrapes gather after a
// poll: c, or the collector that embeds it. It returns outer, or nil when
// there is no account to poll.
func (c *perAccount[T]) pollEach(b *builder, outer prometheus.Collector, read func(Account) readFunc[T]) prometheus.Collector {
	for _, a := range b.cfg.Accounts {
		l := c.add(a.Name)
		fn := read(a)
		b.pollList(outer, a.Name, func(ctx context.Context, _ func()) (leftOut, error) {
			v, rejected, err := fn(ctx)
			return leftOutOf(rejected, l.set(v, err))
		})
	}
	return collectorOrNil(outer, len(c.accounts))
}

// collectorOrNil is c, or nil (nothing to poll) when it has no accounts.
func collectorOrNil(c prometheus.Collector, accounts int) prometheus.Collector {
	if accounts == 0 {
		return nil
	}
	return c
}

// add keeps the answers of one more account, for an endpoint that polls it
// itself.
func (c *perAccount[T]) add(account string) *latest[T] {
	l := &latest[T]{account: account, changes: &c.changes}
	c.accounts = append(c.accounts, l)
	return l
}

// generation changes when an account's answer does.
func (c *perAccount[T]) generation() uint64 { return c.changes.Load() }

// Describe implements prometheus.Collector.
func (c *perAccount[T]) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range c.descs {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *perAccount[T]) Collect(ch chan<- prometheus.Metric) {
	for i := range c.accounts {
		c.collectAt(i, ch)
	}
}

// accountNames implements accountSplit.
func (c *perAccount[T]) accountNames() []string {
	return namesOf(c.accounts, func(i int) string { return c.accounts[i].account })
}

// collectAt implements accountSplit.
func (c *perAccount[T]) collectAt(i int, ch chan<- prometheus.Metric) {
	if v := c.accounts[i].load(); v != nil {
		c.emit(ch, c.accounts[i].account, v)
	}
}

// generationAt implements accountSplit.
func (c *perAccount[T]) generationAt(i int) uint64 { return c.accounts[i].own.Load() }

// latest is what one account's last successful poll of an endpoint read.
type latest[T any] struct {
	account string
	v       atomic.Pointer[T]
	// changes is the collector's count of changed answers (perAccount),
	// own the account's.
	changes *atomic.Uint64
	own     atomic.Uint64
}

// set keeps v unless err: after a failed poll the last good answer stays.
func (l *latest[T]) set(v T, err error) error {
	if err != nil {
		return err
	}
	if old := l.v.Load(); old != nil && same(old, &v) {
		return nil
	}
	l.v.Store(&v)
	l.own.Add(1)
	l.changes.Add(1)
	return nil
}

// load is the last good answer; nil before the first.
func (l *latest[T]) load() *T { return l.v.Load() }

// gauge is one decimal field of a row exported as a gauge; a field the
// exchange did not send (nil) is not exported.
type gauge[R any] struct {
	desc  *prometheus.Desc
	field func(*R) *decimal.Decimal
}

// emitGauges exports every field of row that is set, with labels.
func emitGauges[R any](ch chan<- prometheus.Metric, gauges []gauge[R], row *R, labels ...string) {
	for _, g := range gauges {
		if v := g.field(row); v != nil {
			ch <- prometheus.MustNewConstMetric(g.desc, prometheus.GaugeValue, v.InexactFloat64(), labels...)
		}
	}
}

// descsOf is the descs of gauges, after more.
func descsOf[R any](gauges []gauge[R], more ...*prometheus.Desc) []*prometheus.Desc {
	for _, g := range gauges {
		more = append(more, g.desc)
	}
	return more
}
