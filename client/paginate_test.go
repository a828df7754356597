package client

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// pagingServer serves n history records (ids 1..n) page by page. capAt,
// when set, is the most rows it serves per page whatever the size asked;
// meta renders the page's meta object from the size it served; clamp
// answers a page beyond the last with the last page again.
func pagingServer(t *testing.T, n, capAt int, clamp bool, meta func(served, page int) string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		size, _ := strconv.Atoi(r.URL.Query().Get("size"))
		if capAt > 0 {
			size = min(size, capAt)
		}
		if last := max(1, (n+size-1)/size); clamp && page > last {
			page = last
		}
		var rows []string
		for id := (page-1)*size + 1; id <= min(page*size, n); id++ {
			rows = append(rows, fmt.Sprintf(`{"id":%d,"type":"DEPOSIT","token":"BTC","amount":"1","timestamp":%d}`, id, 1721295317000+id))
		}
		m := ""
		if meta != nil {
			m = `,"meta":` + meta(size, page)
		}
		fmt.Fprintf(w, `{"success":true,"data":{"rows":[%s]%s},"timestamp":1721295318000}`, strings.Join(rows, ","), m)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

// pagesServer answers history page n with the rows array pages[n-1], and
// every later page with no rows.
func pagesServer(t *testing.T, pages ...string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rows := "[]"
		if page, _ := strconv.Atoi(r.URL.Query().Get("page")); page >= 1 && page <= len(pages) {
			rows = pages[page-1]
		}
		fmt.Fprintf(w, `{"success":true,"data":{"rows":%s},"timestamp":1721295318000}`, rows)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestPagingEndsOnAnEmptyRepeatedOrClearlyLastPage(t *testing.T) {
	camel := func(total int) func(int, int) string {
		return func(served, page int) string {
			return fmt.Sprintf(`{"total":%d,"recordsPerPage":%d,"currentPage":%d}`, total, served, page)
		}
	}
	asked := func(total int) func(int, int) string {
		return func(_, page int) string {
			return fmt.Sprintf(`{"total":%d,"recordsPerPage":1000,"currentPage":%d}`, total, page)
		}
	}
	for _, tc := range []struct {
		name     string
		records  int
		size     int
		capAt    int
		clamp    bool
		meta     func(served, page int) string
		requests int32
	}{
		// A full page followed by more shows the exchange serves 100 a
		// page: the short third page is the last, whatever meta says.
		{"total matches", 250, 100, 0, false, camel(250), 3},
		// Stopping at page*size >= total lost records 101..250 for good.
		{"total understated", 250, 100, 0, false, camel(100), 3},
		{"total zero with full pages", 250, 100, 0, false, camel(0), 3},
		{"total overstated", 150, 100, 0, false, camel(1000), 2},
		// 40 of 100 on the first page may be a silent cap: the second
		// page asks on, and then 10 of 40 is clearly the last.
		{"server caps page size silently", 250, 100, 40, false, func(_, page int) string {
			return fmt.Sprintf(`{"total":250,"currentPage":%d}`, page)
		}, 7},
		{"no meta", 250, 100, 0, false, nil, 3},
		{"server caps page size", 250, 100, 40, false, camel(250), 7},
		{"server caps page size, snake case meta", 250, 100, 40, false, func(served, page int) string {
			return fmt.Sprintf(`{"total":"250","records_per_page":"%d","current_page":"%d"}`, served, page)
		}, 7},
		// Fewer than the documented default page size: no cap explains it.
		{"first page below the default page size", 24, 100, 0, false, camel(24), 1},
		// 25 or more and fewer than asked: perhaps capped, so ask on.
		{"first page short of the size but not of the default", 30, 100, 0, false, camel(30), 2},
		{"first page capped at 30 with an understated total", 70, 100, 30, false, asked(20), 3},
		// 500 rows a page when 1000 were asked, and meta claiming 1000 a
		// page and 1,200 rows fewer than there are.
		{"capped pages and understated total", 2500, 1000, 500, false, asked(1300), 6},
		{"exact multiple", 200, 100, 0, false, camel(200), 3},
		{"empty", 0, 100, 0, false, camel(0), 1},
		// The page after the last, full, answers the last again: nothing new.
		{"clamped pages", 200, 100, 0, true, camel(200), 3},
		{"clamped and capped pages", 240, 100, 40, true, camel(240), 7},
		{"clamped single page short of the size", 30, 100, 0, true, camel(30), 2},
		{"clamped empty list", 0, 100, 0, true, camel(0), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, calls := pagingServer(t, tc.records, tc.capAt, tc.clamp, tc.meta)
			c := newTestClient(t, srv.URL, func(c *Config) { c.RateLimit = RateLimit{Requests: 1000, Window: time.Minute}; c.Budget = 1 })
			var got []HistoryRecord
			err := c.TokenHistoryPages(context.Background(), HistoryQuery{PageSize: tc.size}, func(p HistoryPage) error {
				if len(got) < tc.records {
					got = append(got, p.Records...)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tc.records {
				t.Errorf("got %d records, want %d", len(got), tc.records)
			}
			for i, r := range got {
				if r.ID != int64(i+1) {
					t.Fatalf("record %d has id %d: pages missing or repeated", i, r.ID)
				}
			}
			if n := calls.Load(); n != tc.requests {
				t.Errorf("%d page requests, want %d", n, tc.requests)
			}
		})
	}
}

func TestCredentialsPageOnPastAnUnderstatedTotal(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		var rows []string
		// 1000 keys on page 1, 3 on page 2; meta claims 1000 in all.
		for i := 0; i < map[int]int{1: 1000, 2: 3}[page]; i++ {
			rows = append(rows, fmt.Sprintf(`{"apiKey":"k-%d-%d","permissions":["READ"]}`, page, i))
		}
		fmt.Fprintf(w, `{"success":true,"data":{"rows":[%s],"meta":{"total":1000,"recordsPerPage":1000,"currentPage":%d}},"timestamp":1}`, strings.Join(rows, ","), page)
	}))
	t.Cleanup(srv.Close)
	c := newTestClient(t, srv.URL, func(c *Config) { c.RateLimit = RateLimit{Requests: 1000, Window: time.Minute}; c.Budget = 1 })
	got, rejected, err := c.Credentials(context.Background())
	if err != nil || len(rejected) != 0 {
		t.Fatal(err, rejected)
	}
	if len(got) != 1003 || calls.Load() != 2 {
		t.Errorf("got %d keys in %d requests, want 1003 in 2 (the second, short of a full page, the last)", len(got), calls.Load())
	}
}

// Credentials answered with the last page again for every page beyond it
// end after one repeated page. 30 keys of 1000 asked might be a silent cap,
// so only the repeat ends the list.
func TestCredentialsStopOnARepeatedPage(t *testing.T) {
	var rows []string
	for i := range 30 {
		rows = append(rows, fmt.Sprintf(`{"apiKey":"k%d","permissions":["READ"]}`, i))
	}
	srv, calls := cannedServer(t, 200, `{"success":true,"data":{"rows":[`+strings.Join(rows, ",")+`],"meta":{"total":30,"recordsPerPage":1000,"currentPage":1}},"timestamp":1721295318000}`)
	got, rejected, err := newTestClient(t, srv.URL, nil).Credentials(context.Background())
	if err != nil || len(rejected) != 0 {
		t.Fatal(err, rejected)
	}
	if n := calls.Load(); n != 2 || len(got) != 30 {
		t.Errorf("%d requests and %d keys, want 30 keys in 2 requests: the second page brought no new key", n, len(got))
	}
}

// What a paging showed of the exchange's pages ends the next one early: a
// page shorter than one the exchange served before, a last one too, is the
// last, with no empty page after it; one as long asks on.
func TestASeenCapEndsTheNextListOnItsFirstPage(t *testing.T) {
	pages := func(sizes ...int) (func(page, size int) ([]int, error), *int) {
		fetched := 0
		return func(page, size int) ([]int, error) {
			fetched++
			if page > len(sizes) {
				return nil, nil
			}
			ids := make([]int, sizes[page-1])
			for i := range ids {
				ids[i] = page*10000 + i
			}
			return ids, nil
		}, &fetched
	}
	for _, tc := range []struct {
		name           string
		served         int
		sizes          []int
		fetched, after int
	}{
		{"nothing seen: 28 of 1000 may be capped", 0, []int{28}, 2, 28},
		{"28 seen on a last page: 27 is the last", 28, []int{27}, 1, 28},
		{"28 seen on a last page: 28 asks on", 28, []int{28}, 2, 28},
		{"28 then more: the exchange capped at 28", 0, []int{28, 5}, 2, 28},
		{"capped at 30, learnt on the way", 0, []int{30, 30, 29}, 3, 30},
		{"cap 30 seen before: 29 is the last", 30, []int{29}, 1, 30},
		{"cap 30 seen before: 30 asks on", 30, []int{30}, 2, 30},
		{"below the default page size", 0, []int{24}, 1, 24},
		{"a full page seen before: anything shorter is the last", 1000, []int{999}, 1, 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fetch, fetched := pages(tc.sizes...)
			served, err := paginate(1000, tc.served, fetch)
			if err != nil || *fetched != tc.fetched || served != tc.after {
				t.Errorf("%d pages fetched, served %d, %v; want %d pages, served %d", *fetched, served, err, tc.fetched, tc.after)
			}
		})
	}
}

