package fakeexchange

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"time"

	"github.com/go-kit/log/level"
)

// Start runs the generators and timed events until ctx is done, once.
func (e *Exchange) Start(ctx context.Context) {
	e.startOnce.Do(func() {
		e.mu.Lock()
		e.started = e.now()
		for _, a := range e.accounts {
			if a.generator != nil {
				go e.generate(ctx, a.name, *a.generator)
			}
		}
		e.mu.Unlock()
		for _, ev := range e.s.Events {
			go e.runEvent(ctx, ev)
		}
	})
}

// runEvent applies the event after its delay, logging what fails.
func (e *Exchange) runEvent(ctx context.Context, ev Event) {
	if ev.After > 0 && !sleep(ctx, ev.After, nil) {
		return
	}
	if err := e.Apply(ev); err != nil {
		level.Error(e.logger).Log("msg", "scenario event failed", "after", ev.After, "err", err)
	}
	level.Info(e.logger).Log("msg", "scenario event applied", "after", ev.After)
}

// Apply applies the event's actions now, one failing not keeping the others; it
// panics on an invalid fault, as InjectFault does.
func (e *Exchange) Apply(ev Event) error {
	if ev.ClearFaults {
		e.ClearFaults()
	}
	if ev.Fault != nil {
		e.InjectFault(*ev.Fault)
	}
	var errs []error
	if ev.UnreadableRows != nil {
		errs = append(errs, e.setUnreadableRows(*ev.UnreadableRows))
	}
	for _, ep := range routes {
		if ep.apply == nil {
			continue
		}
		if err := ep.apply(e, ev); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", ep.Name, err))
		}
	}
	return errors.Join(errs...)
}

// generate appends a record every g.Every, cycling through types and tokens.
func (e *Exchange) generate(ctx context.Context, account string, g HistoryGenerator) {
	h := fnv.New64a()
	h.Write([]byte(account))
	rnd := rand.New(rand.NewPCG(h.Sum64(), 1))
	t := time.NewTicker(g.Every)
	defer t.Stop()
	for i := 0; ; i++ {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		typ := g.Types[i%len(g.Types)]
		recs, err := e.appendNow("generate history", account, 0, []HistoryRecord{{
			Type:   typ,
			Token:  g.Tokens[(i/len(g.Types))%len(g.Tokens)],
			Amount: randomAmount(rnd, outflow[typ]),
		}})
		if err != nil {
			level.Warn(e.logger).Log("msg", "generated history record rejected", "account", account, "err", err)
			continue
		}
		rec := recs[0]
		level.Debug(e.logger).Log("msg", "generated history record", "account", account, "id", rec.ID, "type", rec.Type, "token", rec.Token, "amount", rec.Amount)
	}
}

// outflow are the types generated negative; clients must take either sign.
var outflow = map[string]bool{
	"WITHDRAW": true, "FIAT_WITHDRAW": true, "TRANSACTION_FEE": true, "FUNDING_FEE": true,
	"INTEREST": true, "LIQUIDATION": true, "COPY_FEE": true, "UNSTAKING_FEE": true,
}

// randomAmount is an exact 8-place decimal in [0.00000001, 100].
func randomAmount(r *rand.Rand, negative bool) string {
	units := r.Int64N(100_0000_0000) + 1
	s := fmt.Sprintf("%d.%08d", units/1_0000_0000, units%1_0000_0000)
	if negative {
		s = "-" + s
	}
	return s
}
