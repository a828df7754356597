package fakeexchange

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// latePinned are the ids among 1..12 that a 0.5 late listing selects: a
// change here changes which records every scenario lists late.
const latePinned = "[1 3 7 10 11 12]"

// Row timestamps follow row_time_unit, while startTime/endTime keep
// filtering on the records' true milliseconds.
func TestRowTimeUnitChangesRowTimestampsOnly(t *testing.T) {
	const ms = 1579399877041
	for _, tc := range []struct {
		unit       string
		allStrings bool
		want       string
	}{
		{"", false, `"amount":"1","timestamp":1579399877041}`},
		{"ms", false, `"amount":"1","timestamp":1579399877041}`},
		{"s", false, `"amount":"1","timestamp":1579399877}`},
		{"s", true, `"amount":"1","timestamp":"1579399877"}`},
		{"s_fraction", false, `"amount":"1","timestamp":"1579399877.041"}`},
		{"s_fraction", true, `"amount":"1","timestamp":"1579399877.041"}`},
	} {
		s := testScenario()
		s.RowTimeUnit, s.NumbersAsStrings = tc.unit, tc.allStrings
		h := newHarness(t, s, WithRateLimit(0, 0))
		recs := []HistoryRecord{
			{ID: 1, Type: "DEPOSIT", Token: "USDT", Amount: "1", Timestamp: ms},
			{ID: 2, Type: "DEPOSIT", Token: "USDT", Amount: "2", Timestamp: ms + 958}, // same second
		}
		if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a", Records: recs}}); err != nil {
			t.Fatal(err)
		}
		r := h.get(PathTokenHistory, "startTime=1579399877041&endTime=1579399877041", "a1")
		if rows := rowsOf(t, wantOK(t, r)); len(rows) != 1 || !strings.Contains(string(r.body), tc.want) {
			t.Errorf("unit %q strings %v: body %s, want one row with %s", tc.unit, tc.allStrings, r.body, tc.want)
		}
		// The filter is on milliseconds even when rows say seconds.
		if rows := rowsOf(t, wantOK(t, h.get(PathTokenHistory, "startTime=1579399877042", "a1"))); len(rows) != 1 {
			t.Errorf("unit %q: startTime one ms later gives %d rows, want 1", tc.unit, len(rows))
		}
		// The envelope's own timestamp stays milliseconds.
		if ts := r.json(t)["timestamp"]; ts != json.Number("1721295317627") && ts != "1721295317627" {
			t.Errorf("unit %q: envelope timestamp %v", tc.unit, ts)
		}
	}
}

// A row named in malformed_ids carries an amount no decimal parser accepts;
// every other field and row, and the JSON as a whole, stay valid.
func TestMalformedIDsSpoilOnlyTheAmountOfThoseRows(t *testing.T) {
	for _, numbers := range []bool{false, true} {
		s := testScenario()
		s.MalformedIDs = []int64{2}
		s.NumbersAsJSONNumbers = numbers
		h := newHarness(t, s)
		if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a", Records: historyRecords(3)}}); err != nil {
			t.Fatal(err)
		}
		r := h.get(PathTokenHistory, "", "a1")
		if !json.Valid(r.body) {
			t.Fatalf("body is not JSON: %s", r.body)
		}
		rows := rowsOf(t, wantOK(t, r))
		if len(rows) != 3 {
			t.Fatalf("got %d rows, want 3", len(rows))
		}
		bad := `{"id":2,"type":"WITHDRAW","token":"USDT","amount":"1.2.3","timestamp":` + histMs(2) + `}`
		if !strings.Contains(string(r.body), bad) {
			t.Errorf("numbers %v: no row %s in %s", numbers, bad, r.body)
		}
		good := `"amount":"3.10"`
		if numbers {
			good = `"amount":3.10`
		}
		if !strings.Contains(string(r.body), good) {
			t.Errorf("numbers %v: row 3 lost its amount %s: %s", numbers, good, r.body)
		}
		if rows[0]["amount"] == "1.2.3" || rows[2]["amount"] == "1.2.3" {
			t.Errorf("other rows spoiled: %v", rows)
		}
	}
}

