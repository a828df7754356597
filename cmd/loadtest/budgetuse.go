package main

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// windowUse is the most requests of one account within one limit window of an
// endpoint's limit, and what the budget allows in it.
type windowUse struct {
	busiest, allowed int
	limit            client.RateLimit
}

// growthBudgetUse fills in how the exporter spent the API budget and
// returns how many requests the fake refused with 429.
func growthBudgetUse(fake *fakeexchange.Exchange, n int, started time.Time, row *growthRow) (tooMany int, err error) {
	// Every request the exporter sent, by account and endpoint: the
	// busiest limit window of each endpoint's published limit against what the
	// budget allows in it.
	byKey := map[string][]time.Time{}
	// Quiet polls are judged while nobody scrapes: the first polls'
	// backlog is through, and the polls that fall due while the exporter
	// is stopped for a floor round (and then wait their turns together)
	// are still to come. An endpoint no account polled then is judged by
	// each account's first poll.
	inIdle, beforeFloor := map[string][]time.Time{}, map[string][]time.Time{}
	private, all, idle := 0, 0, 0
	var times []time.Time
	for _, q := range fake.Requests() {
		all++
		times = append(times, q.Time)
		if q.Status == http.StatusTooManyRequests {
			tooMany++
		}
		if !q.Time.Before(row.idleFrom) && q.Time.Before(row.idleTo) {
			row.idleRequests++
		}
		if q.Account == "" {
			continue
		}
		private++
		if !q.Time.Before(row.idleFrom) && q.Time.Before(row.idleTo) {
			idle++
		}
		k := q.Account + " " + q.Endpoint
		byKey[k] = append(byKey[k], q.Time)
		if q.Time.Before(row.agesTo) {
			beforeFloor[k] = append(beforeFloor[k], q.Time)
			if !q.Time.Before(row.idleFrom) {
				inIdle[k] = append(inIdle[k], q.Time)
			}
		}
	}
	row.quietPoll, row.quietFirst = quietPolls(beforeFloor)
	for ep, perPoll := range pollsIn(inIdle) {
		row.quietPoll[ep], row.quietFirst[ep] = perPoll, false
	}
	row.busiest = map[string]windowUse{}
	for key, times := range byKey {
		name := key[strings.LastIndexByte(key, ' ')+1:]
		ep, ok := endpoint.Of(name)
		if !ok {
			return tooMany, fmt.Errorf("requests of %s, which has no published limit", name)
		}
		limit := client.RateLimit(ep.Limit)
		use := row.busiest[name]
		use.limit, use.allowed = limit, limit.Allowed(growthBudget)
		use.busiest = max(use.busiest, testsupport.BusiestWindow(times, limit.Window))
		row.busiest[name] = use
	}
	row.busiestSecond = testsupport.BusiestWindow(times, time.Second)
	minutes := time.Since(started).Minutes()
	row.requestsPerAccountMinute = float64(private) / float64(n) / minutes
	row.requestsPerMinute = float64(all) / minutes
	if d := row.idleTo.Sub(row.idleFrom); d > 0 {
		row.idleRequestsPerAccountMinute = float64(idle) / float64(n) / d.Minutes()
	}
	return tooMany, nil
}

// fullest is the endpoint whose busiest limit window came closest to what the
// budget allows, as "busiest (allowed) endpoint".
func fullest(use map[string]windowUse) string {
	best, bestShare := "", -1.0
	for _, ep := range slices.Sorted(maps.Keys(use)) {
		u := use[ep]
		if share := float64(u.busiest) / float64(u.allowed); share > bestShare {
			best, bestShare = fmt.Sprintf("%d (%d) %s", u.busiest, u.allowed, ep), share
		}
	}
	return best
}

// pollsIn is, per paged endpoint polled in the measuring window byKey holds, the
// requests a poll sent: every poll in the measuring window counts, and a poll that
// began before it counts only its requests within it. Two polls are parted
// by more than idlePollGap: a quiet poll's pages follow each other within
// a round of the rate cap's turns, while polls of one account are at least
// half an interval apart (a wallet's, 7.5 s, when its second poll moves onto
// its beat), and at 1,000 accounts, whose first polls fall due together, one
// poll's request may wait 7 s for its turn and the next one's none.
func pollsIn(byKey map[string][]time.Time) map[string]float64 {
	requests, polls := map[string]int{}, map[string]int{}
	for key, times := range byKey {
		ep := key[strings.LastIndexByte(key, ' ')+1:]
		if !pagedEndpoint(ep) || len(times) == 0 {
			continue
		}
		times = slices.SortedFunc(slices.Values(times), time.Time.Compare)
		polls[ep]++
		for i := 1; i < len(times); i++ {
			if times[i].Sub(times[i-1]) > idlePollGap {
				polls[ep]++
			}
		}
		requests[ep] += len(times)
	}
	out := map[string]float64{}
	for ep, n := range polls {
		out[ep] = float64(requests[ep]) / float64(n)
	}
	return out
}

const idlePollGap = 5 * time.Second

// pagedEndpoint reports whether name is a paged endpoint polled by default.
func pagedEndpoint(name string) bool {
	ep, ok := endpoint.Of(name)
	return ok && ep.Paged && ep.Enabled(nil)
}

// quietPolls is, per paged endpoint, the requests a poll sent, from the
// requests of each account and endpoint (byKey, "ACCOUNT ENDPOINT"). A
// poll is a burst of requests; polls are at least 15 s apart. Each
// account's first poll reads the whole lookback and is left out, unless no
// account had a later one (first is then true for the endpoint).
func quietPolls(byKey map[string][]time.Time) (perPoll map[string]float64, first map[string]bool) {
	const gap = 10 * time.Second
	type tally struct{ requests, polls, firstRequests, firstPolls int }
	tallies := map[string]*tally{}
	for _, ep := range endpoint.All {
		if ep.Paged && ep.Enabled(nil) {
			tallies[ep.Name] = &tally{}
		}
	}
	for key, times := range byKey {
		t := tallies[key[strings.LastIndexByte(key, ' ')+1:]]
		if t == nil || len(times) == 0 {
			continue
		}
		times = slices.SortedFunc(slices.Values(times), time.Time.Compare)
		poll := 0
		for i, at := range times {
			if i > 0 && at.Sub(times[i-1]) > gap {
				poll++
				t.polls++
			}
			if poll == 0 {
				t.firstRequests++
			} else {
				t.requests++
			}
		}
		t.firstPolls++
	}
	perPoll, first = map[string]float64{}, map[string]bool{}
	for ep, t := range tallies {
		if t.polls == 0 {
			first[ep] = true
			t.requests, t.polls = t.firstRequests, t.firstPolls
		}
		perPoll[ep] = float64(t.requests) / float64(max(t.polls, 1))
	}
	return perPoll, first
}
