package ledger

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

const (
	hourMs = int64(3600_000)
	dayMs  = 24 * hourMs
	// wdNow is the exchange's time of the tests' reads.
	wdNow = int64(1_700_000_000_000)
)

func wd(id, network, address string, created int64) Withdrawal {
	return Withdrawal{ID: id, Token: "USDT", Network: network, Address: address, Target: Target{Network: network, Address: address},
		Amount: "10", CreatedMs: created}
}

func totalsOf(w *Withdrawals) map[string]uint64 {
	out := map[string]uint64{}
	for _, t := range w.Totals() {
		out[t.Token+" "+t.Network+" "+t.Destination] = t.Count
	}
	return out
}

func flaggedIDs(w *Withdrawals, now int64) []string {
	var ids []string
	for _, f := range w.Flagged(now) {
		ids = append(ids, f.ID+" "+f.Destination)
	}
	return ids
}

// The seed (the first read of a fresh ledger) counts what it finds as
// known and learns its targets; afterwards a target seen before is known
// and any other new, each withdrawal counted once however often it is read.
func TestWithdrawalsKnownAndNew(t *testing.T) {
	w := NewWithdrawals(wdNow-7*dayMs, dayMs, 0)
	seed := []Withdrawal{wd("a", "TRON", "T1", wdNow-2*dayMs), wd("b", "TRON", "T1", wdNow-dayMs), wd("c", "ETH", "0xabc", wdNow-hourMs)}
	if n := w.Count(seed, wdNow, nil); n != 3 {
		t.Fatalf("seed counted %d, want 3", n)
	}
	if got, want := totalsOf(w), map[string]uint64{"USDT TRON known": 2, "USDT ETH known": 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("after the seed: %v, want %v", got, want)
	}
	if ids := flaggedIDs(w, wdNow); len(ids) != 0 {
		t.Errorf("the seed flagged %v", ids)
	}
	// Read again, with two new rows: one to a target of the seed, one
	// to a new one, then a second to that one. Newest first, as the
	// exchange lists them: counted oldest first.
	next := append([]Withdrawal{wd("f", "SOL", "S9", wdNow+30_000), wd("e", "SOL", "S9", wdNow+20_000), wd("d", "ETH", "0xabc", wdNow+10_000)}, seed...)
	if n := w.Count(next, wdNow+60_000, nil); n != 3 {
		t.Fatalf("counted %d, want 3", n)
	}
	want := map[string]uint64{"USDT TRON known": 2, "USDT ETH known": 2, "USDT SOL new": 1, "USDT SOL known": 1}
	if got := totalsOf(w); !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if ids := flaggedIDs(w, wdNow+60_000); !reflect.DeepEqual(ids, []string{"e new"}) {
		t.Errorf("flagged %v, want e new", ids)
	}
	if n := w.Count(next, wdNow+90_000, nil); n != 0 {
		t.Errorf("a read of nothing new counted %d", n)
	}
	// Without an address a withdrawal is new, every time: nothing says
	// where it went.
	w.Count([]Withdrawal{wd("g", "SOL", "", wdNow+100_000), wd("h", "SOL", "", wdNow+110_000)}, wdNow+120_000, nil)
	if got := totalsOf(w)["USDT SOL new"]; got != 3 {
		t.Errorf("SOL new %d, want 3", got)
	}
	if _, err := WithdrawalsFromState(w.Export(), dayMs, 0); err != nil {
		t.Errorf("the state does not load again: %v", err)
	}
}

// With an allow-list every withdrawal is allowlisted or unlisted, the seed
// too; an unlisted one found by the seed is flagged only if it was created
// within the flag time, as if seen then.
func TestWithdrawalsAllowlistedAndUnlisted(t *testing.T) {
	allowed := func(r Withdrawal) bool { return r.Target.Address == "good" }
	w := NewWithdrawals(wdNow-7*dayMs, dayMs, 0)
	w.Count([]Withdrawal{wd("old", "ETH", "bad", wdNow-2*dayMs), wd("recent", "ETH", "bad", wdNow-hourMs), wd("ok", "ETH", "good", wdNow-hourMs)}, wdNow, allowed)
	if got, want := totalsOf(w), map[string]uint64{"USDT ETH unlisted": 2, "USDT ETH allowlisted": 1}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if ids := flaggedIDs(w, wdNow); !reflect.DeepEqual(ids, []string{"recent unlisted"}) {
		t.Errorf("flagged %v, want only the recent unlisted one", ids)
	}
	w.Count([]Withdrawal{wd("later", "ETH", "bad", wdNow+1000)}, wdNow+2000, allowed)
	// 23 hours after the seed the flag of "recent" (created an hour before
	// it) has expired; a day after "later" was seen, its own has.
	if ids := flaggedIDs(w, wdNow+23*hourMs+1); !reflect.DeepEqual(ids, []string{"later unlisted"}) {
		t.Errorf("at 23h flagged %v, want later alone", ids)
	}
	if ids := flaggedIDs(w, wdNow+2000+dayMs+1); len(ids) != 0 {
		t.Errorf("a day after flagged %v", ids)
	}
}

