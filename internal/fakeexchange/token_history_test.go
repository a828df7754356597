package fakeexchange

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// histBase is the time of historyRecords, in Unix milliseconds: the
// endpoint accepts only 13-digit times.
const histBase = 1_700_000_000_000

// histMs is the timestamp historyRecords gives id i, as query text.
func histMs(i int) string { return strconv.FormatInt(histBase+int64(1000*i), 10) }

// historyRecords returns n records, ids 1..n, timestamps histBase+1000*id,
// alternating DEPOSIT and WITHDRAW.
func historyRecords(n int) []HistoryRecord {
	var recs []HistoryRecord
	for i := 1; i <= n; i++ {
		typ, amt := "DEPOSIT", fmt.Sprintf("%d.10", i)
		if i%2 == 0 {
			typ, amt = "WITHDRAW", fmt.Sprintf("-%d.000", i)
		}
		recs = append(recs, HistoryRecord{ID: int64(i), Type: typ, Token: "USDT", Amount: amt, Timestamp: histBase + int64(1000*i)})
	}
	return recs
}

func ids(t *testing.T, rows []map[string]any) []string {
	t.Helper()
	var out []string
	for _, r := range rows {
		out = append(out, r["id"].(json.Number).String())
	}
	return out
}

func TestTokenHistoryNewestFirstWithFiltersAndPages(t *testing.T) {
	h := newHarness(t, testScenario(), WithRateLimit(0, 0))
	if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a", Records: historyRecords(10)}}); err != nil {
		t.Fatal(err)
	}
	// Same timestamp as id 10: ties are broken by id, descending.
	if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a",
		Records: []HistoryRecord{{ID: 11, Type: "DEPOSIT", Token: "BTC", Amount: "0.00000001", Timestamp: histBase + 10000}}}}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		query string
		want  string
		total string
	}{
		{"", "[11 10 9 8 7 6 5 4 3 2 1]", "11"},
		{"page=1&size=4", "[11 10 9 8]", "11"},
		{"page=3&size=4", "[3 2 1]", "11"},
		{"page=4&size=4", "[]", "11"},
		{"type=WITHDRAW", "[10 8 6 4 2]", "5"},
		{"startTime=" + histMs(3) + "&endTime=" + histMs(5), "[5 4 3]", "3"},
		{"startTime=" + histMs(9), "[11 10 9]", "3"},
		{"endTime=" + histMs(2), "[2 1]", "2"},
		{"type=DEPOSIT&startTime=" + histMs(2) + "&endTime=" + histMs(9) + "&page=2&size=2", "[5 3]", "4"},
		{"type=REBATE", "[]", "0"},
	} {
		r := h.get(PathTokenHistory, tc.query, "a1")
		m := wantOK(t, r)
		if got := fmt.Sprint(ids(t, rowsOf(t, m))); got != tc.want && !(got == "[]" && tc.want == "[]") {
			t.Errorf("%q: ids %s, want %s", tc.query, got, tc.want)
		}
		if got := metaOf(t, m)["total"].(json.Number).String(); got != tc.total {
			t.Errorf("%q: total %s, want %s", tc.query, got, tc.total)
		}
	}
	// Amounts are sent as the exact text given, as strings.
	r := h.get(PathTokenHistory, "type=WITHDRAW&size=1", "a1")
	if !strings.Contains(string(r.body), `{"id":10,"type":"WITHDRAW","token":"USDT","amount":"-10.000","timestamp":`+histMs(10)+`}`) {
		t.Errorf("row not as expected: %s", r.body)
	}
	// Another account sees only its own history.
	if rows := rowsOf(t, wantOK(t, h.get(PathTokenHistory, "", "b1"))); len(rows) != 0 {
		t.Errorf("account b sees %d rows of a", len(rows))
	}
}

