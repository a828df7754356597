package main

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/common/model"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// minFairShare is the least share of its fair share of the cap's slots an
// account may get in the cap window before it counts as starved.
const minFairShare = 0.75

// fastPoll is the longest default interval of the pollers whose gaps bound
// the longest wait: they poll several times a cap window and, under a cap
// below the accounts' need, run behind, so that the time between two of
// their requests is the later one's wait for its turns plus a round trip,
// and at most half an interval the poller keeps between a late poll and
// the next (collector's nextPoll).
const fastPoll = 15 * time.Second

// capRow is what one account got in the cap window.
type capRow struct {
	account  string
	requests int
	// meanWait is the exporter's own figure: wait seconds over requests
	// let through in the cap window. longestGap is the longest time between
	// two requests of one of the account's fast pollers (fastPoll), the
	// later in the cap window, of endpoint gapEndpoint: none of them waited
	// longer for its slot.
	meanWait, longestGap time.Duration
	gapEndpoint          string
}

// quietNeed is the requests a second accounts send at the default
// intervals, one request a poll, the public endpoints included.
func quietNeed(accounts int) float64 {
	var perSecond float64
	for _, ep := range endpoint.All {
		if !ep.Enabled(nil) {
			continue
		}
		n := 1.0
		if ep.PerAccount {
			n = float64(accounts)
		}
		perSecond += n / ep.DefaultInterval.Seconds()
	}
	return perSecond
}

// perAccountPollers is how many pollers each account has at the defaults.
func perAccountPollers() int {
	n := 0
	for _, ep := range endpoint.All {
		if ep.PerAccount && ep.Enabled(nil) {
			n++
		}
	}
	return n
}

