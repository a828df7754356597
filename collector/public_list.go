package collector

import (
	"context"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/client"
)

// publicList is the collector of a public list endpoint: the rows of its
// last successful poll, exported by emit.
type publicList[R any] struct {
	rows    latest[[]R]
	changes atomic.Uint64
	descs   []*prometheus.Desc
	emit    func(ch chan<- prometheus.Metric, rows []R)
}

// pollPublic polls a public list endpoint once per exporter with read, nil
// when the public API cannot read it (then there is nothing to poll), and
// keeps its rows within the series cap.
func pollPublic[R any](b *builder, descs []*prometheus.Desc, emit func(ch chan<- prometheus.Metric, rows []R),
	read func(context.Context) ([]R, []client.RejectedRow, error)) prometheus.Collector {
	if b.cfg.Public == nil || read == nil {
		return nil
	}
	c := &publicList[R]{descs: descs, emit: emit}
	c.rows.changes = &c.changes
	sc := b.seriesCap("")
	b.pollList(c, "", func(ctx context.Context, _ func()) (leftOut, error) {
		rows, rejected, err := read(ctx)
		return leftOutOf(rejected, c.rows.set(capRows(sc, rows), err))
	})
	return c
}

// generation changes when a poll brought different rows.
func (c *publicList[R]) generation() uint64 { return c.changes.Load() }

// Describe implements prometheus.Collector.
func (c *publicList[R]) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range c.descs {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *publicList[R]) Collect(ch chan<- prometheus.Metric) {
	if rows := c.rows.load(); rows != nil {
		c.emit(ch, *rows)
	}
}
