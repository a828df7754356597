package collector

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/go-kit/log"
	"github.com/go-kit/log/level"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/ledger"
)

// Sweep pacing: a few slices per poll keep the regular poll's requests
// within its interval's budget.
const (
	sweepRequestsPerPoll = 2
	// sweepSkipAfterPages: a poll that needed more pages is catching up,
	// and the sweep waits for a quieter one.
	sweepSkipAfterPages = 2
)

// historyAccount polls one account's token history into its ledger
// (query windows, slices, the late sweep, the consistency checks, malformed rows,
// the order of saving and publishing) and shows what it finds. The ledger
// does the arithmetic; the loop and its I/O are here.
type historyAccount struct {
	name string
	api  TokenHistoryAPI
	opts historyOptions
	// l is the ledger the polls count into; inUse is the same, as others
	// find it.
	l      *ledger.Ledger
	inUse  *ledgerInUse
	logger log.Logger
	// pageSize is the rows per history page; tests lower it to page a lot.
	pageSize int
	// snap is what scrapes read; published counts the changes of what
	// they read.
	snap      atomic.Pointer[ledger.Snapshot]
	published atomic.Uint64
	// cap counts the records the ledger counted under ledger.Other (see
	// Config.SeriesPerEndpoint), folded up to the last publication.
	cap    *seriesCap
	folded uint64
	// save is historyOptions.save; tests swap it.
	save         func(account string, st ledger.State) error
	inconsistent atomic.Uint64
	outside      atomic.Uint64
	malformed    atomic.Uint64

	// restored is the saved state until judged (see judge).
	restored *restoredState
	// resume is set until the first poll of a ledger that was counting
	// before (restored from the state file, or handed off by a reload):
	// that poll reads only what came after its newest record.
	resume bool
	// firstPoll says what the first poll reads, for the line that tells
	// of one slower than slowFirst; "" once it is done.
	firstPoll string
	slowFirst time.Duration
	// unsaved is set while records counted are not yet saved, so not yet
	// published.
	unsaved bool
	// shortStreak is set while query windows are accepted short, so that this
	// is warned about once, not on every poll.
	shortStreak bool
	// malformedFails counts the failed polls of each malformed row not yet
	// skipped; skipped holds the rows skipped. A restart starts both afresh.
	malformedFails map[string]int
	skipped        map[string]bool
	// leftOut holds the skipped rows the current poll read.
	leftOut map[string]bool
}

// newHistoryAccount polls l, after judging restored (nil when l does not
// come from the state file). It shows l's totals until it polls.
func newHistoryAccount(name string, api TokenHistoryAPI, l *ledger.Ledger, restored *restoredState, opts historyOptions,
	logger log.Logger) *historyAccount {
	a := &historyAccount{name: name, api: api, opts: opts, l: l, inUse: newLedgerInUse(l), logger: logger,
		pageSize: client.MaxPageSize, save: opts.save, restored: restored,
		malformedFails: map[string]int{}, skipped: map[string]bool{}, leftOut: map[string]bool{}}
	_, a.resume = l.Newest()
	a.firstPoll, a.slowFirst = "a first start reads --token-history.lookback", slowFirstPoll
	if a.resume {
		a.firstPoll = "it read what arrived while no exporter read, from the newest record counted before"
	}
	a.show(l.Snapshot())
	return a
}

// judged reports whether the restored state was judged, or there was none:
// until then the state file's copy is the one to hand on.
func (a *historyAccount) judged() bool { return a.restored == nil }

// poll is one poll of the account's token history: it reads the query window
// [cursor, now] page by page, counting records as they arrive, and advances
// the cursor only when every record of the query window has arrived (see
// ledger.Ledger.Finish); then it reads a few slices of the late sweep. It
// reports as left out the skipped malformed rows its query window reads held (the
// late sweep's re-reads are not counted again).
func (a *historyAccount) poll(ctx context.Context, progress func()) (leftOut, error) {
	src := historySource{api: a.api, pageSize: a.pageSize, progress: progress}
	a.leftOut = map[string]bool{}
	if a.restored != nil {
		if err := a.judge(ctx, src); err != nil {
			return leftOut{}, err
		}
	}
	poll := a.pollWindow
	if a.resume {
		poll = a.pollResumed
	}
	began := time.Now()
	if err := poll(ctx, src); err != nil {
		return leftOut{}, err
	}
	if took := time.Since(began); a.firstPoll != "" && took > a.slowFirst {
		a.note(level.Info, "the first token history poll took long", "took", took.Round(time.Millisecond), "because", a.firstPoll)
	}
	a.firstPoll = ""
	return leftOut{skipped: len(a.leftOut)}, nil
}