// rateCap runs c.capAccounts realistic accounts at the default intervals
// under a --api.max-requests-per-second of c.capShare of what they need, and
// checks that the cap holds and that every account still gets its share.
func rateCap(ctx context.Context, c config, r *report) error {
	n := c.capAccounts
	need := quietNeed(n)
	limit := math.Round(c.capShare*need*100) / 100
	fmt.Printf("\nrate cap: %d realistic accounts at the default intervals need %.2f requests/s; --api.max-requests-per-second=%.2f (%.2f of it), cap window %s\n",
		n, need, limit, c.capShare, c.capWindow)
	fake, env, err := growthFake(c, realisticShape, n)
	if err != nil {
		return err
	}
	fakeURL, stopFake, err := serve(fake)
	if err != nil {
		return err
	}
	defer stopFake()
	dir, err := os.MkdirTemp("", "loadtest-ratecap-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	cfgPath, err := writeGrowthAccounts(dir, n)
	if err != nil {
		return err
	}
	p, err := exportertest.StartBinary(ctx, c.exporter, append(os.Environ(), env...), "--woox.api-url="+fakeURL, "--config.file="+cfgPath,
		"--log.level=warn", "--api.max-requests-per-second="+strconv.FormatFloat(limit, 'f', -1, 64))
	if err != nil {
		return err
	}
	ex := &exporter{Process: p}
	defer ex.stop()
	// Every account's first polls queue at once: ready once they are through.
	readyAt, err := ex.Ready(5 * time.Minute)
	if err != nil {
		return err
	}
	fmt.Printf("rate cap: ready %s after start (every first poll through the cap)\n", readyAt.Sub(ex.Started).Round(time.Second))
	time.Sleep(c.capWindow / 4) // the second polls fall into turns
	hc := &http.Client{Timeout: 30 * time.Second}
	before, err := exportertest.Samples(hc, ex.URL()+"/metrics")
	if err != nil {
		return err
	}
	from := time.Now()
	time.Sleep(c.capWindow)
	to := time.Now()
	after, err := exportertest.Samples(hc, ex.URL()+"/metrics")
	if err != nil {
		return err
	}
	rows, public, all := capRows(fake.Requests(), n, from, to, before, after)
	reportRateCap(r, limit, rows, public, all, from, to)
	failed := sumSamples(after, "woox_poll_failures_total") - sumSamples(before, "woox_poll_failures_total")
	r.add("rate cap: polls failed in the cap window", failed, 0.0, "", failed == 0, true, "(late is not failed: none stalled)")
	return checkCapLog(ex, r)
}

// capRows is, per account, what it got in [from, to): its requests at the
// fake, its mean wait from the exporter's counters, its longest gap; and
// the public requests and the time of every request in the cap window.
func capRows(reqs []fakeexchange.RequestRecord, n int, from, to time.Time, before, after map[string]*model.Sample) (rows []capRow, public int, all []time.Time) {
	byPoller := map[string][]time.Time{}
	rows = make([]capRow, n)
	index := map[string]int{}
	for i := range rows {
		rows[i].account = fmt.Sprintf("acct-%03d", i)
		index[rows[i].account] = i
		wait := capDelta(before, after, "woox_api_rate_cap_wait_seconds_total", rows[i].account)
		if admitted := capDelta(before, after, "woox_api_rate_cap_admitted_total", rows[i].account); admitted > 0 {
			rows[i].meanWait = time.Duration(wait / admitted * float64(time.Second))
		}
	}
	for _, q := range reqs {
		if !q.Time.Before(to) {
			continue
		}
		byPoller[q.Account+" "+q.Endpoint] = append(byPoller[q.Account+" "+q.Endpoint], q.Time)
		if q.Time.Before(from) {
			continue
		}
		all = append(all, q.Time)
		if i, ok := index[q.Account]; ok {
			rows[i].requests++
		} else {
			public++
		}
	}
	fast := map[string]bool{}
	for _, ep := range endpoint.All {
		fast[ep.Name] = ep.PerAccount && ep.DefaultInterval <= fastPoll
	}
	for key, times := range byPoller {
		account, endpoint, _ := strings.Cut(key, " ")
		i, ok := index[account]
		if !ok || !fast[endpoint] {
			continue
		}
		// Each request in the cap window is measured from the one before, and
		// the cap window's end from the last: a poller starved shows too.
		slices.SortFunc(times, time.Time.Compare)
		gaps := slices.DeleteFunc(slices.Clone(times), func(t time.Time) bool { return t.Before(from) })
		if earlier := len(times) - len(gaps); earlier > 0 {
			gaps = append([]time.Time{times[earlier-1]}, gaps...)
		}
		gaps = append(gaps, to)
		for k := 1; k < len(gaps); k++ {
			if gap := gaps[k].Sub(gaps[k-1]); gap > rows[i].longestGap {
				rows[i].longestGap, rows[i].gapEndpoint = gap, endpoint
			}
		}
	}
	return rows, public, all
}

// reportRateCap prints every account's figures, four to a line, and adds
// the checks: the cap held at the fake, and no account starved.
func reportRateCap(r *report, limit float64, rows []capRow, public int, all []time.Time, from, to time.Time) {
	span := to.Sub(from)
	fmt.Println("rate cap, per account in the cap window: requests, mean wait for a slot, longest wait (bound: the longest gap between two requests of one poller every 15 s or less, or to the cap window's end)")
	for i, row := range rows {
		sep := "   "
		if i%5 == 4 || i == len(rows)-1 {
			sep = "\n"
		}
		fmt.Printf("%s %3d %5.1fs %5.1fs%s", row.account, row.requests, row.meanWait.Seconds(), row.longestGap.Seconds(), sep)
	}
	fair := (limit*span.Seconds() - float64(public)) / float64(len(rows))
	least := slices.MinFunc(rows, func(a, b capRow) int { return a.requests - b.requests })
	most := slices.MaxFunc(rows, func(a, b capRow) int { return a.requests - b.requests })
	longest := slices.MaxFunc(rows, func(a, b capRow) int { return int(a.longestGap - b.longestGap) })
	waits := make([]time.Duration, len(rows))
	for i, row := range rows {
		waits[i] = row.meanWait
	}
	need := quietNeed(len(rows)) - quietNeed(0)
	r.add("rate cap: fewest requests of one account in the cap window", least.requests, fmt.Sprintf("%.1f", fair), "requests",
		float64(least.requests) >= minFairShare*fair, true,
		fmt.Sprintf("(%s; fair share = (cap x cap window - %d public) / %d accounts; most %d; %.2f of what an account needs uncapped; starved below %.0f %% of it)",
			least.account, public, len(rows), most.requests, float64(least.requests)/(need/float64(len(rows))*span.Seconds()), minFairShare*100))
	r.add("rate cap: mean wait for a slot per account, median (max)", quantile(waits, 0.5), slices.Max(waits), "", true, false, "(the exporter's own counters over the cap window)")
	// Turn by turn, a request waits at most for one slot of each request
	// ahead in its account's queue (a request of each other poller), each
	// a round of every account's turn and the public client's; its poll
	// came at most half an interval after the poll before began.
	bound := time.Duration(float64(perAccountPollers()*(len(rows)+1))/limit*1.1*float64(time.Second)) + fastPoll/2
	r.add("rate cap: longest wait of one account (bound)", longest.longestGap, bound, "", longest.longestGap <= bound, true,
		fmt.Sprintf("(%s %s; at most %d pollers x %d queues / cap, + 10 %% for round trips, + %s between a late poll and the next: nobody starved)",
			longest.account, longest.gapEndpoint, perAccountPollers(), len(rows)+1, fastPoll/2))
	perSecond := float64(len(all)) / span.Seconds()
	r.add("rate cap: requests/s, whole process, over the cap window", fmt.Sprintf("%.2f", perSecond), fmt.Sprintf("%.2f", limit), "/s", len(all) <= int(limit*span.Seconds())+2, true,
		fmt.Sprintf("(%d requests in %s; %.2f of the cap)", len(all), span.Round(time.Second), perSecond/limit))
	busiest10 := testsupport.BusiestWindow(all, 10*time.Second)
	allowed10 := int(10*limit) + 2
	r.add("rate cap: busiest 10 s at the fake, whole process", busiest10, allowed10, "requests", busiest10 <= allowed10, true,
		"(10 x cap + 2: the cap spaces slots, the fake sees arrivals, which the way there can bunch)")
	busiest1 := testsupport.BusiestWindow(all, time.Second)
	r.add("rate cap: busiest second at the fake, whole process", busiest1, fmt.Sprintf("%.2f", limit), "requests", float64(busiest1) <= limit+1, false, "(peak vs cap)")
}

// checkCapLog checks that the exporter warned once, at start, that the
// accounts need more than the cap, and logged nothing else.
func checkCapLog(ex *exporter, r *report) error {
	const warning = "need more requests a second than --api.max-requests-per-second allows"
	var others []string
	warned := 0
	for _, line := range strings.Split(strings.TrimSpace(ex.Output()), "\n") {
		switch {
		case strings.Contains(line, warning):
			warned++
		case strings.TrimSpace(line) != "":
			others = append(others, line)
		}
	}
	r.add("rate cap: start-up warning that the accounts need more than the cap", warned, 1, "", warned == 1, true, "")
	if len(others) > 0 {
		return fmt.Errorf("the exporter logged warnings or errors besides the rate cap's:\n%s", strings.Join(others, "\n"))
	}
	return nil
}

// capDelta is the increase of name{account} between two scrapes.
func capDelta(before, after map[string]*model.Sample, name, account string) float64 {
	key := name + `{account="` + account + `"}`
	var b, a float64
	if s, ok := before[key]; ok {
		b = float64(s.Value)
	}
	if s, ok := after[key]; ok {
		a = float64(s.Value)
	}
	return a - b
}

// sumSamples is the sum of every series of name.
func sumSamples(samples map[string]*model.Sample, name string) float64 {
	var s float64
	for _, v := range samples {
		if string(v.Metric[model.MetricNameLabel]) == name {
			s += float64(v.Value)
		}
	}
	return s
}