// sequentialHistory returns n records, ids 1..n, timestamp histBase+id, so
// newest first is id n down to 1.
func sequentialHistory(n int) []HistoryRecord {
	recs := make([]HistoryRecord, n)
	for i := range recs {
		id := int64(i + 1)
		recs[i] = HistoryRecord{ID: id, Type: "DEPOSIT", Token: "USDT", Amount: "1", Timestamp: histBase + id}
	}
	return recs
}

// With page_cap 500 and understate_total 1200, 2,500 rows asked for 1,000 a
// page come 500 a page over five pages, each saying recordsPerPage 1000 and
// total 1300: a client that trusts either stops early.
// An overstated total promises rows no page serves; an undocumented type is
// served and filtered like a documented one.
func TestOverstateTotalAndUndocumentedTypes(t *testing.T) {
	s := testScenario()
	s.OverstateTotal, s.UndocumentedTypes = 3, []string{"SOMETHING_NEW"}
	h := newHarness(t, s, WithRateLimit(0, 0))
	if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a",
		Records: []HistoryRecord{{ID: 1, Type: "SOMETHING_NEW", Token: "ETH", Amount: "1", Timestamp: testStart.UnixMilli()},
			{ID: 2, Type: "DEPOSIT", Token: "ETH", Amount: "2", Timestamp: testStart.UnixMilli()}}}}); err != nil {
		t.Fatal(err)
	}
	m := wantOK(t, h.get(PathTokenHistory, "type=SOMETHING_NEW&page=1&size=25", "a1"))
	if got := ids(t, rowsOf(t, m)); len(got) != 1 || got[0] != "1" {
		t.Errorf("rows %v, want id 1 alone", got)
	}
	if got := fmt.Sprint(metaOf(t, m)["total"]); got != "4" {
		t.Errorf("meta.total %s, want the 1 row held and 3 more", got)
	}
	if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a",
		Records: []HistoryRecord{{ID: 3, Type: "OTHER_NEW", Token: "ETH", Amount: "1", Timestamp: 1}}}}); err == nil {
		t.Error("a type neither documented nor listed was taken")
	}
	wantError(t, h.get(PathTokenHistory, "type=OTHER_NEW", "a1"), http.StatusBadRequest, "-1005")
}

func TestPageCapAndUnderstateTotal(t *testing.T) {
	s := testScenario()
	s.PageCap, s.UnderstateTotal = 500, 1200
	h := newHarness(t, s, WithRateLimit(0, 0))
	if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a", Records: sequentialHistory(2500)}}); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for page := 1; page <= 6; page++ {
		m := wantOK(t, h.get(PathTokenHistory, fmt.Sprintf("page=%d&size=1000", page), "a1"))
		got := ids(t, rowsOf(t, m))
		want := 500
		if page == 6 {
			want = 0
		}
		if len(got) != want {
			t.Fatalf("page %d: %d rows, want %d", page, len(got), want)
		}
		if want > 0 && got[0] != strconv.Itoa(2500-(page-1)*500) {
			t.Errorf("page %d starts at id %s, want %d", page, got[0], 2500-(page-1)*500)
		}
		for _, id := range got {
			seen[id] = true
		}
		if meta := fmt.Sprint(metaOf(t, m)); meta != fmt.Sprintf("map[currentPage:%d recordsPerPage:1000 total:1300]", page) {
			t.Errorf("page %d: meta %s", page, meta)
		}
	}
	if len(seen) != 2500 {
		t.Errorf("pages 1-5 hold %d distinct rows, want 2500", len(seen))
	}
	// A size below the cap pages normally.
	if got := ids(t, rowsOf(t, wantOK(t, h.get(PathTokenHistory, "page=2&size=100", "a1")))); len(got) != 100 || got[0] != "2400" {
		t.Errorf("page 2 of size 100: %d rows from %v", len(got), got[:1])
	}
	// The total never goes below zero, and the cap holds on credentials too.
	s = testScenario()
	s.PageCap, s.UnderstateTotal = 3, 1200
	h = newHarness(t, s)
	m := wantOK(t, h.get(PathCredentials, "size=25", "a1"))
	if n := len(rowsOf(t, m)); n != 3 || fmt.Sprint(metaOf(t, m)) != "map[currentPage:1 recordsPerPage:25 total:0]" {
		t.Errorf("credentials: %d rows, meta %v", n, metaOf(t, m))
	}
	if rows := rowsOf(t, wantOK(t, h.get(PathCredentials, "page=2&size=25", "a1"))); len(rows) != 1 || rows[0]["apiKey"] != "a-ip" {
		t.Errorf("credentials page 2 = %v, want the fourth key", rows)
	}
}

