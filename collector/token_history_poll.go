package collector

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

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

// errStopPaging ends a read after its first page.
var errStopPaging = errors.New("first page read")

func toLedger(recs []client.HistoryRecord) []ledger.Record {
	out := make([]ledger.Record, len(recs))
	for i, r := range recs {
		out[i] = ledger.Record{ID: r.ID, Token: r.Token, Type: r.Type, Amount: r.Amount, TimestampMs: r.Timestamp}
	}
	return out
}

// read is what one read of a window brought.
type read struct {
	check ledger.PollCheck
	pages int
	// times are the timestamps of every sampleEvery-th record read, for
	// cutting the window into slices; serverMs is the latest server time of
	// an answer.
	times       []int64
	sampleEvery int
	rows        int
	serverMs    int64
	// unplaceable and malformed are the rows that fail the poll.
	unplaceable []ledger.Record
	malformed   []client.MalformedRow
}

// readWindow reads [start, end] page by page (only the first page when
// firstOnly), counting records as they arrive.
func (a *historyAccount) readWindow(ctx context.Context, start, end int64, firstOnly bool, progress func()) (*read, error) {
	r := &read{sampleEvery: max(1, a.pageSize/64)}
	err := a.api.TokenHistoryPages(ctx, client.HistoryQuery{StartTime: start, EndTime: end, PageSize: a.pageSize},
		func(p client.HistoryPage) error {
			recs := toLedger(p.Records)
			lp := ledger.Page{Records: recs, Total: p.Meta.Total}
			for _, m := range p.Malformed {
				if a.skipped[m.Key] {
					lp.Others = append(lp.Others, m.Key)
					a.leftOut[m.Key] = true
				} else {
					r.malformed = append(r.malformed, m)
				}
			}
			r.check.Page(lp)
			r.pages++
			r.serverMs = max(r.serverMs, p.ServerTimeMs)
			obs := a.ledger.ObservePage(recs, end)
			if obs.Counted > 0 {
				a.countedRecords()
			}
			if obs.Outside > 0 {
				a.outside.Add(uint64(obs.Outside))
				a.published.Add(1)
			}
			r.unplaceable = append(r.unplaceable, obs.Unplaceable...)
			for _, rec := range recs {
				if r.rows%r.sampleEvery == 0 {
					r.times = append(r.times, rec.TimestampMs)
				}
				r.rows++
			}
			progress()
			if firstOnly {
				return errStopPaging
			}
			return nil
		})
	if errors.Is(err, errStopPaging) {
		err = nil
	}
	return r, err
}

// poll reads the window [cursor, now] page by page, counting records as they
// arrive, and advances the cursor only when every record of the window has
// arrived (see ledger.Ledger.Finish); then it reads a few slices of the late
// sweep. It reports as left out the skipped malformed rows its window
// reads held (the late sweep's re-reads are not counted again).
func (a *historyAccount) poll(ctx context.Context, progress func()) (leftOut, error) {
	a.leftOut = map[string]bool{}
	if a.restored != nil {
		if err := a.judgeRestored(ctx); err != nil {
			return leftOut{}, err
		}
	}
	if err := a.pollWindow(ctx, progress); err != nil {
		return leftOut{}, err
	}
	return leftOut{skipped: len(a.leftOut)}, nil
}

// pollWindow is poll but for what it left out.
func (a *historyAccount) pollWindow(ctx context.Context, progress func()) error {
	start, end := a.ledger.Window(a.api.ServerNow().UnixMilli())
	r, err := a.readWindow(ctx, start, end, false, progress)
	// Saved whatever happens next: the cursor moves only in Finish, and
	// records already counted are remembered as seen.
	defer a.saveThenPublish(err == nil)
	if err != nil {
		return err
	}
	if err := a.rowErrors(r); err != nil {
		return err
	}
	// The window ends no later than the exchange's own clock confirmed: a
	// local clock or offset running ahead must not carry the cursor past
	// records that do not exist yet.
	if r.serverMs > 0 {
		end = min(end, max(r.serverMs, start))
	}
	// A short read, or one whose total changed while paging (records
	// listed back-dated into the window: a long poll nearly always sees
	// some, and re-reading the whole window would only take longer), is
	// read again in slices that fit one page: one page is one answer, so
	// nothing shifts within it.
	if r.check.Short() || r.check.Changed() {
		complete, err := a.readInSlices(ctx, start, end, r, progress)
		if err != nil {
			return err
		}
		if complete {
			a.ledger.Complete(end)
			a.shortStreak = false
			return a.sweep(ctx, r.pages, progress)
		}
	}
	result := a.ledger.Finish(&r.check, end)
	if result == ledger.PollComplete {
		a.shortStreak = false
		return a.sweep(ctx, r.pages, progress)
	}
	// Nothing is lost either way: what arrived is counted, and an
	// incomplete window is read again next poll.
	kv := []any{"account", a.name, "meta_total", r.check.Total(), "distinct_records", r.check.Distinct(),
		"total_changed", r.check.Changed(), "start_ms", start, "end_ms", end}
	if r.check.Changed() {
		// Records arriving is no fault of the exchange's: not counted as
		// inconsistent, which the alert blames on an overstated total.
		level.Info(a.logger).Log(append([]any{"msg", "token history records kept arriving in the window while it was read; re-reading it next poll"}, kv...)...)
		return nil
	}
	a.inconsistent.Add(1)
	a.published.Add(1) // the counter changed: regather
	switch {
	case result == ledger.PollIncomplete:
		level.Info(a.logger).Log(append([]any{"msg", "token history pages did not add up; re-reading the window next poll"}, kv...)...)
	case !a.shortStreak:
		a.shortStreak = true
		level.Warn(a.logger).Log(append([]any{"msg", "the exchange promises more token history records than it serves; " +
			"accepting the window since a re-read found nothing new"}, kv...)...)
	default:
		level.Debug(a.logger).Log(append([]any{"msg", "token history window accepted short again"}, kv...)...)
	}
	return nil
}

