package fakeexchange

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestTokenNetworkSendsNumbersAsStringsByDefault(t *testing.T) {
	h := newHarness(t, testScenario())
	r := h.public()
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type = %q", ct)
	}
	m := wantOK(t, r)
	if _, ok := m["timestamp"].(json.Number); !ok {
		t.Errorf("timestamp missing or not a number: %s", r.body)
	}
	if _, ok := m["data"].(map[string]any)["meta"]; ok {
		t.Errorf("token network answer has meta: %s", r.body)
	}
	rows := rowsOf(t, m)
	want := map[string]any{"protocol": "ERC20", "network": "ETH", "token": "USDT", "name": "Ethereum",
		"minimumWithdrawal": "10.00000000", "withdrawalFee": "1.5", "allowDeposit": "1", "allowWithdraw": "0"}
	if len(rows) != 1 || fmt.Sprint(rows[0]) != fmt.Sprint(want) {
		t.Errorf("rows = %v, want [%v]", rows, want)
	}
}

func TestTokenNetworkNumbersAsJSONNumbers(t *testing.T) {
	s := testScenario()
	s.NumbersAsJSONNumbers = true
	h := newHarness(t, s)
	r := h.public()
	if !strings.Contains(string(r.body), `"minimumWithdrawal":10.00000000,`) || !strings.Contains(string(r.body), `"allowWithdraw":0`) {
		t.Errorf("numbers not sent as JSON numbers: %s", r.body)
	}
}

func TestTokenNetworkChangesAreServed(t *testing.T) {
	h := newHarness(t, testScenario())
	h.ex.UpdateTokenNetwork("USDT", "ETH", func(r *TokenNetworkRow) { r.AllowWithdraw = 1 })
	h.ex.UpdateTokenNetwork("BTC", "BTC", func(r *TokenNetworkRow) { r.AllowDeposit = 1 })
	rows := rowsOf(t, wantOK(t, h.public()))
	if len(rows) != 2 || rows[0]["allowWithdraw"] != "1" || rows[1]["token"] != "BTC" {
		t.Errorf("rows = %v", rows)
	}
	h.ex.SetTokenNetworks(nil)
	if r := h.public(); !strings.Contains(string(r.body), `"rows":[]`) {
		t.Errorf("empty rows not sent as []: %s", r.body)
	}
}

func TestCredentialsRowsAndAllowedIPsOmission(t *testing.T) {
	h := newHarness(t, testScenario())
	r := h.get(PathCredentials, "", "a1")
	rows := rowsOf(t, wantOK(t, r))
	if len(rows) != 4 {
		t.Fatalf("got %d rows, want the 4 keys of account a", len(rows))
	}
	if _, ok := rows[0]["allowedIPs"]; ok {
		t.Errorf("unrestricted key has allowedIPs: %v", rows[0])
	}
	if fmt.Sprint(rows[1]["allowedIPs"]) != "[127.0.0.1 ::1]" || fmt.Sprint(rows[1]["permissions"]) != "[READ TRADE]" {
		t.Errorf("row 1 = %v", rows[1])
	}
	if rows[0]["accountName"] != "Alpha" || rows[0]["userId"] != json.Number("1") || rows[0]["apiKey"] != "a1" {
		t.Errorf("row 0 = %v", rows[0])
	}
	meta := metaOf(t, r.json(t))
	if fmt.Sprint(meta) != "map[currentPage:1 recordsPerPage:25 total:4]" {
		t.Errorf("meta = %v", meta)
	}
}