// With clamp_pages a page beyond the last answers the last page again, and
// says so in currentPage; without it, an empty page.
func TestClampPagesRepeatsTheLastPage(t *testing.T) {
	for _, clamp := range []bool{false, true} {
		s := testScenario()
		s.ClampPages = clamp
		h := newHarness(t, s, WithRateLimit(0, 0))
		if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a", Records: sequentialHistory(5)}}); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			query                string
			rows, page           string // without clamping
			clampRows, clampPage string
		}{
			{"page=3&size=2", "[1]", "3", "[1]", "3"},
			{"page=4&size=2", "[]", "4", "[1]", "3"},
			{"page=9223372036854775807&size=2", "[]", "9223372036854775807", "[1]", "3"},
			{"page=1&size=5", "[5 4 3 2 1]", "1", "[5 4 3 2 1]", "1"},
			{"page=2&size=5", "[]", "2", "[5 4 3 2 1]", "1"},
		} {
			rows, page := tc.rows, tc.page
			if clamp {
				rows, page = tc.clampRows, tc.clampPage
			}
			m := wantOK(t, h.get(PathTokenHistory, tc.query, "a1"))
			if got := fmt.Sprint(ids(t, rowsOf(t, m))); got != rows {
				t.Errorf("clamp %v %s: rows %s, want %s", clamp, tc.query, got, rows)
			}
			if p := metaOf(t, m)["currentPage"].(json.Number).String(); p != page {
				t.Errorf("clamp %v %s: currentPage %s, want %s", clamp, tc.query, p, page)
			}
		}
		// An empty result has one, empty, last page.
		m := wantOK(t, h.get(PathTokenHistory, "page=2&type=REBATE", "a1"))
		if n, p := len(rowsOf(t, m)), metaOf(t, m)["currentPage"].(json.Number).String(); n != 0 || p != map[bool]string{false: "2", true: "1"}[clamp] {
			t.Errorf("clamp %v: empty result served %d rows as page %s", clamp, n, p)
		}
	}
}

// Records sharing a timestamp come back in another order on each request;
// paging 1,001 rows by 1,000 with a tie group of three across the page
// boundary then misses one record (and serves another twice).
func TestUnstableTieOrderLosesARecordAtThePageBoundary(t *testing.T) {
	recs := sequentialHistory(1001)
	for i := range 3 { // ids 1, 2, 3: the oldest, served at rows 999-1001
		recs[i].Timestamp = histBase
	}
	for _, unstable := range []bool{false, true} {
		s := testScenario()
		s.UnstableTieOrder = unstable
		h := newHarness(t, s, WithRateLimit(0, 0))
		if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a", Records: recs}}); err != nil {
			t.Fatal(err)
		}
		p1 := ids(t, rowsOf(t, wantOK(t, h.get(PathTokenHistory, "page=1&size=1000", "a1"))))
		p2 := ids(t, rowsOf(t, wantOK(t, h.get(PathTokenHistory, "page=2&size=1000", "a1"))))
		seen := map[string]bool{}
		for _, id := range append(p1, p2...) {
			seen[id] = true
		}
		if want := map[bool]int{false: 1001, true: 1000}[unstable]; len(seen) != want {
			t.Errorf("unstable %v: two pages hold %d distinct ids, want %d", unstable, len(seen), want)
		}
		// Only the tie group moves.
		if p1[0] != "1001" || p1[997] != "4" {
			t.Errorf("unstable %v: untied rows moved: %s ... %s", unstable, p1[0], p1[997])
		}
		a := ids(t, rowsOf(t, wantOK(t, h.get(PathTokenHistory, "type=DEPOSIT&startTime="+strconv.FormatInt(histBase, 10)+"&endTime="+strconv.FormatInt(histBase, 10), "a1"))))
		b := ids(t, rowsOf(t, wantOK(t, h.get(PathTokenHistory, "type=DEPOSIT&startTime="+strconv.FormatInt(histBase, 10)+"&endTime="+strconv.FormatInt(histBase, 10), "a1"))))
		if same := slices.Equal(a, b); same == unstable {
			t.Errorf("unstable %v: two requests gave %v and %v", unstable, a, b)
		}
	}
}

