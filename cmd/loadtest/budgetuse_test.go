package main

import (
	"testing"
	"time"
)

func TestPollsInCountsEveryPollOfTheWindow(t *testing.T) {
	at := func(s ...float64) []time.Time {
		var out []time.Time
		for _, v := range s {
			out = append(out, capEpochLoad.Add(time.Duration(v*float64(time.Second))))
		}
		return out
	}
	got := pollsIn(map[string][]time.Time{
		"acct-000 wallet":        at(0, 15, 30, 45),
		"acct-001 wallet":        at(45, 30, 0, 15, 15.2), // one poll sent two requests
		"acct-002 wallet":        at(7, 15, 37, 45),       // polls 8 s apart: one waited its turn
		"acct-000 token_history": at(0, 0.4, 60),
		"acct-000 positions":     at(0, 5, 10), // not paged: not judged
	})
	want := map[string]float64{"wallet": 13.0 / 12, "token_history": 3.0 / 2}
	if len(got) != len(want) {
		t.Fatalf("judged %v, want %v", got, want)
	}
	for ep, w := range want {
		if got[ep] != w {
			t.Errorf("%s: %.3f requests a poll, want %.3f", ep, got[ep], w)
		}
	}
}

var capEpochLoad = time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