// rowErrors fails the poll for rows it cannot count: rows too old to tell
// apart from records counted before, and malformed rows until they have
// failed skipMalformedAfter polls, when they are skipped and counted as such.
func (a *historyAccount) rowErrors(r *read) error {
	var errs []error
	if n := len(r.unplaceable); n > 0 {
		u := r.unplaceable[0]
		errs = append(errs, fmt.Errorf("%d token history rows lie before the remembered window and cannot be counted exactly once, "+
			"the first id %d at %s (is the exchange ignoring startTime, or sending times in another unit?)",
			n, u.ID, time.UnixMilli(u.TimestampMs).UTC().Format(time.RFC3339Nano)))
	}
	failing := 0
	for _, m := range r.malformed {
		if a.skipped[m.Key] {
			continue
		}
		a.malformedFails[m.Key]++
		if n := a.opts.skipMalformedAfter; n > 0 && a.malformedFails[m.Key] >= n {
			delete(a.malformedFails, m.Key)
			a.skipped[m.Key] = true
			a.leftOut[m.Key] = true
			a.malformed.Add(1)
			a.published.Add(1)
			level.Warn(a.logger).Log("msg", "skipping a malformed token history row; its amount is not counted",
				"account", a.name, "id", m.ID, "row", m.Key, "failed_polls", n, "err", m.Err)
			continue
		}
		if failing == 0 {
			errs = append(errs, fmt.Errorf("malformed token history row id %q (%s): failed %d polls, skipped after %d (--token-history.skip-malformed-after)",
				m.ID, m.Err, a.malformedFails[m.Key], a.opts.skipMalformedAfter))
		}
		failing++
	}
	if failing > 1 {
		errs = append(errs, fmt.Errorf("%d more malformed rows", failing-1))
	}
	return errors.Join(errs...)
}

// readInSlices reads [start, end] again in time slices that each fit one
// page, cut where the first read's records suggest and halved where a slice
// still does not fit: offset paging can skip rows when the exchange orders
// rows that share a timestamp differently on each page. It reports whether
// every slice fitted; it gives up, leaving the window to Finish, after a
// bounded number of requests or at a millisecond that holds more than a page.
func (a *historyAccount) readInSlices(ctx context.Context, start, end int64, first *read, progress func()) (bool, error) {
	type slice struct{ from, to int64 }
	var todo []slice
	slices.Sort(first.times)
	from := start
	step := max(1, a.pageSize/2/first.sampleEvery)
	for i := step; i < len(first.times); i += step {
		if t := first.times[i]; t > from && t < end {
			todo = append(todo, slice{from, t})
			from = t
		}
	}
	todo = append(todo, slice{from, end})
	budget := 2*first.pages + 4
	for len(todo) > 0 {
		if budget == 0 {
			return false, nil
		}
		budget--
		s := todo[0]
		todo = todo[1:]
		// Slices share their boundary millisecond, so whether the exchange
		// includes startTime and endTime or not, no record falls between.
		r, err := a.readWindow(ctx, s.from, s.to, true, progress)
		if err != nil {
			return false, err
		}
		if err := a.rowErrors(r); err != nil {
			return false, err
		}
		if r.pages > 0 && r.check.Distinct() >= r.check.Total() && r.check.Distinct() < a.pageSize {
			continue
		}
		if s.to-s.from < 2 {
			return false, nil
		}
		mid := s.from + (s.to-s.from)/2
		todo = append([]slice{{s.from, mid}, {mid, s.to}}, todo...)
	}
	return true, nil
}

// sweep reads a few slices of the late sweep (see package ledger), unless
// the regular poll needed many pages.
func (a *historyAccount) sweep(ctx context.Context, pages int, progress func()) error {
	if a.opts.lateInterval <= 0 || pages > sweepSkipAfterPages {
		return nil
	}
	now := a.api.ServerNow().UnixMilli()
	for range sweepRequestsPerPoll {
		from, to, ok := a.ledger.NextSweep(now, a.opts.lateInterval)
		if !ok {
			return nil
		}
		// One millisecond beyond each side, so the slice is whole whether
		// the exchange includes the bounds or not; SweepRead keeps [from, to].
		var recs []ledger.Record
		var meta client.PageMeta
		rows := 0
		err := a.api.TokenHistoryPages(ctx, client.HistoryQuery{StartTime: from - 1, EndTime: to + 1, PageSize: a.pageSize},
			func(p client.HistoryPage) error {
				recs = toLedger(p.Records)
				meta = p.Meta
				rows = len(p.Records) + len(p.Malformed)
				progress()
				return errStopPaging
			})
		if err != nil && !errors.Is(err, errStopPaging) {
			return fmt.Errorf("late sweep: %w", err)
		}
		if n := a.ledger.SweepRead(from, to, recs, rows < a.pageSize && rows >= meta.Total); n > 0 {
			a.countedRecords()
			level.Info(a.logger).Log("msg", "late sweep counted token history records the regular polls missed; consider a longer --token-history.overlap",
				"account", a.name, "records", n, "from_ms", from, "to_ms", to)
		}
	}
	return nil
}
