package ledger

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

func TestRecordIdentityIsIDWithTokenAndType(t *testing.T) {
	l := New(0, Config{Overlap: time.Minute})
	steps := []struct {
		name string
		r    Record
		want bool
	}{
		{"first leg", rec(7, 10_000, "BTC", "TRANSACTION_FEE", "-0.1"), true},
		{"second leg of the trade reusing the id", rec(7, 10_000, "USDT", "TRANSACTION_FEE", "-5"), true},
		{"the first leg again", rec(7, 10_000, "BTC", "TRANSACTION_FEE", "-0.1"), false},
		{"a status update moved the second leg later", rec(7, 70_000, "USDT", "TRANSACTION_FEE", "-5"), false},
	}
	for _, s := range steps {
		if got := observe(l, s.r, 100_000); got != s.want {
			t.Errorf("%s: counted = %v, want %v", s.name, got, s.want)
		}
	}
	want := []total{{"BTC", "TRANSACTION_FEE", 1, "0", "0.1"}, {"USDT", "TRANSACTION_FEE", 1, "0", "5"}}
	if got := totalsText(l.Snapshot().Totals); !reflect.DeepEqual(got, want) {
		t.Errorf("totals = %+v, want %+v", got, want)
	}
	if got := l.Snapshot().SharedIDRecords; got != 1 {
		t.Errorf("shared-id records = %d, want 1", got)
	}
}

func TestMovedTimestampIsRememberedFromItsLatestTime(t *testing.T) {
	// Seen at 10 s, then moved to 100 s by a status update: when the cursor
	// passes 10 s the id must stay remembered, or the moved row counts again.
	l := New(0, Config{Overlap: 5 * time.Second, LateWindow: time.Minute})
	if !observe(l, rec(1, 10_000, "BTC", "WITHDRAW", "-1"), 20_000) {
		t.Fatal("first sight not counted")
	}
	l.Complete(20_000)
	if observe(l, rec(1, 100_000, "BTC", "WITHDRAW", "-1"), 120_000) {
		t.Fatal("moved record counted twice")
	}
	l.ObservePage([]Record{rec(2, 110_000, "BTC", "DEPOSIT", "1")}, 120_000)
	l.Complete(120_000) // cursor 105_000, horizon 60_000: id 1 (latest 100 s) stays
	if observe(l, rec(1, 106_000, "BTC", "WITHDRAW", "-1"), 130_000) {
		t.Error("record moved within the remembered range counted twice")
	}
	if got := l.Snapshot().Totals; len(got) != 2 || got[1].Records != 1 {
		t.Errorf("totals = %+v", totalsText(got))
	}
}

func TestRowsBeforeTheHorizonAreReportedNotCounted(t *testing.T) {
	l := New(60_000, Config{Overlap: time.Second})
	o := l.ObservePage([]Record{
		rec(1, 3, "BTC", "DEPOSIT", "1"),      // seconds read as ms: 1970
		rec(2, 59_500, "BTC", "DEPOSIT", "1"), // before the cursor, within the slack
		rec(3, 61_000, "BTC", "DEPOSIT", "1"), // inside
		rec(4, 90_000, "BTC", "DEPOSIT", "1"), // after the end
	}, 70_000)
	if o.Counted != 2 || o.Outside != 3 || len(o.Unplaceable) != 1 || o.Unplaceable[0].ID != 1 {
		t.Errorf("observed %+v; want 2 counted, 3 outside, id 1 unplaceable", o)
	}
}

func TestStateVersion1IDsMatchAnyTokenAndType(t *testing.T) {
	v1 := `{"version":1,"start_ms":1000,"seen":[{"id":5,"timestamp_ms":2000}],"totals":[{"token":"BTC","type":"DEPOSIT","records":1,"inflow":"1","outflow":"0"}]}`
	var st State
	if err := json.Unmarshal([]byte(v1), &st); err != nil {
		t.Fatal(err)
	}
	l, err := FromState(st, Config{Overlap: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if observe(l, rec(5, 2000, "BTC", "DEPOSIT", "1"), 3000) {
		t.Error("an id remembered by a version 1 state was counted again")
	}
	if !observe(l, rec(6, 2000, "BTC", "DEPOSIT", "1"), 3000) {
		t.Error("a new id was not counted")
	}
	// Written back as version 2, the v1 id keeps matching after a reload
	// only if it is kept: it is (with no token and type it matches any).
	out := l.Export()
	if out.Version != StateVersion {
		t.Errorf("exported version %d", out.Version)
	}
}

func TestStateCheckRefusesAFutureCursor(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC).UnixMilli()
	for name, tc := range map[string]struct {
		st   State
		fail bool
	}{
		"cursor now":               {State{Version: StateVersion, StartMs: now}, false},
		"cursor a minute ahead":    {State{Version: StateVersion, StartMs: now + 60_000}, false},
		"cursor 48 h ahead":        {State{Version: StateVersion, StartMs: now + 48*3600_000}, true},
		"cursor in 2319":           {State{Version: StateVersion, StartMs: now * 1000}, true},
		"horizon after the cursor": {State{Version: StateVersion, StartMs: now, HorizonMs: ptr(now + 1)}, true},
	} {
		if err := tc.st.Check(now); (err != nil) != tc.fail {
			t.Errorf("%s: Check = %v, want failure %v", name, err, tc.fail)
		}
	}
}

func ptr[T any](v T) *T { return &v }
