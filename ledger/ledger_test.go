package ledger

import (
	"cmp"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

func rec(id int64, ts int64, token, typ, amount string) Record {
	return Record{ID: id, TimestampMs: ts, Token: token, Type: typ, Amount: decimal.RequireFromString(amount)}
}

// total is a Total with decimal text, for readable expectations.
type total struct {
	Token, Type     string
	Records         uint64
	Inflow, Outflow string
}

func totalsText(ts []Total) []total {
	out := []total{}
	for _, t := range ts {
		out = append(out, total{t.Token, t.Type, t.Records, t.Inflow.String(), t.Outflow.String()})
	}
	return out
}

func TestObserveSumsExactlyBySign(t *testing.T) {
	tests := []struct {
		name string
		recs []Record
		want []total
	}{
		{
			name: "positive is inflow, negative is outflow magnitude, zero counts only as a record",
			recs: []Record{
				rec(1, 100, "USDT", "DEPOSIT", "10.5"),
				rec(2, 100, "USDT", "DEPOSIT", "-0.5"),
				rec(3, 100, "USDT", "DEPOSIT", "0"),
				rec(4, 100, "USDT", "WITHDRAW", "-3"),
			},
			want: []total{
				{"USDT", "DEPOSIT", 3, "10.5", "0.5"},
				{"USDT", "WITHDRAW", 1, "0", "3"},
			},
		},
		{
			name: "unknown transaction types are counted under their own name",
			recs: []Record{
				rec(1, 100, "BTC", "SOMETHING_NEW", "1"),
				rec(2, 100, "BTC", "SOMETHING_NEW", "2"),
			},
			want: []total{{"BTC", "SOMETHING_NEW", 2, "3", "0"}},
		},
		{
			name: "30 decimal places are kept exactly",
			recs: []Record{
				rec(1, 100, "ETH", "INTEREST", "0.000000000000000000000000000001"),
				rec(2, 100, "ETH", "INTEREST", "0.100000000000000000000000000002"),
				rec(3, 100, "ETH", "INTEREST", "-0.000000000000000000000000000003"),
			},
			want: []total{{"ETH", "INTEREST", 3, "0.100000000000000000000000000003", "0.000000000000000000000000000003"}},
		},
		{
			name: "huge totals stay exact beyond float64 precision",
			recs: []Record{
				rec(1, 100, "SHIB", "DEPOSIT", "99999999999999999999999999.000000000000000001"),
				rec(2, 100, "SHIB", "DEPOSIT", "99999999999999999999999999.000000000000000001"),
				rec(3, 100, "SHIB", "DEPOSIT", "1"),
			},
			want: []total{{"SHIB", "DEPOSIT", 3, "199999999999999999999999999.000000000000000002", "0"}},
		},
		{
			name: "totals are sorted by token then type",
			recs: []Record{
				rec(1, 100, "USDT", "WITHDRAW", "-1"),
				rec(2, 100, "BTC", "WITHDRAW", "-1"),
				rec(3, 100, "USDT", "DEPOSIT", "1"),
			},
			want: []total{
				{"BTC", "WITHDRAW", 1, "0", "1"},
				{"USDT", "DEPOSIT", 1, "1", "0"},
				{"USDT", "WITHDRAW", 1, "0", "1"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := New(0, Config{Overlap: time.Minute})
			for _, r := range tt.recs {
				if !observe(l, r, 1000) {
					t.Fatalf("record %d not counted", r.ID)
				}
			}
			if got := totalsText(l.Snapshot().Totals); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("totals = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestObserveIgnoresSeenIDsAndRecordsOutsideWindow(t *testing.T) {
	l := New(1000, Config{Overlap: time.Second})
	for _, tc := range []struct {
		r    Record
		want bool
	}{
		{rec(1, 1000, "USDT", "DEPOSIT", "1"), true},  // at the start: inside
		{rec(1, 1000, "USDT", "DEPOSIT", "1"), false}, // same id again
		{rec(1, 1500, "USDT", "DEPOSIT", "1"), false}, // same id, other fields: still the same record
		{rec(2, 999, "USDT", "DEPOSIT", "1"), true},   // before the cursor, within the truncation slack: new, counted
		{rec(5, -1, "USDT", "DEPOSIT", "1"), false},   // before the horizon less the slack: unplaceable
		{rec(3, 2000, "USDT", "DEPOSIT", "1"), true},  // at the end: inside
		{rec(4, 2001, "USDT", "DEPOSIT", "1"), false}, // after the end: next poll's
		{rec(4, 2001, "USDT", "DEPOSIT", "1"), false}, // ...and still not remembered
	} {
		if got := observe(l, tc.r, 2000); got != tc.want {
			t.Errorf("Observe(id %d, ts %d) = %v, want %v", tc.r.ID, tc.r.TimestampMs, got, tc.want)
		}
	}
	if got := l.ObservePage([]Record{rec(4, 2001, "USDT", "DEPOSIT", "1")}, 3000); got.Counted != 1 {
		t.Errorf("record after the previous end not counted by the next poll: counted %d", got.Counted)
	}
	want := []total{{"USDT", "DEPOSIT", 4, "4", "0"}}
	if got := totalsText(l.Snapshot().Totals); !reflect.DeepEqual(got, want) {
		t.Errorf("totals = %+v, want %+v", got, want)
	}
	if s := l.Snapshot(); !s.HasRecord || s.LastRecordMs != 2001 {
		t.Errorf("LastRecordMs = %d, %v; want 2001, true", s.LastRecordMs, s.HasRecord)
	}
}

func TestCompleteMovesCursor(t *testing.T) {
	const overlap = 10 * time.Second
	day := IdleWindow.Milliseconds()
	tests := []struct {
		name      string
		start     int64
		recs      []Record
		end       int64
		wantStart int64
		wantSeen  int
	}{
		{
			name: "to the newest record minus the overlap", start: 0,
			recs: []Record{rec(1, 5_000, "A", "T", "1"), rec(2, 30_000, "A", "T", "1"), rec(3, 25_000, "A", "T", "1")},
			end:  40_000, wantStart: 20_000, wantSeen: 2, // id 1 is pruned
		},
		{
			name: "never backwards when the newest record is older than the cursor plus overlap", start: 28_000,
			recs: []Record{rec(1, 30_000, "A", "T", "1")},
			end:  40_000, wantStart: 28_000, wantSeen: 1,
		},
		{
			name: "not at all without records inside the idle window", start: 0,
			end: 2 * 3600_000, wantStart: 0,
		},
		{
			name: "an idle account's window is bounded by the idle window", start: 0,
			end: 3 * day, wantStart: 2 * day,
		},
		{
			name: "the idle bound never cuts into the overlap of the newest record", start: 0,
			recs: []Record{rec(1, 3*day-1000, "A", "T", "1")},
			end:  3 * day, wantStart: 3*day - 1000 - overlap.Milliseconds(), wantSeen: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := New(tt.start, Config{Overlap: overlap})
			l.ObservePage(tt.recs, tt.end)
			l.Complete(tt.end)
			if got := l.Start(); got != tt.wantStart {
				t.Errorf("cursor = %d, want %d", got, tt.wantStart)
			}
			if got := len(l.Export().Seen); got != tt.wantSeen {
				t.Errorf("remembered ids = %d, want %d", got, tt.wantSeen)
			}
			if s, e := l.QueryWindow(tt.end + 1); s != tt.wantStart || e != tt.end+1 {
				t.Errorf("Window = [%d, %d], want [%d, %d]", s, e, tt.wantStart, tt.end+1)
			}
		})
	}
}

func TestWindowNeverEndsBeforeItStarts(t *testing.T) {
	l := New(5000, Config{Overlap: time.Second})
	if s, e := l.QueryWindow(4000); s != 5000 || e != 5000 {
		t.Errorf("Window(4000) = [%d, %d], want [5000, 5000]", s, e)
	}
}

func TestPruneKeepsIDsAtTheCursorAndOnlyWhenAdvancing(t *testing.T) {
	l := New(0, Config{Overlap: 10 * time.Second})
	l.ObservePage([]Record{rec(1, 90_000, "A", "T", "1"), rec(2, 100_000, "A", "T", "1"), rec(3, 88_999, "A", "T", "1")}, 100_000)
	l.Complete(100_000) // cursor 90_000: ids 1 and 2 stay, id 3 (before the cursor less the truncation slack) goes
	if l.Start() != 90_000 || len(l.Export().Seen) != 2 {
		t.Fatalf("cursor %d, seen %d; want 90000, 2", l.Start(), len(l.Export().Seen))
	}
	// A record exactly at the cursor that the exchange returns again is
	// still recognised.
	if observe(l, rec(1, 90_000, "A", "T", "1"), 200_000) {
		t.Error("record at the cursor counted twice")
	}
	// Completing again without newer records neither moves nor prunes.
	l.Complete(200_000)
	if l.Start() != 90_000 || len(l.Export().Seen) != 2 {
		t.Errorf("after idle complete: cursor %d, seen %d; want 90000, 2", l.Start(), len(l.Export().Seen))
	}
}

// exchange is a model of the history endpoint: records filtered by
// [start, end], newest first (ties by id, descending), paged, with a hook
// before each page that may change the records, as the real one may.
type exchange struct {
	recs       []Record
	size       int
	beforePage func(page int)
	// skew is added to meta.total: positive overstates the rows, negative
	// understates them.
	skew int
	// untilShort makes poll page until a short page, whatever meta.total
	// says, as the client does.
	untilShort bool
}

func (x *exchange) add(rs ...Record) { x.recs = append(x.recs, rs...) }

func (x *exchange) page(start, end int64, page, size int) Page {
	if x.beforePage != nil {
		x.beforePage(page)
	}
	var match []Record
	for _, r := range x.recs {
		if r.TimestampMs >= start && r.TimestampMs <= end {
			match = append(match, r)
		}
	}
	slices.SortFunc(match, func(a, b Record) int {
		return cmp.Or(cmp.Compare(b.TimestampMs, a.TimestampMs), cmp.Compare(b.ID, a.ID))
	})
	lo := min((page-1)*size, len(match))
	hi := min(page*size, len(match))
	total := max(len(match)+x.skew, 0)
	return Page{Records: match[lo:hi], Total: total}
}

// poll does what the token history poller does: one query window, every page
// (stopping like the client does), the consistency check, Finish.
func poll(l *Ledger, x *exchange, now int64) PollResult {
	size := x.size
	start, end := l.QueryWindow(now)
	var check PollCheck
	for page := 1; ; page++ {
		p := x.page(start, end, page, size)
		check.Page(p)
		l.ObservePage(p.Records, end)
		if len(p.Records) < size || (!x.untilShort && page*size >= p.Total) {
			break
		}
	}
	return l.Finish(&check, end)
}

// want sums every record of x with a timestamp in [from, to] once.
func want(x *exchange, from, to int64) []total {
	l := New(from, Config{})
	byID := map[int64]bool{}
	for _, r := range x.recs {
		if byID[r.ID] {
			panic(fmt.Sprintf("test exchange holds id %d twice", r.ID))
		}
		byID[r.ID] = true
		observe(l, r, to)
	}
	return totalsText(l.Snapshot().Totals)
}

func TestExactlyOnceAcrossPolls(t *testing.T) {
	const overlap = 5 * time.Second
	tests := []struct {
		name string
		size int
		// run drives the exchange and the polls; it returns the time of the
		// last poll.
		run func(t *testing.T, l *Ledger, x *exchange) int64
	}{
		{
			name: "many records sharing one timestamp across page and poll boundaries",
			size: 3,
			run: func(t *testing.T, l *Ledger, x *exchange) int64 {
				for i := int64(1); i <= 10; i++ {
					x.add(rec(i, 50_000, "USDT", "TRANSACTION_FEE", "-0.1"))
				}
				poll(l, x, 60_000)
				for i := int64(11); i <= 17; i++ { // same timestamp, shown later
					x.add(rec(i, 50_000, "USDT", "TRANSACTION_FEE", "-0.1"))
				}
				poll(l, x, 61_000)
				poll(l, x, 62_000)
				return 62_000
			},
		},
		{
			name: "records straddling the overlap window and a late one inside it",
			size: 2,
			run: func(t *testing.T, l *Ledger, x *exchange) int64 {
				x.add(rec(1, 10_000, "BTC", "DEPOSIT", "1"), rec(2, 44_999, "BTC", "DEPOSIT", "2"),
					rec(3, 45_000, "BTC", "DEPOSIT", "3"), rec(4, 50_000, "BTC", "DEPOSIT", "4"))
				poll(l, x, 55_000) // cursor → 45_000: id 3 is re-read, id 2 is not
				if l.Start() != 45_000 {
					t.Fatalf("cursor %d, want 45000", l.Start())
				}
				x.add(rec(5, 47_000, "BTC", "DEPOSIT", "5")) // late, inside the overlap
				x.add(rec(6, 56_000, "BTC", "WITHDRAW", "-6"))
				poll(l, x, 60_000)
				return 60_000
			},
		},
		{
			name: "records arriving while paging shift rows so they repeat across pages",
			size: 2,
			run: func(t *testing.T, l *Ledger, x *exchange) int64 {
				for i := int64(1); i <= 6; i++ {
					x.add(rec(i, 40_000+i, "ETH", "EARN", "0.000000000000000000000000000001"))
				}
				next := int64(100)
				x.beforePage = func(page int) {
					if page > 1 { // a late record inside the window, newer than all
						next++
						x.add(rec(next, 49_000+next, "ETH", "EARN", "1"))
					}
				}
				if poll(l, x, 60_000) != PollIncomplete {
					t.Error("poll whose result set grew while paging advanced the cursor")
				}
				x.beforePage = nil
				if poll(l, x, 61_000) != PollComplete {
					t.Error("quiet re-read did not advance the cursor")
				}
				return 61_000
			},
		},
		{
			name: "records arriving while paging with timestamps after the end are left for the next poll",
			size: 1,
			run: func(t *testing.T, l *Ledger, x *exchange) int64 {
				x.add(rec(1, 41_000, "USDT", "DEPOSIT", "1"), rec(2, 42_000, "USDT", "DEPOSIT", "1"))
				id := int64(10)
				x.beforePage = func(page int) {
					id++
					x.add(rec(id, 60_000+id, "USDT", "DEPOSIT", "1"))
				}
				if poll(l, x, 60_000) != PollComplete {
					t.Error("records after the end made the poll inconsistent")
				}
				x.beforePage = nil
				poll(l, x, 70_000)
				return 70_000
			},
		},
		{
			name: "a failed poll loses nothing and the retry counts nothing twice",
			size: 2,
			run: func(t *testing.T, l *Ledger, x *exchange) int64 {
				for i := int64(1); i <= 5; i++ {
					x.add(rec(i, 30_000+i*1000, "USDT", "REALIZED_PNL", "-1.25"))
				}
				start, end := l.QueryWindow(50_000)
				l.ObservePage(x.page(start, end, 1, 2).Records, end) // then the poll fails
				if got := l.Snapshot().Totals[0].Records; got != 2 {
					t.Fatalf("records counted before the failure = %d, want 2", got)
				}
				poll(l, x, 51_000)
				return 51_000
			},
		},
		{
			name: "an overstated total holds the cursor for one re-read, then every window is accepted once confirmed",
			size: 2,
			run: func(t *testing.T, l *Ledger, x *exchange) int64 {
				x.skew = 2 // the exchange promises two rows it never serves
				for i := int64(1); i <= 5; i++ {
					x.add(rec(i, 39_000+i*1000, "USDT", "DEPOSIT", "1.5"))
				}
				if r := poll(l, x, 50_000); r != PollIncomplete || l.Start() != 30_000 {
					t.Fatalf("first short read: %v, cursor %d; want PollIncomplete, 30000", r, l.Start())
				}
				// The re-read finds nothing new up to 50_000: accepted, and the
				// cursor moves as a consistent poll ending at 50_000 would.
				if r := poll(l, x, 51_000); r != PollShortAccepted || l.Start() != 39_000 {
					t.Fatalf("re-read: %v, cursor %d; want PollShortAccepted, 39000", r, l.Start())
				}
				// A record after the confirmed end is new but does not spoil
				// the confirmation of the previous read's end (51_000).
				x.add(rec(6, 52_000, "USDT", "WITHDRAW", "-2"))
				if r := poll(l, x, 53_000); r != PollShortAccepted || l.Start() != 46_000 {
					t.Fatalf("read with a newer record: %v, cursor %d; want PollShortAccepted, 46000", r, l.Start())
				}
				if r := poll(l, x, 54_000); r != PollShortAccepted || l.Start() != 47_000 {
					t.Fatalf("quiet read: %v, cursor %d; want PollShortAccepted, 47000", r, l.Start())
				}
				if len(l.Export().Seen) != 1 {
					t.Errorf("remembered ids = %d, want 1: the window must not grow", len(l.Export().Seen))
				}
				return 54_000
			},
		},
		{
			name: "an overstated total with a late record inside the pending window is read again",
			size: 2,
			run: func(t *testing.T, l *Ledger, x *exchange) int64 {
				x.skew = 1
				x.add(rec(1, 40_000, "BTC", "DEPOSIT", "1"), rec(2, 41_000, "BTC", "DEPOSIT", "2"))
				if r := poll(l, x, 50_000); r != PollIncomplete {
					t.Fatalf("first short read: %v", r)
				}
				x.add(rec(3, 45_000, "BTC", "DEPOSIT", "3")) // shown late, before the pending end
				if r := poll(l, x, 51_000); r != PollIncomplete || l.Start() != 30_000 {
					t.Fatalf("re-read that found a late record: %v, cursor %d; want PollIncomplete, 30000", r, l.Start())
				}
				if r := poll(l, x, 52_000); r != PollShortAccepted || l.Start() != 40_000 {
					t.Fatalf("quiet re-read: %v, cursor %d; want PollShortAccepted, 40000", r, l.Start())
				}
				return 52_000
			},
		},
		{
			name: "a total that changes while paging is never accepted as merely overstated",
			size: 1,
			run: func(t *testing.T, l *Ledger, x *exchange) int64 {
				x.skew = 1
				x.add(rec(1, 40_000, "ETH", "EARN", "1"), rec(2, 41_000, "ETH", "EARN", "1"))
				poll(l, x, 50_000)
				next := int64(10)
				x.beforePage = func(page int) {
					if page == 2 {
						next++
						// After the pending end, so nothing counted spoils it,
						// but inside the query window: the total moves.
						x.add(rec(next, 50_000+next*10, "ETH", "EARN", "1"))
					}
				}
				if r := poll(l, x, 51_000); r != PollIncomplete || l.Start() != 30_000 {
					t.Fatalf("unsteady re-read: %v, cursor %d; want PollIncomplete, 30000", r, l.Start())
				}
				x.beforePage = nil
				if r := poll(l, x, 52_000); r != PollShortAccepted {
					t.Fatalf("steady re-read: %v, want PollShortAccepted", r)
				}
				return 52_000
			},
		},
		{
			name: "an understated total with paging until a short page counts every record once",
			size: 2,
			run: func(t *testing.T, l *Ledger, x *exchange) int64 {
				x.skew, x.untilShort = -3, true
				for i := int64(1); i <= 7; i++ {
					x.add(rec(i, 40_000+i*100, "USDT", "TRANSACTION_FEE", "-0.01"))
				}
				if r := poll(l, x, 50_000); r != PollComplete {
					t.Fatalf("read past an understated total: %v, want PollComplete", r)
				}
				if got := l.Snapshot().Totals[0].Records; got != 7 {
					t.Fatalf("records after one poll = %d, want 7", got)
				}
				x.add(rec(8, 50_500, "USDT", "TRANSACTION_FEE", "-0.01"))
				if r := poll(l, x, 51_000); r != PollComplete {
					t.Fatalf("second poll: %v, want PollComplete", r)
				}
				return 51_000
			},
		},
		{
			name: "rows the exchange returns older than the cursor are ignored",
			size: 10,
			run: func(t *testing.T, l *Ledger, x *exchange) int64 {
				x.add(rec(1, 40_000, "USDT", "DEPOSIT", "1"), rec(2, 50_000, "USDT", "DEPOSIT", "1"))
				poll(l, x, 55_000) // cursor 45_000, id 1 pruned
				// The exchange ignores the start filter once.
				if observe(l, rec(1, 40_000, "USDT", "DEPOSIT", "1"), 56_000) {
					t.Error("pruned record counted again")
				}
				return 56_000
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := &exchange{size: tt.size}
			l := New(30_000, Config{Overlap: overlap})
			last := tt.run(t, l, x)
			w := want(x, 30_000, last)
			if got := totalsText(l.Snapshot().Totals); !reflect.DeepEqual(got, w) {
				t.Errorf("totals = %+v\nwant exact sums %+v", got, w)
			}
		})
	}
}

func TestStateRoundTripsExactlyAndResumes(t *testing.T) {
	const overlap = 5 * time.Second
	x := &exchange{size: 3}
	for i := int64(1); i <= 20; i++ {
		x.add(rec(i, 30_000+i*500, "USDT", "DEPOSIT", "1.000000000000000000000000000001"))
	}
	x.add(rec(99, 31_000, "BTC", "WITHDRAW", "-123456789012345678901234567890.5"))
	l := New(30_000, Config{Overlap: overlap})
	poll(l, x, 45_000)
	// Stop in the middle of the next poll: one page counted, no Complete.
	for i := int64(21); i <= 25; i++ {
		x.add(rec(i, 45_000+i*100, "USDT", "DEPOSIT", "2"))
	}
	start, end := l.QueryWindow(50_000)
	l.ObservePage(x.page(start, end, 1, 3).Records, end)

	b, err := json.Marshal(l.Export())
	if err != nil {
		t.Fatal(err)
	}
	var st State
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	r, err := FromState(st, Config{Overlap: overlap})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.Export(), l.Export()) {
		t.Fatalf("state changed through JSON:\n got %+v\nwant %+v", r.Export(), l.Export())
	}
	poll(r, x, 51_000)
	if got, w := totalsText(r.Snapshot().Totals), want(x, 30_000, 51_000); !reflect.DeepEqual(got, w) {
		t.Errorf("after restart totals = %+v\nwant %+v", got, w)
	}
}

func TestFromStateRejectsBadState(t *testing.T) {
	ok := State{Version: StateVersion, Totals: []StateTotal{{Token: "A", Type: "T", Inflow: "1", Outflow: "0"}}}
	for name, mutate := range map[string]func(*State){
		"version":          func(s *State) { s.Version = 99 },
		"bad inflow":       func(s *State) { s.Totals[0].Inflow = "x" },
		"negative outflow": func(s *State) { s.Totals[0].Outflow = "-1" },
		"duplicate total":  func(s *State) { s.Totals = append(s.Totals, s.Totals[0]) },
		"duplicate id":     func(s *State) { s.Seen = []SeenRecord{{ID: 1, TimestampMs: 1}, {ID: 1, TimestampMs: 2}} },
	} {
		t.Run(name, func(t *testing.T) {
			st := ok
			st.Totals = slices.Clone(ok.Totals)
			mutate(&st)
			if _, err := FromState(st, Config{}); err == nil {
				t.Error("no error")
			}
		})
	}
	if _, err := FromState(ok, Config{}); err != nil {
		t.Errorf("valid state rejected: %v", err)
	}
}

func TestPollCheck(t *testing.T) {
	page := func(total int, ids ...int64) Page {
		p := Page{Total: total}
		for _, id := range ids {
			p.Records = append(p.Records, Record{ID: id})
		}
		return p
	}
	tests := []struct {
		name  string
		pages []Page
		want  bool
	}{
		{"no page", nil, false},
		{"empty result", []Page{page(0)}, true},
		{"all rows", []Page{page(3, 1, 2), page(3, 3)}, true},
		{"total changed between pages", []Page{page(3, 1, 2), page(4, 2, 3), page(4, 4)}, false},
		{"a row skipped", []Page{page(3, 1, 2), page(3, 2)}, false},
		{"a short page before the total", []Page{page(5, 1, 2, 3)}, false},
		{"no meta total: trust the short page", []Page{page(0, 1, 2)}, true},
		{"more distinct ids than a steady total: paged past an understated total", []Page{page(2, 1, 2), page(2, 3)}, true},
		{"more distinct ids than a total that changed", []Page{page(2, 1, 2), page(1, 3)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c PollCheck
			for _, p := range tt.pages {
				c.Page(p)
				// Asked between pages too, as a poll does: the count
				// must still see a later page's duplicates.
				_ = c.Distinct()
			}
			if got := c.Consistent(); got != tt.want {
				t.Errorf("Consistent = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSnapshotIsACopy(t *testing.T) {
	l := New(0, Config{})
	observe(l, rec(1, 1, "A", "T", "1"), 10)
	s := l.Snapshot()
	observe(l, rec(2, 2, "A", "T", "1"), 10)
	if s.Totals[0].Records != 1 || s.LastRecordMs != 1 {
		t.Errorf("snapshot changed after it was taken: %+v", s)
	}
}

func TestConcurrentReadersAndOneWriter(t *testing.T) {
	l := New(0, Config{Overlap: time.Millisecond})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := int64(1); i <= 2000; i++ {
			observe(l, rec(i, i, "A", "T", "1"), i)
			if i%100 == 0 {
				l.Complete(i)
			}
		}
	}()
	for {
		select {
		case <-done:
			if got := l.Snapshot().Totals[0].Records; got != 2000 {
				t.Errorf("records = %d, want 2000", got)
			}
			return
		default:
			_ = l.Snapshot()
			_ = l.Export()
		}
	}
}

// observe counts one record as a poll of the query window ending at end would,
// and reports whether it was counted.
func observe(l *Ledger, r Record, end int64) bool {
	return l.ObservePage([]Record{r}, end).Counted == 1
}