// A late record stays out of the list (and the total) until server time
// reaches its timestamp plus the delay; the same ids are late every run.
func TestLateListingHidesRecordsUntilTheirDelayPasses(t *testing.T) {
	l := &LateListing{Share: 0.5, Delay: 10 * time.Minute}
	now := testStart.UnixMilli()
	var recs []HistoryRecord
	var late []int64
	for id := int64(1); id <= 200; id++ {
		ts := now - 5*60_000 // 5 minutes old
		if id > 100 {
			ts = now - 20*60_000 // older than the delay: listed whatever the share
		}
		recs = append(recs, HistoryRecord{ID: id, Type: "DEPOSIT", Token: "USDT", Amount: "1", Timestamp: ts})
		if id <= 100 && l.Selects(id) {
			late = append(late, id)
		}
	}
	if len(late) < 35 || len(late) > 65 {
		t.Fatalf("share 0.5 selects %d of 100 ids", len(late))
	}
	var pinned []int64
	for id := int64(1); id <= 12; id++ {
		if l.Selects(id) {
			pinned = append(pinned, id)
		}
	}
	if fmt.Sprint(pinned) != latePinned {
		t.Errorf("late ids among 1..12 = %v, want %s every run", pinned, latePinned)
	}

	s := testScenario()
	s.LateListing = l
	h := newHarness(t, s, WithRateLimit(0, 0))
	if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a", Records: recs}}); err != nil {
		t.Fatal(err)
	}
	listed := func() (map[int64]bool, string) {
		m := wantOK(t, h.get(PathTokenHistory, "size=1000", "a1"))
		out := map[int64]bool{}
		for _, id := range ids(t, rowsOf(t, m)) {
			n, _ := strconv.ParseInt(id, 10, 64)
			out[n] = true
		}
		return out, metaOf(t, m)["total"].(json.Number).String()
	}
	got, total := listed()
	if len(got) != 200-len(late) || total != strconv.Itoa(200-len(late)) {
		t.Errorf("%d listed, total %s, want %d", len(got), total, 200-len(late))
	}
	for _, id := range late {
		if got[id] {
			t.Errorf("late id %d listed 5 minutes after its timestamp", id)
		}
	}
	h.clock.Add(5*time.Minute - time.Millisecond)
	if got, _ := listed(); len(got) != 200-len(late) {
		t.Errorf("1 ms before the delay: %d listed", len(got))
	}
	h.clock.Add(time.Millisecond)
	if got, _ := listed(); len(got) != 200 {
		t.Errorf("at timestamp + delay: %d listed, want 200", len(got))
	}

	for share, want := range map[float64]int{0: 0, 1: 100} {
		n := 0
		for id := int64(1); id <= 100; id++ {
			if (&LateListing{Share: share}).Selects(id) {
				n++
			}
		}
		if n != want {
			t.Errorf("share %v selects %d of 100", share, n)
		}
	}
}