func TestCredentialsPagingAndSnakeCaseMeta(t *testing.T) {
	s := testScenario()
	s.SnakeCaseMeta = true
	h := newHarness(t, s)
	r := h.get(PathCredentials, "page=2&size=3", "a1")
	rows := rowsOf(t, wantOK(t, r))
	if len(rows) != 1 || rows[0]["apiKey"] != "a-ip" {
		t.Errorf("page 2 of size 3 = %v", rows)
	}
	if meta := metaOf(t, r.json(t)); fmt.Sprint(meta) != "map[current_page:2 records_per_page:3 total:4]" {
		t.Errorf("meta = %v", meta)
	}
}

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
	if err := h.ex.AppendHistory("a", historyRecords(10)...); err != nil {
		t.Fatal(err)
	}
	// Same timestamp as id 10: ties are broken by id, descending.
	if err := h.ex.AppendHistory("a", HistoryRecord{ID: 11, Type: "DEPOSIT", Token: "BTC", Amount: "0.00000001", Timestamp: histBase + 10000}); err != nil {
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
	if err := h.ex.AppendHistory("a", recs...); err != nil {
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

func TestInvalidQueryParameters(t *testing.T) {
	h := newHarness(t, testScenario(), WithRateLimit(0, 0))
	for _, tc := range []struct {
		path, query, code string
	}{
		{PathTokenHistory, "type=NOPE", "-1005"},
		{PathTokenHistory, "type=", "-1005"},
		{PathTokenHistory, "type=deposit", "-1005"},
		{PathTokenHistory, "startTime=abc", "-1005"},
		{PathTokenHistory, "startTime=", "-1005"},
		{PathTokenHistory, "startTime=1.5", "-1005"},
		{PathTokenHistory, "endTime=-1", "-1005"},
		{PathTokenHistory, "startTime=" + histMs(5) + "&endTime=" + histMs(4), "-1005"},
		{PathTokenHistory, "page=0", "-1005"},
		{PathTokenHistory, "size=0", "-1005"},
		{PathTokenHistory, "size=x", "-1005"},
		{PathTokenHistory, "page=1&page=2", "-1005"},
		{PathTokenHistory, "start_time=1", "-1004"},
		{PathTokenHistory, "token=USDT", "-1004"},
		{PathCredentials, "type=DEPOSIT", "-1004"},
		{PathCredentials, "page=%zz", "-1005"},
	} {
		wantError(t, h.get(tc.path, tc.query, "a1"), 400, tc.code)
	}
	req, _ := http.NewRequest(http.MethodGet, h.srv.URL+PathTokenNetwork+"?x=1", nil)
	wantError(t, h.do(req), 400, "-1004")
}

func TestUnknownPathsAndMethodsAre404(t *testing.T) {
	h := newHarness(t, testScenario())
	for _, tc := range []struct{ method, path string }{
		{http.MethodGet, "/v3/public/instruments"},
		{http.MethodPost, PathSystemInfo},
		{http.MethodGet, "/v3/asset/token/history/"},
		{http.MethodPost, PathTokenNetwork},
		{http.MethodDelete, PathCredentials},
	} {
		req, _ := http.NewRequest(tc.method, h.srv.URL+tc.path, nil)
		wantError(t, h.do(req), 404, "-1006")
	}
}

func TestBeforeHistoryPageHookSeesEachPageAndCanAppend(t *testing.T) {
	h := newHarness(t, testScenario())
	if err := h.ex.AppendHistory("a", historyRecords(4)...); err != nil {
		t.Fatal(err)
	}
	var calls []string
	h.ex.BeforeHistoryPage(func(account string, page int) {
		calls = append(calls, fmt.Sprintf("%s:%d", account, page))
		if page == 2 {
			// A new record arrives between the two page requests of one poll.
			id := h.ex.NextHistoryID(account)
			if err := h.ex.AppendHistory(account, HistoryRecord{ID: id, Type: "DEPOSIT", Token: "USDT", Amount: "7", Timestamp: histBase + 99000}); err != nil {
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

func TestAppendHistoryRejectsDuplicateIDs(t *testing.T) {
	h := newHarness(t, testScenario())
	if err := h.ex.AppendHistory("a", historyRecords(2)...); err != nil {
		t.Fatal(err)
	}
	if err := h.ex.AppendHistory("a", historyRecords(1)...); err == nil {
		t.Error("duplicate id accepted")
	}
	if err := h.ex.AppendHistory("b", historyRecords(1)...); err != nil {
		t.Errorf("same id in another account: %v", err)
	}
	if got := h.ex.NextHistoryID("a"); got != 3 {
		t.Errorf("NextHistoryID = %d, want 3", got)
	}
	if err := h.ex.AppendHistory("nobody", historyRecords(1)...); err == nil {
		t.Error("unknown account accepted")
	}
}

func TestRequestsRecordsEveryRequest(t *testing.T) {
	h := newHarness(t, testScenario(), WithRateLimit(1, time.Minute))
	h.public()
	h.get(PathCredentials, "page=1", "a1")
	h.get(PathCredentials, "", "a2")
	h.get(PathCredentials, "", "nope")
	var got []string
	for _, r := range h.ex.Requests() {
		got = append(got, fmt.Sprintf("%s/%s/%d/%d", r.Endpoint, r.Account, r.Status, r.Code))
	}
	want := []string{"token_network//200/0", "credentials/a/200/0", "credentials/a/429/-1003", "credentials//401/-1002"}
	if !slices.Equal(got, want) {
		t.Errorf("requests = %v, want %v", got, want)
	}
	if r := h.ex.Requests()[1]; r.RawQuery != "page=1" || !r.Time.Equal(testStart) {
		t.Errorf("record = %+v", r)
	}
}

func TestConcurrentRequestsAndMutations(t *testing.T) {
	h := newHarness(t, testScenario(), WithRateLimit(0, 0), WithPublicRateLimit(0, 0))
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for i := range 50 {
				id := int64(g*1000 + i + 1)
				if err := h.ex.AppendHistory("a", HistoryRecord{ID: id, Type: "DEPOSIT", Token: "USDT", Amount: "1", Timestamp: id}); err != nil {
					t.Error(err)
				}
				h.ex.UpdateTokenNetwork("USDT", "ETH", func(r *TokenNetworkRow) { r.AllowWithdraw = i % 2 })
			}
		}()
		go func() {
			defer wg.Done()
			for range 20 {
				for _, r := range []reply{h.get(PathTokenHistory, "size=7", "a1"), h.public()} {
					if r.status != http.StatusOK {
						t.Errorf("status %d: %s", r.status, r.body)
					}
				}
			}
		}()
	}
	wg.Wait()
	if n := len(h.ex.ServedHistory("a")); n != 200 {
		t.Errorf("%d records, want 200", n)
	}
}

// noJSONNumbers fails on any JSON number in v, naming its path.
func noJSONNumbers(t *testing.T, path string, v any) {
	t.Helper()
	switch x := v.(type) {
	case json.Number:
		t.Errorf("%s is the JSON number %s", path, x)
	case map[string]any:
		for k, e := range x {
			noJSONNumbers(t, path+"."+k, e)
		}
	case []any:
		for i, e := range x {
			noJSONNumbers(t, fmt.Sprintf("%s[%d]", path, i), e)
		}
	}
}

// With numbers_as_strings every numeric field of every answer, errors
// included, is a JSON string, and meta is snake_case.
func TestNumbersAsStringsSendsNoJSONNumber(t *testing.T) {
	s := testScenario()
	s.NumbersAsStrings = true
	h := newHarness(t, s)
	if err := h.ex.AppendHistory("a", HistoryRecord{ID: 7, Type: "DEPOSIT", Token: "BTC", Amount: "-0.5", Timestamp: testStart.UnixMilli() - 1000}); err != nil {
		t.Fatal(err)
	}
	answers := map[string]reply{
		"token network": h.public(),
		"credentials":   h.get(PathCredentials, "page=1&size=2", "a1"),
		"history":       h.get(PathTokenHistory, "", "a1"),
	}
	for name, r := range answers {
		m := wantOK(t, r)
		noJSONNumbers(t, name, m)
		if m["timestamp"] != strconv.FormatInt(testStart.UnixMilli(), 10) {
			t.Errorf("%s: timestamp = %#v", name, m["timestamp"])
		}
	}
	meta := metaOf(t, answers["credentials"].json(t))
	if meta["total"] != "4" || meta["records_per_page"] != "2" || meta["current_page"] != "1" {
		t.Errorf("meta = %v, want snake_case strings", meta)
	}
	if row := rowsOf(t, answers["credentials"].json(t))[0]; row["userId"] != "1" {
		t.Errorf("userId = %#v, want \"1\"", row["userId"])
	}
	if row := rowsOf(t, answers["history"].json(t))[0]; row["id"] != "7" || row["timestamp"] != strconv.FormatInt(testStart.UnixMilli()-1000, 10) || row["amount"] != "-0.5" {
		t.Errorf("history row = %v", row)
	}
	for name, r := range map[string]reply{
		"unknown key":   h.get(PathCredentials, "", "b1-unknown"),
		"bad parameter": h.get(PathTokenHistory, "type=NOPE", "a1"),
	} {
		noJSONNumbers(t, name, r.json(t))
		if _, ok := r.json(t)["code"].(string); !ok {
			t.Errorf("%s: code is not a string: %s", name, r.body)
		}
	}
	h.ex.InjectFault(Fault{Kind: FaultRateLimitStorm, Count: 1})
	if r := h.public(); r.code(t) != "-1003" {
		t.Errorf("429 code = %q", r.code(t))
	} else {
		noJSONNumbers(t, "429", r.json(t))
	}
}

// The default sends ids, timestamps, userId, meta and codes as JSON numbers,
// as the documentation shows: the client must read both.
func TestDefaultSendsIntegersAsJSONNumbers(t *testing.T) {
	h := newHarness(t, testScenario())
	m := wantOK(t, h.get(PathCredentials, "", "a1"))
	if _, ok := metaOf(t, m)["total"].(json.Number); !ok {
		t.Errorf("meta.total is not a number: %v", metaOf(t, m))
	}
	if _, ok := rowsOf(t, m)[0]["userId"].(json.Number); !ok {
		t.Errorf("userId is not a number: %v", rowsOf(t, m)[0])
	}
	if _, ok := h.get(PathCredentials, "", "nope").json(t)["code"].(json.Number); !ok {
		t.Error("error code is not a number")
	}
}
