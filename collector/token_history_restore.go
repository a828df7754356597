package collector

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/go-kit/log/level"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/ledger"
)

// liveLedger is an account's token history ledger as the balances poller
// and the exporter find it: the history poller replaces it when it sets
// the account's saved state aside.
type liveLedger struct {
	p atomic.Pointer[ledgerSince]
	// reconcile is set once the balances are reconciled against it, so a
	// replacement is too.
	reconcile atomic.Bool
}

// ledgerSince is a ledger with the reconcile generations of the ledgers it
// replaced, so that the account's generation never repeats one.
type ledgerSince struct {
	l    *ledger.Ledger
	base uint64
}

func newLiveLedger(l *ledger.Ledger) *liveLedger {
	ll := &liveLedger{}
	ll.p.Store(&ledgerSince{l: l})
	return ll
}

// Load is the ledger in use.
func (ll *liveLedger) Load() *ledger.Ledger { return ll.p.Load().l }

// ReconcileGeneration changes whenever the unexplained changes may have,
// a replacement of the ledger included.
func (ll *liveLedger) ReconcileGeneration() uint64 {
	cur := ll.p.Load()
	return cur.base + cur.l.ReconcileGeneration()
}

// ReconcileBalances turns reconciliation on, for replacements too.
func (ll *liveLedger) ReconcileBalances() {
	ll.reconcile.Store(true)
	ll.Load().ReconcileBalances()
}

func (ll *liveLedger) replace(l *ledger.Ledger) {
	if ll.reconcile.Load() {
		l.ReconcileBalances()
	}
	old := ll.p.Load()
	ll.p.Store(&ledgerSince{l: l, base: old.base + old.l.ReconcileGeneration() + 1})
}

// restored is a saved state not yet judged: a host whose clock is behind at
// boot would find a good cursor in its future, so the cursor is judged
// against the exchange's clock, which is known only after an answer.
type restored struct {
	state ledger.State
	// fresh is the ledger of a fresh start at the exchange's time nowMs.
	fresh func(nowMs int64) *ledger.Ledger
	// setAside moves the account's saved state out of the state file.
	setAside func(account string, now time.Time) (string, error)
}

// judgeRestored checks the restored state's cursor against the exchange's
// clock before the first poll; an impossible one is set aside for this
// account alone and its counting starts afresh.
func (a *historyAccount) judgeRestored(ctx context.Context) error {
	r := a.restored
	nowMs, err := a.exchangeNowMs(ctx, r.state.StartMs)
	if err != nil {
		return err
	}
	a.restored = nil
	cerr := r.state.Check(nowMs)
	if cerr == nil {
		return nil
	}
	aside, err := r.setAside(a.name, time.Now())
	level.Warn(a.logger).Log("msg", "saved token history state of the account is impossible: set aside, its counters start from zero",
		"account", a.name, "set_aside_as", aside, "err", errors.Join(cerr, err))
	l := r.fresh(nowMs)
	a.ledger = l
	a.live.replace(l)
	a.publish()
	return nil
}

// exchangeNowMs is the exchange's time: from the clock the clients share
// once an answer set it, else from the envelope of one small read. Before
// any answer, a cursor the local clock already accepts costs no read.
func (a *historyAccount) exchangeNowMs(ctx context.Context, cursorMs int64) (int64, error) {
	local := a.api.ServerNow().UnixMilli()
	if _, ok := a.api.ClockOffset(); ok || cursorMs <= local+ledger.MaxFutureCursor.Milliseconds() {
		return local, nil
	}
	var serverMs int64
	err := a.api.TokenHistoryPages(ctx, client.HistoryQuery{StartTime: local - time.Minute.Milliseconds(), EndTime: local, PageSize: 1},
		func(p client.HistoryPage) error {
			serverMs = p.ServerTimeMs
			return errStopPaging
		})
	if err != nil && !errors.Is(err, errStopPaging) {
		return 0, fmt.Errorf("read the exchange's time to judge the saved token history: %w", err)
	}
	if _, ok := a.api.ClockOffset(); ok || serverMs == 0 {
		// Without a time in the answer, the local clock is all there is.
		return a.api.ServerNow().UnixMilli(), nil
	}
	return serverMs, nil
}
