package collector

import (
	"sync/atomic"

	"github.com/go-kit/log"
	"github.com/go-kit/log/level"

	"github.com/woox-exporter/woox_exporter/ledger"
)

// show makes s what scrapes read. Totals are shown between pages, not only
// at the end of a poll, so that a long catch-up shows its progress; with a
// state file, s holds only saved totals.
func (a *historyAccount) show(s ledger.Snapshot) {
	if a.cap != nil {
		a.cap.note(int(s.FoldedRecords - a.folded))
	}
	a.folded = s.FoldedRecords
	a.snap.Store(&s)
	a.published.Add(1)
}

// count adds n to the poll counter c.
func (a *historyAccount) count(c *atomic.Uint64, n int) {
	c.Add(uint64(n))
	a.published.Add(1) // a counter changed: regather
}

// note is a line for the log, about the account polled.
func (a *historyAccount) note(lvl func(log.Logger) log.Logger, msg string, kv ...any) {
	lvl(a.logger).Log(append([]any{"msg", msg, "account", a.name}, kv...)...)
}

func (a *historyAccount) publish() { a.show(a.l.Snapshot()) }

// countedRecords publishes the ledger's totals after records were counted,
// or, with a state file, leaves them for saveThenPublish: a counter shown
// before it is saved would go back after a crash, which Prometheus reads
// as a reset and turns into a spike of the account's whole history.
func (a *historyAccount) countedRecords() {
	if a.save == nil {
		a.publish()
		return
	}
	a.unsaved = true
}

// saveThenPublish ends a poll with a state file: it saves the ledger state
// when the poll read every page (the cursor may have moved) or counted a
// record, and publishes the totals once they are saved. After a failed
// write the totals shown stay the saved ones until a write succeeds.
func (a *historyAccount) saveThenPublish(readAll bool) {
	if a.save == nil || (!readAll && !a.unsaved) {
		return
	}
	if err := a.save(a.name, a.l.Export()); err != nil {
		a.note(level.Error, "cannot save token history state", "err", err)
		return
	}
	if a.unsaved {
		a.unsaved = false
		a.publish()
	}
}
