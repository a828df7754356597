package collector

import (
	"reflect"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
)

// latest is what one account's last successful poll of an endpoint read.
type latest[T any] struct {
	account string
	v       atomic.Pointer[T]
	// changes counts, for the whole collector, the answers that differed
	// from the one before: the collector's generation, so an unchanged
	// answer is neither gathered nor encoded again.
	changes *atomic.Uint64
}

// set keeps v unless err: after a failed poll the last good answer stays.
func (l *latest[T]) set(v T, err error) error {
	if err != nil {
		return err
	}
	if old := l.v.Load(); old != nil && reflect.DeepEqual(*old, v) {
		return nil
	}
	l.v.Store(&v)
	l.changes.Add(1)
	return nil
}

// load is the last good answer; nil before the first.
func (l *latest[T]) load() *T { return l.v.Load() }

// collectorOrNil is c, or nil (nothing to poll) when it has no accounts.
func collectorOrNil(c prometheus.Collector, accounts int) prometheus.Collector {
	if accounts == 0 {
		return nil
	}
	return c
}
