package ledger

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestMaxPairsFoldsNewPairsUnderOtherWithExactSums(t *testing.T) {
	l := New(0, Config{MaxPairs: 2})
	o := l.ObservePage([]Record{
		rec(1, 10, "BTC", "DEPOSIT", "1"),
		rec(2, 10, "ETH", "DEPOSIT", "2"),
		rec(3, 10, "SOL", "DEPOSIT", "3"),
		rec(4, 10, "XRP", "WITHDRAW", "-4"),
		rec(5, 10, "BTC", "DEPOSIT", "5"),
		rec(6, 10, "DOGE", "DEPOSIT", "6"),
	}, 100)
	if o.Counted != 6 || o.Folded != 3 {
		t.Fatalf("counted %d, folded %d; want 6 and 3", o.Counted, o.Folded)
	}
	want := []total{
		{"BTC", "DEPOSIT", 2, "6", "0"},
		{"ETH", "DEPOSIT", 1, "2", "0"},
		{Other, "DEPOSIT", 2, "9", "0"},
		{Other, "WITHDRAW", 1, "0", "4"},
	}
	snap := l.Snapshot()
	if got := totalsText(snap.Totals); !reflect.DeepEqual(got, want) {
		t.Fatalf("totals %v, want %v", got, want)
	}
	if snap.FoldedRecords != 3 {
		t.Fatalf("FoldedRecords %d, want 3", snap.FoldedRecords)
	}
}

func TestMaxPairsBoundsOtherTypesToo(t *testing.T) {
	l := New(0, Config{MaxPairs: 1})
	l.ObservePage([]Record{
		rec(1, 10, "BTC", "A", "1"),
		rec(2, 10, "ETH", "B", "1"),
		rec(3, 10, "ETH", "C", "1"),
		rec(4, 10, "SOL", "D", "1"),
	}, 100)
	want := []total{
		{"BTC", "A", 1, "1", "0"},
		{Other, "B", 1, "1", "0"},
		{Other, OtherType, 2, "2", "0"},
	}
	if got := totalsText(l.Snapshot().Totals); !reflect.DeepEqual(got, want) {
		t.Fatalf("totals %v, want %v", got, want)
	}
}

func TestMaxPairsKeepsTheSameMappingAcrossTheStateFile(t *testing.T) {
	cfg := Config{MaxPairs: 2}
	l := New(0, cfg)
	l.ObservePage([]Record{rec(1, 10, "BTC", "DEPOSIT", "1"), rec(2, 10, "ETH", "DEPOSIT", "2"), rec(3, 10, "SOL", "DEPOSIT", "3")}, 100)
	raw, err := json.Marshal(l.Export())
	if err != nil {
		t.Fatal(err)
	}
	var st State
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	// A lower cap after the restart: pairs counted by name stay by name.
	r, err := FromState(st, Config{MaxPairs: 1})
	if err != nil {
		t.Fatal(err)
	}
	o := r.ObservePage([]Record{
		rec(4, 20, "ETH", "DEPOSIT", "4"),
		rec(5, 20, "SOL", "DEPOSIT", "5"),
		rec(6, 20, "BTC", "DEPOSIT", "6"),
		rec(7, 20, "ADA", "DEPOSIT", "7"),
	}, 100)
	want := []total{
		{"BTC", "DEPOSIT", 2, "7", "0"},
		{"ETH", "DEPOSIT", 2, "6", "0"},
		{Other, "DEPOSIT", 3, "15", "0"},
	}
	if got := totalsText(r.Snapshot().Totals); !reflect.DeepEqual(got, want) {
		t.Fatalf("totals after restart %v, want %v", got, want)
	}
	if o.Folded != 2 {
		t.Fatalf("folded %d after restart, want 2 (SOL and ADA)", o.Folded)
	}
}

func TestNoMaxPairsCountsEveryPairByName(t *testing.T) {
	l := New(0, Config{})
	var recs []Record
	for i := range 100 {
		recs = append(recs, rec(int64(i), 10, string(rune('A'+i%26))+string(rune('a'+i/26)), "DEPOSIT", "1"))
	}
	if o := l.ObservePage(recs, 100); o.Folded != 0 || len(l.Snapshot().Totals) != 100 {
		t.Fatalf("folded %d, %d totals; want 0 and 100", o.Folded, len(l.Snapshot().Totals))
	}
}