// slowFirstPoll is how long a first poll may take before a line says why:
// a restart is ready well within it.
const slowFirstPoll = 10 * time.Second

// pollResumed is the first poll of a ledger that was counting before a
// restart or a reload: it reads what came after the newest record the
// ledger holds, which is what arrived while no exporter read, and leaves
// the cursor where it is. The query window behind it, which the ledger read
// before, is read again by the next poll, records listed late included:
// a restart is ready after the pages of its downtime, not after the whole
// overlap at the pace of the budget.
func (a *historyAccount) pollResumed(ctx context.Context, src historySource) error {
	newest, ok := a.l.Newest()
	if !ok {
		return a.pollWindow(ctx, src)
	}
	now, _ := src.now()
	start := max(a.l.Start(), newest)
	rd, err := a.readWindow(ctx, src, start, max(now, start), false)
	defer a.saveThenPublish(err == nil)
	if err != nil {
		return err
	}
	a.resume = false
	return a.rowErrors(rd)
}

// pollWindow is poll but for what it left out.
func (a *historyAccount) pollWindow(ctx context.Context, src historySource) error {
	now, _ := src.now()
	start, end := a.l.QueryWindow(now)
	rd, err := a.readWindow(ctx, src, start, end, false)
	// Saved whatever happens next: the cursor moves only in Finish, and
	// records already counted are remembered as seen.
	defer a.saveThenPublish(err == nil)
	if err != nil {
		return err
	}
	if err := a.rowErrors(rd); err != nil {
		return err
	}
	// The query window ends no later than the exchange's own clock confirmed: a
	// local clock or offset running ahead must not carry the cursor past
	// records that do not exist yet.
	if rd.serverMs > 0 {
		end = min(end, max(rd.serverMs, start))
	}
	// A short read, or one whose total changed while paging (records
	// listed back-dated into the query window: a long poll nearly always sees
	// some, and re-reading the whole query window would only take longer), is
	// read again in slices that fit one page: one page is one answer, so
	// nothing shifts within it.
	if rd.check.Short() || rd.check.Changed() {
		complete, err := a.readInSlices(ctx, src, start, end, rd)
		if err != nil {
			return err
		}
		if complete {
			a.l.Complete(end)
			a.shortStreak = false
			return a.sweep(ctx, src, rd.pages)
		}
	}
	result := a.l.Finish(&rd.check, end)
	if result == ledger.PollComplete {
		a.shortStreak = false
		return a.sweep(ctx, src, rd.pages)
	}
	a.incomplete(rd, result, start, end)
	return nil
}

// incomplete tells of a query window that was not read completely. Nothing is
// lost either way: what arrived is counted, and an incomplete query window is
// read again next poll.
func (a *historyAccount) incomplete(rd *read, result ledger.PollResult, start, end int64) {
	kv := []any{"meta_total", rd.check.Total(), "distinct_records", rd.check.Distinct(),
		"total_changed", rd.check.Changed(), "start_ms", start, "end_ms", end}
	if rd.check.Changed() {
		// Records arriving is no fault of the exchange's: not counted as
		// inconsistent, which the alert blames on an overstated total.
		a.note(level.Info, "token history records kept arriving in the window while it was read; re-reading it next poll", kv...)
		return
	}
	a.count(&a.inconsistent, 1)
	switch {
	case result == ledger.PollIncomplete:
		a.note(level.Info, "token history pages did not add up; re-reading the window next poll", kv...)
	case !a.shortStreak:
		a.shortStreak = true
		a.note(level.Warn, "the exchange promises more token history records than it serves; "+
			"accepting the window since a re-read found nothing new", kv...)
	default:
		a.note(level.Debug, "token history window accepted short again", kv...)
	}
}