// A size above the documented maximum is an error, not a silent cap: a
// client that asks for more must learn it, not page short.
func TestPageSizeAbove1000IsRejected(t *testing.T) {
	h := newHarness(t, testScenario(), WithRateLimit(0, 0))
	var recs []HistoryRecord
	for i := 1; i <= 1500; i++ {
		recs = append(recs, HistoryRecord{ID: int64(i), Type: "DEPOSIT", Token: "USDT", Amount: "1", Timestamp: histBase + int64(i)})
	}
	if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a", Records: recs}}); err != nil {
		t.Fatal(err)
	}
	wantError(t, h.get(PathTokenHistory, "size=1001", "a1"), 400, "-1005")
	wantError(t, h.get(PathTokenHistory, "size=5000", "a1"), 400, "-1005")
	wantError(t, h.get(PathCredentials, "size=1001", "a1"), 400, "-1005")
	m := wantOK(t, h.get(PathTokenHistory, "size=1000", "a1"))
	if n := len(rowsOf(t, m)); n != 1000 {
		t.Errorf("got %d rows, want 1000", n)
	}
	if got := fmt.Sprint(metaOf(t, m)); got != "map[currentPage:1 recordsPerPage:1000 total:1500]" {
		t.Errorf("meta = %s", got)
	}
	if n := len(rowsOf(t, wantOK(t, h.get(PathTokenHistory, "page=2&size=1000", "a1")))); n != 500 {
		t.Errorf("page 2: %d rows, want 500", n)
	}
}

// startTime and endTime are Unix milliseconds, 13 digits: seconds,
// microseconds and padded values are rejected, not matched against ms.
func TestTimeFiltersMustBe13DigitMilliseconds(t *testing.T) {
	h := newHarness(t, testScenario(), WithRateLimit(0, 0))
	for _, q := range []string{
		"startTime=1721295317",      // seconds
		"endTime=1721295317627000",  // microseconds
		"startTime=01721295317627",  // 14 digits
		"endTime=172129531762",      // 12 digits
		"startTime=1721295317627.5", // fraction
		"startTime=+721295317627",   // sign
		"endTime=1721295317627&startTime=1",
	} {
		wantError(t, h.get(PathTokenHistory, q, "a1"), 400, "-1005")
	}
	wantOK(t, h.get(PathTokenHistory, "startTime=1721295317000&endTime=1721295317627", "a1"))
}

func TestBeforeHistoryPageHookSeesEachPageAndCanAppend(t *testing.T) {
	h := newHarness(t, testScenario())
	if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a", Records: historyRecords(4)}}); err != nil {
		t.Fatal(err)
	}
	var calls []string
	h.ex.BeforeHistoryPage(func(account string, page int) {
		calls = append(calls, fmt.Sprintf("%s:%d", account, page))
		if page == 2 {
			// A new record arrives between the two page requests of one poll.
			id := h.ex.NextHistoryID(account)
			if err := h.ex.Apply(Event{History: &HistoryEvent{Account: account,
				Records: []HistoryRecord{{ID: id, Type: "DEPOSIT", Token: "USDT", Amount: "7", Timestamp: histBase + 99000}}}}); err != nil {
				t.Error(err)
			}
		}
	})
	p1 := ids(t, rowsOf(t, wantOK(t, h.get(PathTokenHistory, "page=1&size=2", "a1"))))
	p2 := ids(t, rowsOf(t, wantOK(t, h.get(PathTokenHistory, "page=2&size=2", "a1"))))
	// The insertion shifts the result set: record 3 is served on both pages.
	if fmt.Sprint(p1, p2) != "[4 3] [3 2]" {
		t.Errorf("pages = %v %v, want [4 3] [3 2]", p1, p2)
	}
	if fmt.Sprint(calls) != "[a:1 a:2]" {
		t.Errorf("hook calls = %v", calls)
	}
	if n := len(h.ex.ServedHistory("a")); n != 5 {
		t.Errorf("ServedHistory holds %d records, want 5", n)
	}
}

func TestHistoryEventRejectsDuplicateIDs(t *testing.T) {
	h := newHarness(t, testScenario())
	if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a", Records: historyRecords(2)}}); err != nil {
		t.Fatal(err)
	}
	if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a", Records: historyRecords(1)}}); err == nil {
		t.Error("duplicate id accepted")
	}
	if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "b", Records: historyRecords(1)}}); err != nil {
		t.Errorf("same id in another account: %v", err)
	}
	if got := h.ex.NextHistoryID("a"); got != 3 {
		t.Errorf("NextHistoryID = %d, want 3", got)
	}
	if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "nobody", Records: historyRecords(1)}}); err == nil {
		t.Error("unknown account accepted")
	}
}