// A restamp event moves a record: it leaves the query window it was in, enters
// the one of its new time, and is served in its new place.
func TestRestampEventMovesARecordAndKeepsHistorySorted(t *testing.T) {
	h := newHarness(t, testScenario(), WithRateLimit(0, 0))
	if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a", Records: historyRecords(5)}}); err != nil {
		t.Fatal(err)
	}
	if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a",
		Records: []HistoryRecord{{ID: 2, Timestamp: histBase + 1000*7}}, Restamp: true}}); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(ids(t, rowsOf(t, wantOK(t, h.get(PathTokenHistory, "", "a1"))))); got != "[2 5 4 3 1]" {
		t.Errorf("after the move: %s, want [2 5 4 3 1]", got)
	}
	if got := ids(t, rowsOf(t, wantOK(t, h.get(PathTokenHistory, "startTime="+histMs(2)+"&endTime="+histMs(2), "a1")))); len(got) != 0 {
		t.Errorf("old time still lists %v", got)
	}
	if got := fmt.Sprint(ids(t, rowsOf(t, wantOK(t, h.get(PathTokenHistory, "startTime="+histMs(6), "a1"))))); got != "[2]" {
		t.Errorf("new time lists %s, want [2]", got)
	}
	hist := h.ex.ServedHistory("a")
	if !slices.IsSortedFunc(hist, compareRecords) || hist[4].ID != 2 || hist[4].Timestamp != histBase+7000 {
		t.Errorf("history after move = %+v", hist)
	}
	for _, err := range []error{
		h.ex.Apply(Event{History: &HistoryEvent{Account: "a",
			Records: []HistoryRecord{{ID: 99, Timestamp: histBase}}, Restamp: true}}),
		h.ex.Apply(Event{History: &HistoryEvent{Account: "nobody",
			Records: []HistoryRecord{{ID: 1, Timestamp: histBase}}, Restamp: true}}),
		h.ex.Apply(Event{History: &HistoryEvent{Account: "a", Records: []HistoryRecord{{ID: 1, Timestamp: -1}}, Restamp: true}}),
	} {
		if err == nil {
			t.Error("bad move accepted")
		}
	}
}

// With shared_ids the legs of one trade may share an id (token or type
// differ) and are served as separate rows with that id; a restamp moves
// them together. Without it a repeated id stays an error.
func TestSharedIDsAllowLegsOfOneTrade(t *testing.T) {
	legs := []HistoryRecord{
		{ID: 7, Type: "SPOT_TRANSACTION", Token: "BTC", Amount: "0.1", Timestamp: histBase},
		{ID: 7, Type: "SPOT_TRANSACTION", Token: "USDT", Amount: "-6000", Timestamp: histBase},
		{ID: 7, Type: "TRANSACTION_FEE", Token: "USDT", Amount: "-6", Timestamp: histBase},
	}
	h := newHarness(t, testScenario())
	if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a",
		Records: legs}}); err == nil || !strings.Contains(err.Error(), "duplicate id 7") {
		t.Errorf("without shared_ids: err = %v", err)
	}

	s := testScenario()
	s.SharedIDs = true
	h = newHarness(t, s, WithRateLimit(0, 0))
	if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a", Records: legs}}); err != nil {
		t.Fatal(err)
	}
	if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a",
		Records: []HistoryRecord{{ID: 7, Type: "TRANSACTION_FEE", Token: "USDT", Amount: "-1", Timestamp: histBase + 1}}}}); err == nil ||
		!strings.Contains(err.Error(), "duplicate id 7 with token USDT and type TRANSACTION_FEE") {
		t.Errorf("same id, token and type: err = %v", err)
	}
	rows := rowsOf(t, wantOK(t, h.get(PathTokenHistory, "", "a1")))
	var got []string
	for _, r := range rows {
		got = append(got, fmt.Sprintf("%v/%v/%v", r["id"], r["type"], r["token"]))
	}
	if fmt.Sprint(got) != "[7/TRANSACTION_FEE/USDT 7/SPOT_TRANSACTION/USDT 7/SPOT_TRANSACTION/BTC]" {
		t.Errorf("rows = %v", got)
	}
	if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a",
		Records: []HistoryRecord{{ID: 7, Timestamp: histBase + 5000}}, Restamp: true}}); err != nil {
		t.Fatal(err)
	}
	if n := len(rowsOf(t, wantOK(t, h.get(PathTokenHistory, "startTime="+histMs(5), "a1")))); n != 3 {
		t.Errorf("after moving id 7: %d legs at the new time, want 3", n)
	}
}