// Malformed rows are rows: a page of them leads to the next, and a repeat
// of them is recognised by their keys.
func TestMalformedRowsCountTowardPaging(t *testing.T) {
	// 25 rows: as many as the default page size, so the page may be capped.
	rows := []string{`{"amount":"1","timestamp":1721295317002}`}
	for id := 1; id < 25; id++ {
		rows = append(rows, fmt.Sprintf(`{"id":%d,"amount":"x","timestamp":1721295317001}`, id))
	}
	bad := "[" + strings.Join(rows, ",") + "]"
	srv := pagesServer(t, bad, `[{"id":100,"type":"DEPOSIT","token":"BTC","amount":"1","timestamp":1721295317003}]`)
	recs, malformed, err := newTestClient(t, srv.URL, nil).TokenHistory(context.Background(), HistoryQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].ID != 100 || len(malformed) != 25 || malformed[1].Key != "id:1" {
		t.Errorf("records %+v, malformed %+v", recs, malformed)
	}
	repeat := pagesServer(t, bad, bad, bad)
	var pages int
	err = newTestClient(t, repeat.URL, nil).TokenHistoryPages(context.Background(), HistoryQuery{}, func(HistoryPage) error { pages++; return nil })
	if err != nil || pages != 2 {
		t.Errorf("%d pages, %v; want 2: the second repeats the first", pages, err)
	}
}

