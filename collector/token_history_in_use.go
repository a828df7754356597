package collector

import (
	"sync/atomic"

	"github.com/woox-exporter/woox_exporter/ledger"
)

// ledgerInUse is an account's token history ledger as the balances poller
// and the exporter find it: the history poller replaces it when it sets
// the account's saved state aside.
type ledgerInUse struct {
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

func newLedgerInUse(l *ledger.Ledger) *ledgerInUse {
	ll := &ledgerInUse{}
	ll.p.Store(&ledgerSince{l: l})
	return ll
}

// Load is the ledger in use.
func (ll *ledgerInUse) Load() *ledger.Ledger { return ll.p.Load().l }

// ReconcileGeneration changes whenever the unexplained changes may have,
// a replacement of the ledger included.
func (ll *ledgerInUse) ReconcileGeneration() uint64 {
	cur := ll.p.Load()
	return cur.base + cur.l.ReconcileGeneration()
}

// ReconcileBalances turns reconciliation on, for replacements too.
func (ll *ledgerInUse) ReconcileBalances() {
	ll.reconcile.Store(true)
	ll.Load().ReconcileBalances()
}

func (ll *ledgerInUse) replace(l *ledger.Ledger) {
	if ll.reconcile.Load() {
		l.ReconcileBalances()
	}
	old := ll.p.Load()
	ll.p.Store(&ledgerSince{l: l, base: old.base + old.l.ReconcileGeneration() + 1})
}
