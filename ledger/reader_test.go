package ledger

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"
)

// pagedSource serves recs, newest first, in pages of size rows, with the
// exchange's clock at nowMs; before each page, beforePage may change what
// it serves. A stub, not a fake exchange: the collector's tests read
// through the real client against the fake one.
type pagedSource struct {
	recs       []Record
	malformed  []MalformedRow
	size       int
	nowMs      int64
	beforePage func()
	requests   int
}

func (s *pagedSource) Pages(ctx context.Context, q Query, fn func(FetchedPage) error) error {
	for page := 0; ; page++ {
		if s.beforePage != nil {
			s.beforePage()
		}
		s.requests++
		var in []Record
		for _, r := range s.recs {
			if r.TimestampMs >= q.StartMs && r.TimestampMs <= q.EndMs {
				in = append(in, r)
			}
		}
		slices.SortStableFunc(in, func(a, b Record) int { return int(b.TimestampMs - a.TimestampMs) })
		p := FetchedPage{Total: len(in) + len(s.malformed), ServerTimeMs: s.nowMs}
		if page == 0 {
			p.Malformed = s.malformed
		}
		from := min(page*q.PageSize, len(in))
		p.Records = in[from:min(from+q.PageSize, len(in))]
		if err := fn(p); err != nil {
			return err
		}
		if from+q.PageSize >= len(in) {
			return nil
		}
	}
}

func (s *pagedSource) Now() (int64, bool) { return s.nowMs, true }
func (s *pagedSource) PageSize() int      { return s.size }

// tally is an Observer that keeps what it is told.
type tally struct {
	published []Snapshot
	counts    Counts
	notes     []Note
}

func (t *tally) Publish(s Snapshot) { t.published = append(t.published, s) }
func (t *tally) Count(c Counts) {
	t.counts.Inconsistent += c.Inconsistent
	t.counts.Outside += c.Outside
	t.counts.Malformed += c.Malformed
}
func (t *tally) Note(n Note)      { t.notes = append(t.notes, n) }
func (t *tally) Replaced(*Ledger) {}

func records(s Snapshot) uint64 {
	var n uint64
	for _, t := range s.Totals {
		n += t.Records
	}
	return n
}

const readerNow = int64(1_700_000_000_000)

func deposits(n int) []Record {
	var out []Record
	for i := range n {
		out = append(out, rec(int64(i+1), readerNow-int64(n-i)*1000, "USDT", "DEPOSIT", "1"))
	}
	return out
}

func newTestReader(save func(State) error, obs Observer) *Reader {
	l := New(readerNow-time.Hour.Milliseconds(), Config{Overlap: time.Minute})
	return NewReader(l, ReaderConfig{Save: save, SkipMalformedAfter: 2}, obs)
}

func TestReaderPublishesOnlyWhatTheStateFileHolds(t *testing.T) {
	obs := &tally{}
	var saved uint64
	fail := false
	var r *Reader
	save := func(st State) error {
		if fail {
			return errors.New("no space left on device")
		}
		saved = 0
		for _, t := range st.Totals {
			saved += t.Records
		}
		return nil
	}
	r = newTestReader(save, obs)
	src := &pagedSource{recs: deposits(5), size: 2, nowMs: readerNow}
	src.beforePage = func() {
		for _, s := range obs.published {
			if records(s) > saved {
				t.Errorf("%d records published with %d saved", records(s), saved)
			}
		}
	}
	if _, err := r.Poll(context.Background(), src); err != nil {
		t.Fatal(err)
	}
	if len(obs.published) != 1 || records(obs.published[0]) != 5 {
		t.Fatalf("published %v, want the 5 records once, after the save", obs.published)
	}
	// A failed save publishes nothing and says so; the next one publishes.
	fail = true
	src.recs = append(src.recs, rec(6, readerNow+500, "USDT", "DEPOSIT", "1"))
	src.nowMs += 1000
	if _, err := r.Poll(context.Background(), src); err != nil {
		t.Fatal(err)
	}
	if len(obs.published) != 1 {
		t.Errorf("published after a failed save: %v", obs.published[1:])
	}
	if n := len(obs.notes); n != 1 || obs.notes[0].Level != NoteError {
		t.Errorf("notes %v, want one error", obs.notes)
	}
	fail = false
	if _, err := r.Poll(context.Background(), src); err != nil {
		t.Fatal(err)
	}
	if n := len(obs.published); n != 2 || records(obs.published[1]) != 6 {
		t.Errorf("published %v, want the 6 records once saved", obs.published)
	}
}

func TestReaderWithoutAStateFilePublishesEachPageThatCounted(t *testing.T) {
	obs := &tally{}
	r := newTestReader(nil, obs)
	if _, err := r.Poll(context.Background(), &pagedSource{recs: deposits(5), size: 2, nowMs: readerNow}); err != nil {
		t.Fatal(err)
	}
	var got []uint64
	for _, s := range obs.published {
		got = append(got, records(s))
	}
	if !slices.Equal(got, []uint64{2, 4, 5}) {
		t.Errorf("records published %v, want 2, 4, 5: one publication a page", got)
	}
}

// A total that changes between pages is records arriving: the window is
// read again in slices, the cursor moves, and the poll is not counted as
// inconsistent.
func TestReaderReadsAWindowWhoseTotalChangedInSlices(t *testing.T) {
	obs := &tally{}
	r := newTestReader(nil, obs)
	src := &pagedSource{recs: deposits(6), size: 3, nowMs: readerNow}
	id := int64(100)
	src.beforePage = func() {
		if id < 102 {
			id++
			src.recs = append(src.recs, rec(id, readerNow-30_000-id, "USDT", "DEPOSIT", "2"))
		}
	}
	start := r.l.Start()
	if _, err := r.Poll(context.Background(), src); err != nil {
		t.Fatal(err)
	}
	if r.l.Start() == start {
		t.Error("the cursor did not move")
	}
	if obs.counts.Inconsistent != 0 {
		t.Errorf("inconsistent polls %d, want 0", obs.counts.Inconsistent)
	}
	if n := records(r.l.Snapshot()); n != 8 {
		t.Errorf("%d records counted, want all 8", n)
	}
}

func TestReaderFailsAMalformedRowThenSkipsIt(t *testing.T) {
	obs := &tally{}
	r := newTestReader(nil, obs)
	src := &pagedSource{recs: deposits(3), malformed: []MalformedRow{{Key: "id:9", ID: "9", Err: "amount: not a number"}}, size: 10, nowMs: readerNow}
	if _, err := r.Poll(context.Background(), src); err == nil {
		t.Fatal("the first poll with a malformed row succeeded")
	}
	n, err := r.Poll(context.Background(), src)
	if err != nil {
		t.Fatalf("the second poll failed: %v", err)
	}
	if n != 1 || obs.counts.Malformed != 1 {
		t.Errorf("left out %d, malformed %d; want the row skipped once", n, obs.counts.Malformed)
	}
	if len(obs.notes) != 1 || obs.notes[0].Level != NoteWarn {
		t.Errorf("notes %v, want one warning", obs.notes)
	}
}
