package fakeexchange

import (
	"encoding/json"
	"strings"
	"testing"
)

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
		if err := h.ex.AppendHistory("a", recs...); err != nil {
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
		if err := h.ex.AppendHistory("a", historyRecords(3)...); err != nil {
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
