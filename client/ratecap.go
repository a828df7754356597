package client

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/woox-exporter/woox_exporter/ratelimit"
)

// DefaultMaxRequestsPerSecond is derived in docs/reliability.md.
const DefaultMaxRequestsPerSecond = 600

// RateCap bounds the requests a second of every client sharing it: the
// exchange sees one IP address and may limit it below what it publishes. A
// nil *RateCap caps nothing.
type RateCap = ratelimit.Cap

// NewRateCap returns a cap of perSecond requests a second, nil when
// perSecond is not positive; m, when set, shows it. Callers that cancel
// stalled work add its LongestWait to LongestRequest.
func NewRateCap(perSecond float64, m *Metrics) *RateCap {
	var o ratelimit.Observer
	if m != nil {
		o = capMetrics{m}
	}
	r := ratelimit.NewCap(perSecond, DefaultMaxRetries+4, o)
	if m != nil && r != nil {
		m.capLimit.Set(perSecond)
	}
	return r
}

// capMetrics shows a rate cap in Metrics.
type capMetrics struct{ m *Metrics }

func (c capMetrics) Account(name string) func(time.Duration) {
	a := c.m.account(name)
	a.joinCap()
	return a.admit
}

func (c capMetrics) Queued(n int) { c.m.capQueued.Set(float64(n)) }

// OnTurn calls run once the rate cap gives the account a slot, with a
// context whose first request uses it, so that a poll due while many wait
// holds no goroutine (see RateCap.Reserve). Without a cap, or once ctx is
// done, run is called at once.
func (c *Client) OnTurn(ctx context.Context, run func(context.Context)) {
	account := c.cfg.Account
	c.cfg.RateCap.Reserve(ctx, account, func(slot time.Time, err error) {
		if err != nil || c.cfg.RateCap == nil {
			run(ctx)
			return
		}
		run(context.WithValue(ctx, reservedSlotKey{}, &reservedSlot{account: account, slot: slot}))
	})
}

// reservedSlot is a slot OnTurn got, for its account's first request.
type reservedSlot struct {
	account string
	slot    time.Time
	used    atomic.Bool
}

type reservedSlotKey struct{}

// waitTurn waits for the account's slot under the cap, unless ctx carries a
// fresh one OnTurn reserved.
func (c *Client) waitTurn(ctx context.Context) error {
	if s, ok := ctx.Value(reservedSlotKey{}).(*reservedSlot); ok && s.account == c.cfg.Account &&
		c.cfg.RateCap.Fresh(s.slot) && s.used.CompareAndSwap(false, true) {
		return nil
	}
	_, err := c.cfg.RateCap.Wait(ctx, c.cfg.Account)
	return err
}
