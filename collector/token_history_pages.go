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

// errStopPaging ends a read after its first page.
var errStopPaging = errors.New("first page read")

// read is what one read of a query window brought.
type read struct {
	check ledger.PollCheck
	pages int
	// times are the timestamps of every sampleEvery-th record read, for
	// cutting the query window into slices; serverMs is the latest server time of
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
func (a *historyAccount) readWindow(ctx context.Context, src historySource, start, end int64, firstOnly bool) (*read, error) {
	size := src.pageSize
	rd := &read{sampleEvery: max(1, size/64)}
	err := src.pages(ctx, client.HistoryQuery{StartTime: start, EndTime: end, PageSize: size}, func(p client.HistoryPage) error {
		recs := toLedger(p.Records)
		cp := ledger.Page{Records: recs, Total: p.Meta.Total}
		for _, m := range p.Malformed {
			if a.skipped[m.Key] {
				cp.Others = append(cp.Others, m.Key)
				a.leftOut[m.Key] = true
			} else {
				rd.malformed = append(rd.malformed, m)
			}
		}
		rd.check.Page(cp)
		rd.pages++
		rd.serverMs = max(rd.serverMs, p.ServerTimeMs)
		obs := a.l.ObservePage(recs, end)
		if obs.Counted > 0 {
			a.countedRecords()
		}
		if obs.Outside > 0 {
			a.count(&a.outside, obs.Outside)
		}
		rd.unplaceable = append(rd.unplaceable, obs.Unplaceable...)
		for _, rec := range p.Records {
			if rd.rows%rd.sampleEvery == 0 {
				rd.times = append(rd.times, rec.Timestamp)
			}
			rd.rows++
		}
		if firstOnly {
			return errStopPaging
		}
		return nil
	})
	if errors.Is(err, errStopPaging) {
		err = nil
	}
	return rd, err
}

// rowErrors fails the poll for rows it cannot count: rows too old to tell
// apart from records counted before, and malformed rows until they have
// failed SkipMalformedAfter polls, when they are skipped and counted as such.
func (a *historyAccount) rowErrors(rd *read) error {
	var errs []error
	if n := len(rd.unplaceable); n > 0 {
		u := rd.unplaceable[0]
		errs = append(errs, fmt.Errorf("%d token history rows lie before the remembered window and cannot be counted exactly once, "+
			"the first id %d at %s (is the exchange ignoring startTime, or sending times in another unit?)",
			n, u.ID, time.UnixMilli(u.TimestampMs).UTC().Format(time.RFC3339Nano)))
	}
	failing := 0
	for _, m := range rd.malformed {
		if a.skipped[m.Key] {
			continue
		}
		a.malformedFails[m.Key]++
		if n := a.opts.skipMalformedAfter; n > 0 && a.malformedFails[m.Key] >= n {
			delete(a.malformedFails, m.Key)
			a.skipped[m.Key] = true
			a.leftOut[m.Key] = true
			a.count(&a.malformed, 1)
			a.note(level.Warn, "skipping a malformed token history row; its amount is not counted",
				"id", m.ID, "row", m.Key, "failed_polls", n, "err", m.Err)
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
// every slice fitted; it gives up, leaving the query window to Finish, after a
// bounded number of requests or at a millisecond that holds more than a page.
func (a *historyAccount) readInSlices(ctx context.Context, src historySource, start, end int64, first *read) (bool, error) {
	type slice struct{ from, to int64 }
	var todo []slice
	slices.Sort(first.times)
	from := start
	size := src.pageSize
	step := max(1, size/2/first.sampleEvery)
	for i := step; i < len(first.times); i += step {
		if t := first.times[i]; t > from && t < end {
			todo = append(todo, slice{from, t})
			from = t
		}
	}
	todo = append(todo, slice{from, end})
	pagesLeft := 2*first.pages + 4
	for len(todo) > 0 {
		if pagesLeft == 0 {
			return false, nil
		}
		pagesLeft--
		s := todo[0]
		todo = todo[1:]
		// Slices share their boundary millisecond, so whether the exchange
		// includes startTime and endTime or not, no record falls between.
		rd, err := a.readWindow(ctx, src, s.from, s.to, true)
		if err != nil {
			return false, err
		}
		if err := a.rowErrors(rd); err != nil {
			return false, err
		}
		if rd.pages > 0 && rd.check.Distinct() >= rd.check.Total() && rd.check.Distinct() < size {
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

// sweep reads a few slices of the late sweep (see the package comment),
// unless the regular poll needed many pages.
func (a *historyAccount) sweep(ctx context.Context, src historySource, pages int) error {
	if a.opts.lateInterval <= 0 || pages > sweepSkipAfterPages {
		return nil
	}
	now, _ := src.now()
	size := src.pageSize
	for range sweepRequestsPerPoll {
		from, to, ok := a.l.NextSweep(now, a.opts.lateInterval)
		if !ok {
			return nil
		}
		// One millisecond beyond each side, so the slice is whole whether
		// the exchange includes the bounds or not; SweepRead keeps [from, to].
		var recs []ledger.Record
		total, rows := 0, 0
		err := src.pages(ctx, client.HistoryQuery{StartTime: from - 1, EndTime: to + 1, PageSize: size}, func(p client.HistoryPage) error {
			recs, total = toLedger(p.Records), p.Meta.Total
			rows = len(p.Records) + len(p.Malformed)
			return errStopPaging
		})
		if err != nil && !errors.Is(err, errStopPaging) {
			return fmt.Errorf("late sweep: %w", err)
		}
		if n := a.l.SweepRead(from, to, recs, rows < size && rows >= total); n > 0 {
			a.countedRecords()
			a.note(level.Info, "late sweep counted token history records the regular polls missed; consider a longer --token-history.overlap",
				"records", n, "from_ms", from, "to_ms", to)
		}
	}
	return nil
}
