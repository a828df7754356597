package client

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// pagingServer serves n history records (ids 1..n) page by page. capAt,
// when set, is the most rows it serves per page whatever the size asked;
// meta renders the page's meta object from the size it served.
func pagingServer(t *testing.T, n, capAt int, meta func(served, page int) string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		size, _ := strconv.Atoi(r.URL.Query().Get("size"))
		if capAt > 0 {
			size = min(size, capAt)
		}
		var rows []string
		for id := (page-1)*size + 1; id <= min(page*size, n); id++ {
			rows = append(rows, fmt.Sprintf(`{"id":%d,"type":"DEPOSIT","token":"BTC","amount":"1","timestamp":%d}`, id, 1000+id))
		}
		m := ""
		if meta != nil {
			m = `,"meta":` + meta(size, page)
		}
		fmt.Fprintf(w, `{"success":true,"data":{"rows":[%s]%s},"timestamp":1}`, strings.Join(rows, ","), m)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func TestPagingStopsOnlyOnAShortOrEmptyPage(t *testing.T) {
	camel := func(total int) func(int, int) string {
		return func(served, page int) string {
			return fmt.Sprintf(`{"total":%d,"recordsPerPage":%d,"currentPage":%d}`, total, served, page)
		}
	}
	for _, tc := range []struct {
		name     string
		records  int
		capAt    int
		meta     func(served, page int) string
		requests int32
	}{
		{"total matches", 250, 0, camel(250), 3},
		// Stopping at page*size >= total lost records 101..250 for good.
		{"total understated", 250, 0, camel(100), 3},
		{"total zero with full pages", 250, 0, camel(0), 3},
		// A short page below the total may be a page the exchange capped
		// without saying so: one more page, which comes back empty.
		{"total overstated", 150, 0, camel(1000), 3},
		{"server caps page size silently", 250, 40, func(_, page int) string {
			return fmt.Sprintf(`{"total":250,"currentPage":%d}`, page)
		}, 7},
		{"no meta", 250, 0, nil, 3},
		// A page of 40 rows is full when the exchange serves 40 per page.
		{"server caps page size", 250, 40, camel(250), 7},
		{"server caps page size, snake case meta", 250, 40, func(served, page int) string {
			return fmt.Sprintf(`{"total":"250","records_per_page":"%d","current_page":"%d"}`, served, page)
		}, 7},
		{"exact multiple costs one empty page", 200, 0, camel(200), 3},
		{"empty", 0, 0, camel(0), 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, calls := pagingServer(t, tc.records, tc.capAt, tc.meta)
			c := newTestClient(t, srv.URL, func(c *Config) { c.RateLimit = RateLimit{Requests: 1000, Window: time.Minute}; c.Budget = 1 })
			got, err := c.TokenHistory(context.Background(), HistoryQuery{PageSize: 100})
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
	got, err := c.Credentials(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1003 || calls.Load() != 2 {
		t.Errorf("got %d keys in %d requests, want 1003 in 2", len(got), calls.Load())
	}
}

// An exchange that serves full pages forever is cut off, not followed.
func TestPagingGivesUpAfterMaxPages(t *testing.T) {
	var c Client
	fetched := 0
	err := c.paginate(context.Background(), 10, func(page, size int) (int, *PageMeta, error) {
		fetched++
		return size, &PageMeta{Total: 1}, nil
	})
	if !IsBadResponse(err) || fetched != maxPages {
		t.Fatalf("err = %v after %d pages, want a bad response after %d", err, fetched, maxPages)
	}
}