// An exchange that serves new rows forever is cut off, not followed.
func TestPagingGivesUpAfterMaxPages(t *testing.T) {
	fetched := 0
	_, err := paginate(1, 0, func(page, size int) ([]string, error) {
		fetched++
		return []string{strconv.Itoa(page)}, nil
	})
	if !IsBadResponse(err) || fetched != maxPages {
		t.Fatalf("err = %v after %d pages, want a bad response after %d", err, fetched, maxPages)
	}
}

// queryServer records the raw query and signed headers of each request and
// answers an empty page.
func queryServer(t *testing.T) (*httptest.Server, func() []*http.Request) {
	t.Helper()
	var mu sync.Mutex
	var reqs []*http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		reqs = append(reqs, r.Clone(context.Background()))
		mu.Unlock()
		fmt.Fprint(w, `{"success":true,"data":{"rows":[]},"timestamp":1721295318000}`)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []*http.Request {
		mu.Lock()
		defer mu.Unlock()
		return append([]*http.Request(nil), reqs...)
	}
}

// The legacy API verified the signature over the query sorted by name; the
// v3 one may verify it over the bytes sent. Sorted bytes satisfy both.
func TestHistoryQueryIsSentAndSignedSortedByName(t *testing.T) {
	srv, requests := queryServer(t)
	c := newTestClient(t, srv.URL, nil)
	q := HistoryQuery{Type: "DEPOSIT", StartTime: 1721295317000, EndTime: 1721295318999, PageSize: 5000}
	if err := c.TokenHistoryPages(context.Background(), q, func(HistoryPage) error { return nil }); err != nil {
		t.Fatal(err)
	}
	reqs := requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	r := reqs[0]
	const want = "endTime=1721295318999&page=1&size=1000&startTime=1721295317000&type=DEPOSIT"
	if r.URL.RawQuery != want {
		t.Errorf("query sent %q, want %q", r.URL.RawQuery, want)
	}
	sig := Sign(testSecret, r.Header.Get("x-api-timestamp"), "GET", endpoint.PathOf(endpoint.TokenHistory)+"?"+want, "")
	if r.Header.Get("x-api-signature") != sig {
		t.Error("the signature does not cover the query as sent")
	}
}

// startTime and endTime are 13-digit milliseconds; a time in seconds or
// microseconds is refused before a request is spent on it.
func TestHistoryQueryRefusesTimesThatAreNotMilliseconds(t *testing.T) {
	srv, requests := queryServer(t)
	c := newTestClient(t, srv.URL, nil)
	for _, tc := range []struct {
		q    HistoryQuery
		want string
	}{
		{HistoryQuery{StartTime: 1721295317}, "startTime 1721295317: want 13 digits of Unix milliseconds"},
		{HistoryQuery{EndTime: 1721295317000000}, "endTime 1721295317000000: want 13 digits of Unix milliseconds"},
		{HistoryQuery{StartTime: -1721295317000}, "startTime -1721295317000: want 13 digits"},
		{HistoryQuery{StartTime: 1721295318000, EndTime: 1721295317000}, "startTime 1721295318000 is after endTime 1721295317000"},
	} {
		err := c.TokenHistoryPages(context.Background(), tc.q, func(HistoryPage) error { return nil })
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want %q", tc.q, err, tc.want)
		}
	}
	if n := len(requests()); n != 0 {
		t.Errorf("%d requests sent for invalid queries", n)
	}
}
