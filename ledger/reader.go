package ledger

import (
	"context"
	"time"
)

// Query asks for the token history rows with timestamps in [StartMs, EndMs],
// PageSize rows a page.
type Query struct {
	StartMs, EndMs int64
	PageSize       int
}

// FetchedPage is one page of token history as the exchange answered it.
type FetchedPage struct {
	// Records are the rows that could be read.
	Records []Record
	// Malformed are the rows that could not be read; they count toward
	// Total all the same.
	Malformed []MalformedRow
	// Total is meta.total as the exchange sent it.
	Total int
	// ServerTimeMs is the exchange's time in the answer, 0 when it had none.
	ServerTimeMs int64
}

// MalformedRow is a row of a page that could not be read.
type MalformedRow struct {
	// Key identifies the row from one poll to the next; ID is its id as
	// sent ("" when unreadable); Err says what is wrong with it.
	Key, ID, Err string
}

// Source is where a Reader reads an account's token history.
type Source interface {
	// Pages reads the rows of q page by page, in the exchange's order,
	// handing each page to fn; it stops at the first error, fn's included,
	// and returns it.
	Pages(ctx context.Context, q Query, fn func(FetchedPage) error) error
	// Now is the exchange's time, in Unix ms, as the local clock corrected
	// by the last offset an answer told; known is false before one did.
	Now() (ms int64, known bool)
	// PageSize is the rows of a full page.
	PageSize() int
}

// ReaderConfig sets how a Reader polls.
type ReaderConfig struct {
	// LateInterval is how often the late sweep starts; zero disables it.
	LateInterval time.Duration
	// SkipMalformedAfter is how many failed polls a malformed row causes
	// before it is skipped; zero never skips.
	SkipMalformedAfter int
	// Save writes the ledger state to the state file; nil without one.
	// With one, totals are published only once it holds them.
	Save func(State) error
	// Restored is a saved state to judge before the first poll, nil when
	// the ledger does not come from the state file.
	Restored *Restored
}

// Restored is a saved state not yet judged: a host whose clock is behind at
// boot would find a good cursor in its future, so the cursor is judged
// against the exchange's clock, which is known only after an answer.
type Restored struct {
	State State
	// Fresh is the ledger of a fresh start at the exchange's time nowMs.
	Fresh func(nowMs int64) *Ledger
	// SetAside moves the account's saved state out of the state file and
	// says where to.
	SetAside func() (string, error)
}

// Sweep pacing: a few slices per poll keep the regular poll's requests
// within its interval's budget.
const (
	sweepRequestsPerPoll = 2
	// sweepSkipAfterPages: a poll that needed more pages is catching up,
	// and the sweep waits for a quieter one.
	sweepSkipAfterPages = 2
)

// Reader polls one account's token history into its Ledger: windows,
// slices, the late sweep, the consistency checks, malformed rows, and the
// order of saving and publishing. It is the poller's alone; what it finds
// it tells its Observer.
type Reader struct {
	l   *Ledger
	cfg ReaderConfig
	obs Observer
	// restored is the saved state until judged (see judge).
	restored *Restored
	// unsaved is set while records counted are not yet saved, so not yet
	// published.
	unsaved bool
	// shortStreak is set while windows are accepted short, so that this
	// is warned about once, not on every poll.
	shortStreak bool
	// malformedFails counts the failed polls of each malformed row not yet
	// skipped; skipped holds the rows skipped. A restart starts both afresh.
	malformedFails map[string]int
	skipped        map[string]bool
	// leftOut holds the skipped rows the current poll read.
	leftOut map[string]bool
}

// NewReader returns the Reader of l. It publishes nothing until it polls.
func NewReader(l *Ledger, cfg ReaderConfig, obs Observer) *Reader {
	return &Reader{l: l, cfg: cfg, obs: obs, restored: cfg.Restored,
		malformedFails: map[string]int{}, skipped: map[string]bool{}, leftOut: map[string]bool{}}
}

// Judged reports whether the restored state was judged, or there was none:
// until then the state file's copy is the one to hand on.
func (r *Reader) Judged() bool { return r.restored == nil }

// Poll reads the window [cursor, now] page by page, counting records as
// they arrive, and advances the cursor only when every record of the window
// has arrived (see Ledger.Finish); then it reads a few slices of the late
// sweep. It returns how many skipped malformed rows its window reads held
// (the late sweep's re-reads are not counted again).
func (r *Reader) Poll(ctx context.Context, src Source) (leftOut int, err error) {
	r.leftOut = map[string]bool{}
	if r.restored != nil {
		if err := r.judge(ctx, src); err != nil {
			return 0, err
		}
	}
	if err := r.pollWindow(ctx, src); err != nil {
		return 0, err
	}
	return len(r.leftOut), nil
}

// pollWindow is Poll but for what it left out.
func (r *Reader) pollWindow(ctx context.Context, src Source) error {
	now, _ := src.Now()
	start, end := r.l.Window(now)
	rd, err := r.readWindow(ctx, src, start, end, false)
	// Saved whatever happens next: the cursor moves only in Finish, and
	// records already counted are remembered as seen.
	defer r.saveThenPublish(err == nil)
	if err != nil {
		return err
	}
	if err := r.rowErrors(rd); err != nil {
		return err
	}
	// The window ends no later than the exchange's own clock confirmed: a
	// local clock or offset running ahead must not carry the cursor past
	// records that do not exist yet.
	if rd.serverMs > 0 {
		end = min(end, max(rd.serverMs, start))
	}
	// A short read, or one whose total changed while paging (records
	// listed back-dated into the window: a long poll nearly always sees
	// some, and re-reading the whole window would only take longer), is
	// read again in slices that fit one page: one page is one answer, so
	// nothing shifts within it.
	if rd.check.Short() || rd.check.Changed() {
		complete, err := r.readInSlices(ctx, src, start, end, rd)
		if err != nil {
			return err
		}
		if complete {
			r.l.Complete(end)
			r.shortStreak = false
			return r.sweep(ctx, src, rd.pages)
		}
	}
	result := r.l.Finish(&rd.check, end)
	if result == PollComplete {
		r.shortStreak = false
		return r.sweep(ctx, src, rd.pages)
	}
	r.incomplete(rd, result, start, end)
	return nil
}

// incomplete tells of a window that was not read completely. Nothing is
// lost either way: what arrived is counted, and an incomplete window is
// read again next poll.
func (r *Reader) incomplete(rd *read, result PollResult, start, end int64) {
	kv := []any{"meta_total", rd.check.Total(), "distinct_records", rd.check.Distinct(),
		"total_changed", rd.check.Changed(), "start_ms", start, "end_ms", end}
	if rd.check.Changed() {
		// Records arriving is no fault of the exchange's: not counted as
		// inconsistent, which the alert blames on an overstated total.
		r.note(NoteInfo, "token history records kept arriving in the window while it was read; re-reading it next poll", kv...)
		return
	}
	r.obs.Count(Counts{Inconsistent: 1})
	switch {
	case result == PollIncomplete:
		r.note(NoteInfo, "token history pages did not add up; re-reading the window next poll", kv...)
	case !r.shortStreak:
		r.shortStreak = true
		r.note(NoteWarn, "the exchange promises more token history records than it serves; "+
			"accepting the window since a re-read found nothing new", kv...)
	default:
		r.note(NoteDebug, "token history window accepted short again", kv...)
	}
}
