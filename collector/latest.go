package collector

import (
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
)

// latest is what one account's last successful poll of an endpoint read.
type latest[T any] struct {
	account string
	v       atomic.Pointer[T]
}

// set keeps v unless err: after a failed poll the last good answer stays.
func (l *latest[T]) set(v T, err error) error {
	if err != nil {
		return err
	}
	l.v.Store(&v)
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