// errorAnswers gets one answer of every error envelope the fake builds.
func errorAnswers(h *harness) map[string]reply {
	bad := h.signedRequest(PathCredentials, "", "a1")
	bad.Header.Set("x-api-signature", strings.Repeat("0", 64))
	notFound, _ := http.NewRequest(http.MethodGet, h.srv.URL+"/v3/public/orderbook", nil)
	out := map[string]reply{
		"404":           h.do(notFound),
		"unknown key":   h.get(PathCredentials, "", "nope"),
		"bad signature": h.do(bad),
		"no READ":       h.get(PathCredentials, "", "a-trade"),
		"-1004":         h.get(PathTokenHistory, "token=BTC", "a1"),
		"-1005":         h.get(PathTokenHistory, "size=1001", "a1"),
	}
	for _, f := range []Fault{
		{Kind: FaultSuccessFalse}, {Kind: FaultMaintenance}, {Kind: FaultRateLimitStorm},
		{Kind: FaultHTTPError, Status: 500},
	} {
		f.Count = 1
		h.ex.InjectFault(f)
		out[string(f.Kind)] = h.get(PathCredentials, "", "a1")
	}
	for range 10 {
		h.get(PathCredentials, "", "b1")
	}
	out["429"] = h.get(PathCredentials, "", "b1")
	return out
}

// With error_timestamp every error envelope carries server time plus the
// offset in the unit asked; success answers keep the true time in ms.
func TestErrorTimestampOnEveryErrorAnswer(t *testing.T) {
	for _, tc := range []struct {
		et         *ErrorTimestamp
		allStrings bool
		want       string
	}{
		{&ErrorTimestamp{Offset: -time.Hour}, false, strconv.FormatInt(testStart.Add(-time.Hour).UnixMilli(), 10)},
		{&ErrorTimestamp{Offset: 90 * time.Second, Unit: "ms"}, false, strconv.FormatInt(testStart.Add(90*time.Second).UnixMilli(), 10)},
		{&ErrorTimestamp{Offset: 24 * time.Hour, Unit: "us"}, false, strconv.FormatInt(testStart.Add(24*time.Hour).UnixMicro(), 10)},
		{&ErrorTimestamp{Unit: "us"}, true, strconv.FormatInt(testStart.UnixMicro(), 10)},
	} {
		s := testScenario()
		s.ErrorTimestamp, s.NumbersAsStrings = tc.et, tc.allStrings
		h := newHarness(t, s)
		answers := errorAnswers(h)
		if len(answers) != 11 {
			t.Fatalf("%d error answers", len(answers))
		}
		for name, r := range answers {
			m := r.json(t)
			if m["success"] != false {
				t.Errorf("%+v %s: not an error: %s", tc.et, name, r.body)
				continue
			}
			got, ok := m["timestamp"]
			if _, isString := got.(string); !ok || fmt.Sprint(got) != tc.want || isString != tc.allStrings {
				t.Errorf("%+v %s: timestamp %#v, want %s: %s", tc.et, name, got, tc.want, r.body)
			}
		}
		if ts := fmt.Sprint(wantOK(t, h.get(PathCredentials, "", "a2"))["timestamp"]); ts != strconv.FormatInt(testStart.UnixMilli(), 10) {
			t.Errorf("%+v: success timestamp %s, want the true server time", tc.et, ts)
		}
	}
}

// Without error_timestamp no error envelope carries a timestamp.
func TestErrorAnswersCarryNoTimestampByDefault(t *testing.T) {
	h := newHarness(t, testScenario())
	for name, r := range errorAnswers(h) {
		if m := r.json(t); m["success"] != false || m["timestamp"] != nil {
			t.Errorf("%s: %s", name, r.body)
		}
	}
}
