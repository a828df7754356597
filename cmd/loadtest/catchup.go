package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/woox-exporter/woox_exporter/client"
	exporterconfig "github.com/woox-exporter/woox_exporter/config"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/largeaccount"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// catchUp measures how fast a backlog is consumed at the rate limit.
func catchUp(ctx context.Context, c config, requests int, limitWindow time.Duration, r *report) error {
	s := largeaccount.Scenario(10, 3)
	fake, err := fakeexchange.New(s, fakeexchange.WithRateLimit(requests, limitWindow), fakeexchange.WithRequestLogLimit(0))
	if err != nil {
		return err
	}
	now := time.Now()
	backlog := largeaccount.History(c.tokens, c.backlog, 1, now.Add(-55*time.Minute), now.Add(-5*time.Minute))
	if err := fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main", Records: backlog}}); err != nil {
		return err
	}
	fakeURL, stopFake, err := serve(fake)
	if err != nil {
		return err
	}
	defer stopFake()

	ex, err := startExporter(ctx, c, fakeURL,
		append([]string{"--token-history.lookback=1h"}, exportertest.IntervalFlags(5*time.Second)...)...)
	if err != nil {
		return err
	}
	defer ex.stop()
	hc := &http.Client{Timeout: 30 * time.Second}
	deadline := ex.Started.Add(c.catchUpWait)
	var mfs []*dto.MetricFamily
	var catchUpRSS int64
	for {
		mfs, err = gatherProto(hc, ex.URL()+"/metrics")
		rss, _ := ex.memory()
		catchUpRSS = max(catchUpRSS, rss)
		if err == nil && sumOf(mfs, "woox_token_history_records_total") >= float64(c.backlog) {
			break
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("backlog not consumed within %s (last error: %v)", c.catchUpWait, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	consumed := time.Now()
	first, ok := firstRequest(fake, endpoint.TokenHistory)
	if !ok {
		return errors.New("no token history request reached the exchange")
	}
	took := consumed.Sub(first)
	if err := catchUpAllowance(c, requests, limitWindow, took, consumed.Sub(ex.Started), r); err != nil {
		return err
	}

	// The poll that counted the last page may have published before the
	// next one re-read the overlap: a double count would show only then.
	if mfs, err = waitHistoryPollAfter(hc, ex.URL()+"/metrics", consumed, deadline); err != nil {
		return err
	}
	rss, hwm := ex.memory()
	// VmHWM is updated lazily and may trail a VmRSS sampled earlier.
	hwm = max(hwm, catchUpRSS, rss)
	r.add("exporter peak RSS (VmHWM), catch-up", mb(hwm), mb(maxRSSBytes), "MB", hwm < maxRSSBytes, true,
		fmt.Sprintf("(VmRSS at most %.1f MB while catching up, %.1f MB after)", mb(catchUpRSS), mb(rss)))
	mismatches := compareTotals(mfs, fake.ServedHistory("main"))
	r.add("catch-up counters exact after one more poll", len(mismatches), 0, "mismatches", len(mismatches) == 0, true,
		"(records, inflow, outflow per token and type, no extra series, last record time)")
	for i, m := range mismatches {
		if i == 10 {
			fmt.Printf("  ... and %d more\n", len(mismatches)-i)
			break
		}
		fmt.Println("  " + m)
	}
	tooMany := countRequests(fake, time.Time{}, time.Now()).tooMany
	r.add("429s from the exchange, catch-up", float64(tooMany), 0, "", tooMany == 0, true, "")
	return ex.checkLog()
}

// catchUpAllowance compares the time the backlog took, from the first
// history request, with the least time the budget allows for it.
func catchUpAllowance(c config, requests int, limitWindow, took, fromStart time.Duration, r *report) error {
	// A client that keeps to the budget sends at most perWindow requests in
	// any limit window, so its last page goes out no earlier than
	// (ceil(pages / perWindow) - 1) limit windows after its first.
	perWindow := client.RateLimit{Requests: requests, Window: limitWindow}.Allowed(c.budget)
	pages := (c.backlog + fakeexchange.MaxPageSize - 1) / fakeexchange.MaxPageSize
	limitWindows := (pages+perWindow-1)/perWindow - 1
	if limitWindows < 1 {
		return fmt.Errorf("a backlog of %d pages fits in one limit window of %d requests: nothing to measure", pages, perWindow)
	}
	allowed := time.Duration(limitWindows) * limitWindow
	fmt.Printf("catch-up allowance: (ceil(%d pages / %d requests per %s) - 1) x %s = %s; the clock starts at the first history request\n",
		pages, perWindow, limitWindow, limitWindow, allowed)
	r.add("catch-up time vs budget allowance", took, allowed, "", allowed.Seconds() >= minCatchUpRatio*took.Seconds(), false,
		fmt.Sprintf("ratio %.2f (allowance / time), target >= %.2f; %d records, %.0f vs %.0f rows/s; %s from process start",
			allowed.Seconds()/took.Seconds(), minCatchUpRatio, c.backlog, float64(c.backlog)/took.Seconds(),
			float64(c.backlog)/allowed.Seconds(), fromStart.Round(time.Millisecond)))
	return nil
}

// firstRequest returns when the first request for endpoint reached the fake.
func firstRequest(fake *fakeexchange.Exchange, endpoint string) (time.Time, bool) {
	for _, q := range fake.Requests() {
		if q.Endpoint == endpoint {
			return q.Time, true
		}
	}
	return time.Time{}, false
}

// waitHistoryPollAfter scrapes url until a token history poll that started
// after t has succeeded (its last success minus its duration is after t),
// and returns that scrape.
func waitHistoryPollAfter(hc *http.Client, url string, t, deadline time.Time) ([]*dto.MetricFamily, error) {
	for {
		mfs, err := gatherProto(hc, url)
		if err == nil {
			last, ok1 := valueOf(mfs, "woox_poll_last_success_timestamp_seconds", "endpoint", endpoint.TokenHistory)
			took, ok2 := valueOf(mfs, "woox_poll_duration_seconds", "endpoint", endpoint.TokenHistory)
			if ok1 && ok2 && last-took > float64(t.UnixNano())/1e9 {
				return mfs, nil
			}
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("no token history poll succeeded after the backlog was consumed (last error: %v)", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// compareTotals compares the exported token history with exact sums over
// the records the fake holds: records, inflow and outflow per (token, type),
// no series beyond those, and the newest record's time. The exporter reads
// the account from WOOX_API_KEY, so its account label is the default name.
// It returns one line per mismatch.
func compareTotals(mfs []*dto.MetricFamily, recs []fakeexchange.HistoryRecord) []string {
	want := testsupport.HistoryTotals(recs, fakeexchange.HistoryRecord.Leg)
	var newest int64
	for _, rec := range recs {
		newest = max(newest, rec.Timestamp)
	}
	account := exporterconfig.DefaultAccountName
	counters := []string{"woox_token_history_records_total", "woox_token_history_inflow_total", "woox_token_history_outflow_total"}
	got := map[string]map[testsupport.HistoryKey]float64{}
	var bad []string
	for _, mf := range mfs {
		if !slices.Contains(counters, mf.GetName()) {
			continue
		}
		got[mf.GetName()] = map[testsupport.HistoryKey]float64{}
		for _, m := range mf.GetMetric() {
			l := map[string]string{}
			for _, p := range m.GetLabel() {
				l[p.GetName()] = p.GetValue()
			}
			k := testsupport.HistoryKey{Token: l["token"], Type: l["transaction_type"]}
			if _, held := want[k]; l["account"] != account || !held {
				bad = append(bad, fmt.Sprintf("%s%v: no such records at the exchange", mf.GetName(), l))
				continue
			}
			got[mf.GetName()][k] = m.GetCounter().GetValue()
		}
	}
	for k, s := range want {
		for name, v := range map[string]float64{
			counters[0]: float64(s.Records),
			counters[1]: s.Inflow.InexactFloat64(),
			counters[2]: s.Outflow.InexactFloat64(),
		} {
			if g, ok := got[name][k]; !ok {
				bad = append(bad, fmt.Sprintf("%s{token=%q, transaction_type=%q} missing, want %v", name, k.Token, k.Type, v))
			} else if g != v {
				bad = append(bad, fmt.Sprintf("%s{token=%q, transaction_type=%q} = %v, want %v", name, k.Token, k.Type, g, v))
			}
		}
	}
	const lastName = "woox_token_history_last_record_timestamp_seconds"
	if g, ok := valueOf(mfs, lastName, "account", account); !ok || g != float64(newest)/1000 {
		bad = append(bad, fmt.Sprintf("%s{account=%q} = %v (present %t), want %v", lastName, account, g, ok, float64(newest)/1000))
	}
	slices.Sort(bad)
	return bad
}
