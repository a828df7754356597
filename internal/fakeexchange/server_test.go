package fakeexchange

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
)

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
		{http.MethodGet, "/v3/public/orderbook"},
		{http.MethodPost, PathSystemInfo},
		{http.MethodGet, "/v3/asset/token/history/"},
		{http.MethodPost, PathTokenNetwork},
		{http.MethodDelete, PathCredentials},
	} {
		req, _ := http.NewRequest(tc.method, h.srv.URL+tc.path, nil)
		wantError(t, h.do(req), 404, "-1006")
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
				if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a",
					Records: []HistoryRecord{{ID: id, Type: "DEPOSIT", Token: "USDT", Amount: "1", Timestamp: id}}}}); err != nil {
					t.Error(err)
				}
				row := testScenario().TokenNetworks[0]
				row.AllowWithdraw = i % 2
				if err := h.ex.Apply(Event{TokenNetwork: &Change[TokenNetworkRow]{Row: row}}); err != nil {
					t.Error(err)
				}
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
	if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a",
		Records: []HistoryRecord{{ID: 7, Type: "DEPOSIT", Token: "BTC", Amount: "-0.5", Timestamp: testStart.UnixMilli() - 1000}}}}); err != nil {
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