// Forget drops the ids created before the horizon, and nothing created
// before it is counted again: such a row cannot be told from a forgotten one.
func TestWithdrawalsForgetBehindTheHorizon(t *testing.T) {
	w := NewWithdrawals(wdNow-7*dayMs, dayMs, 0)
	old, recent := wd("old", "ETH", "x", wdNow-6*dayMs), wd("recent", "ETH", "x", wdNow-hourMs)
	w.Count([]Withdrawal{old, recent}, wdNow, nil)
	w.Forget(wdNow - 5*dayMs)
	if st := w.Export(); len(st.Seen) != 1 || st.Seen[0].ID != "recent" {
		t.Errorf("seen after Forget: %v, want recent alone", st.Seen)
	}
	if n := w.Count([]Withdrawal{old, recent}, wdNow+1000, nil); n != 0 {
		t.Errorf("counted %d again after Forget", n)
	}
	w.Forget(wdNow - 6*dayMs) // never back
	if n := w.Count([]Withdrawal{old}, wdNow+2000, nil); n != 0 {
		t.Errorf("the horizon moved back: counted %d", n)
	}
}

// A restart from the exported state counts nothing twice, is past its
// seed (a new target is new) and keeps its totals, targets and flags.
func TestWithdrawalsSurviveARestart(t *testing.T) {
	w := NewWithdrawals(wdNow-7*dayMs, dayMs, 0)
	rows := []Withdrawal{wd("a", "ETH", "x", wdNow-hourMs)}
	w.Count(rows, wdNow, nil)
	w.Count(append(rows, wd("b", "ETH", "y", wdNow+1000)), wdNow+2000, nil)
	b, err := json.Marshal(w.Export())
	if err != nil {
		t.Fatal(err)
	}
	var st WithdrawalsState
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	r, err := WithdrawalsFromState(st, dayMs, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.Export(), w.Export()) {
		t.Errorf("restored %+v\nwant %+v", r.Export(), w.Export())
	}
	more := append(rows, wd("b", "ETH", "y", wdNow+1000), wd("c", "ETH", "z", wdNow+3000), wd("d", "ETH", "x", wdNow+4000))
	if n := r.Count(more, wdNow+5000, nil); n != 2 {
		t.Errorf("after the restart counted %d, want c and d", n)
	}
	want := map[string]uint64{"USDT ETH known": 2, "USDT ETH new": 2}
	if got := totalsOf(r); !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestWithdrawalsFromStateRefusesWhatExportNeverWrites(t *testing.T) {
	for name, st := range map[string]WithdrawalsState{
		"empty id":          {Seen: []SeenWithdrawal{{ID: ""}}},
		"id twice":          {Seen: []SeenWithdrawal{{ID: "a"}, {ID: "a"}}},
		"odd destination":   {Totals: []WithdrawalTotal{{Token: "T", Destination: "elsewhere"}}},
		"total twice":       {Totals: []WithdrawalTotal{{Token: "T", Destination: "new"}, {Token: "T", Destination: "new"}}},
		"target twice":      {Known: []KnownTarget{{Target: Target{Network: "N", Address: "a"}}, {Target: Target{Network: "N", Address: "a"}}}},
		"target no address": {Known: []KnownTarget{{Target: Target{Network: "N"}}}},
		"flagged known":     {Flagged: []FlaggedWithdrawal{{ID: "a", Destination: "known"}}},
	} {
		if _, err := WithdrawalsFromState(st, dayMs, 0); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// Beyond maxTotals a withdrawal is counted under Other; beyond
// MaxKnownTargets the target used least recently is forgotten.
func TestWithdrawalsBounds(t *testing.T) {
	w := NewWithdrawals(0, dayMs, 2)
	w.Count(nil, wdNow, nil)
	for i, network := range []string{"A", "B", "C", "D"} {
		w.Count([]Withdrawal{wd(fmt.Sprint(i), network, "x", wdNow+int64(i))}, wdNow+10, nil)
	}
	if got, want := totalsOf(w), map[string]uint64{"USDT A new": 1, "USDT B new": 1, "__other__ __other__ new": 2}; !reflect.DeepEqual(got, want) || w.Folded() != 2 {
		t.Errorf("got %v (folded %d), want %v (2)", got, w.Folded(), want)
	}

	w = NewWithdrawals(0, dayMs, 0)
	var rows []Withdrawal
	for i := range MaxKnownTargets + 1 {
		rows = append(rows, wd(fmt.Sprint(i), "ETH", fmt.Sprint("addr", i), int64(i+1)))
	}
	w.Count(rows, wdNow, nil)
	if n := len(w.Export().Known); n != MaxKnownTargets {
		t.Fatalf("%d known targets, want %d", n, MaxKnownTargets)
	}
	w.Count([]Withdrawal{wd("again", "ETH", "addr0", wdNow), wd("again1", "ETH", fmt.Sprint("addr", MaxKnownTargets), wdNow)}, wdNow, nil)
	if got := totalsOf(w); got["USDT ETH new"] != 1 {
		t.Errorf("totals %v: want the oldest target forgotten (new) and the newest known", got)
	}
}
