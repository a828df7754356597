package fakeexchange

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// payment is a history row of a test endpoint: what the generic history
// path serves is held to the history endpoints' rules without one of them.
type payment struct {
	ID     int64  `yaml:"id" wire:"id,integer,key"`
	Symbol string `yaml:"symbol" wire:"symbol"`
	Amount string `yaml:"amount" wire:"amount,decimal"`
	Ms     int64  `yaml:"ms" wire:"createdTime,row_time"`
}

// A history serves its rows newest first, then by id, within startTime and
// endTime, by the filters it takes, a late-listed share only after its
// delay, in pages with meta; it refuses other parameters.
func TestARowsHistoryServesPagesNewestFirstWithinItsWindow(t *testing.T) {
	s := testScenario()
	s.LateListing = &LateListing{Share: 0, Delay: time.Hour}
	h := newHarness(t, s)
	p := &rowsEndpoint[payment]{name: "payments", filters: []string{"symbol"}, paged: true, late: true,
		history: func(r payment) int64 { return r.Ms }}
	at := testStart.UnixMilli()
	for _, r := range []payment{{1, "A", "1", at - 3000}, {2, "B", "2", at - 2000}, {3, "A", "3", at - 2000}, {4, "A", "4", at - 1000}} {
		put := func(_ *accountState, rows *[]stored[payment]) error {
			return p.put(rows, r, replace, h.ex.now(), h.ex.now())
		}
		if err := p.withRows(h.ex, "put", "a", put); err != nil {
			t.Fatal(err)
		}
	}
	ids := func(query string) string {
		t.Helper()
		data, aerr := p.serve(h.ex, "a", query)
		if aerr != nil {
			t.Fatalf("%s: %s", query, aerr.message)
		}
		var page struct {
			Rows []struct{ ID int64 }
			Meta struct{ Total, CurrentPage int }
		}
		if err := json.Unmarshal(mustJSON(data), &page); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(page.Rows, page.Meta.Total, page.Meta.CurrentPage)
	}
	for query, want := range map[string]string{
		"":              "[{4} {3} {2} {1}] 4 1",
		"size=2&page=2": "[{2} {1}] 4 2",
		"symbol=A":      "[{4} {3} {1}] 3 1",
		"startTime=" + fmt.Sprint(at-2000) + "&endTime=" + fmt.Sprint(at-1500): "[{3} {2}] 2 1",
	} {
		if got := ids(query); got != want {
			t.Errorf("%q: %s, want %s", query, got, want)
		}
	}
	h.ex.s.LateListing.Share = 1
	if got := ids(""); got != "[] 0 1" {
		t.Errorf("all listed late, within the delay: %s", got)
	}
	h.clock.Add(time.Hour)
	if got := ids(""); got != "[{4} {3} {2} {1}] 4 1" {
		t.Errorf("after the delay: %s", got)
	}
	if _, aerr := p.serve(h.ex, "a", "token=A"); aerr == nil || aerr.code != -1004 {
		t.Errorf("an unknown parameter: %v", aerr)
	}
}
