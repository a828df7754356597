package main

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/largeaccount"
)

// largeFake is the fake exchange holding the large account.
func largeFake(c config, requests int, limitWindow time.Duration) (*fakeexchange.Exchange, error) {
	fake, err := fakeexchange.New(largeaccount.Scenario(c.networks, c.keys), fakeexchange.WithRateLimit(requests, limitWindow))
	if err != nil {
		return nil, err
	}
	now := time.Now()
	types := len(fakeexchange.HistoryTypes())
	if err := fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main",
		Records: largeaccount.History(c.tokens, c.tokens*types, 1, now.Add(-50*time.Minute), now.Add(-time.Minute))}}); err != nil {
		return nil, err
	}
	return fake, nil
}

// largeAccount measures scrape cost, memory and exchange requests.
func largeAccount(ctx context.Context, c config, requests int, limitWindow time.Duration, r *report) error {
	fake, err := largeFake(c, requests, limitWindow)
	if err != nil {
		return err
	}
	fakeURL, stopFake, err := serve(fake)
	if err != nil {
		return err
	}
	defer stopFake()

	ex, err := startExporter(ctx, c, fakeURL, append([]string{"--collector.sub-accounts"}, exportertest.IntervalFlags(c.pollEvery)...)...)
	if err != nil {
		return err
	}
	defer ex.stop()
	if _, err := ex.Ready(30 * time.Second); err != nil {
		return err
	}

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4 * c.scrapers, DisableCompression: true}, Timeout: 30 * time.Second}
	mfs, err := gatherProto(client, ex.URL()+"/metrics")
	if err != nil {
		return err
	}
	series := 0
	for _, mf := range mfs {
		series += len(mf.GetMetric())
	}
	floorURL, stopFloor, err := startFloor(mfs)
	if err != nil {
		return err
	}
	defer stopFloor()
	idleRSS, _ := ex.memory()
	fmt.Printf("exporter serves %d series in %d families; RSS %.1f MB before any load\n\n", series, len(mfs), mb(idleRSS))

	// Exchange requests with nobody scraping, under scrape load, then with
	// nobody scraping again, the exporter polling throughout: the loaded
	// window is judged against the idle ones on both sides of it, so that
	// a slow moment of a busy machine in one idle window is not taken for
	// requests the scrapes caused.
	idleBefore := idleRequests(fake, c.loadDur)
	loadFrom := time.Now()
	if _, _, err := concurrent(client, ex.URL()+"/metrics", c.scrapers, c.loadDur); err != nil {
		return err
	}
	loaded := countRequests(fake, loadFrom, loadFrom.Add(c.loadDur))
	rss, _ := ex.memory()
	idleAfter := idleRequests(fake, c.loadDur)

	if err := scrapeLatency(c, ex, client, floorURL, r); err != nil {
		return err
	}
	if err := scrapeThroughput(c, ex, client, floorURL, r); err != nil {
		return err
	}
	_, hwm := ex.memory()
	hwm = max(hwm, rss)

	perSec := func(n int) float64 { return float64(n) / c.loadDur.Seconds() }
	idle := idleBefore
	if idleAfter.total > idle.total {
		idle = idleAfter
	}
	// A few pollers may land one poll more or fewer in a measuring window.
	r.add(fmt.Sprintf("exchange requests/s, loaded (%d scrapers) vs idle", c.scrapers), perSec(loaded.total), perSec(idle.total), "req/s",
		loaded.total <= idle.total+3 && loaded.total >= min(idleBefore.total, idleAfter.total)-3, true,
		fmt.Sprintf("ratio %s; %d vs %d (before) and %d (after) requests in %s; target: equal within a poll of three pollers; %s",
			ratioText(loaded.total, idle.total), loaded.total, idleBefore.total, idleAfter.total, c.loadDur, endpointCounts(loaded, idle)))
	r.add("exporter peak RSS (VmHWM), large account", mb(hwm), mb(maxRSSBytes), "MB", hwm < maxRSSBytes, true,
		fmt.Sprintf("(VmRSS after the loaded window %.1f MB)", mb(rss)))
	tooMany := countRequests(fake, time.Time{}, time.Now()).tooMany
	r.add("429s from the exchange, large account", float64(tooMany), 0, "", tooMany == 0, true, "")
	return ex.checkLog()
}

// scrapeLatency compares the scrape time of one scraper, exporter against
// floor.
func scrapeLatency(c config, ex *exporter, client *http.Client, floorURL string, r *report) error {
	// Exporter and floor alternate rounds, so drift in the machine's load hits
	// both; the exporter is stopped while the floor is measured, so that
	// its polls do not take the CPUs from the floor.
	var exLat, flLat []time.Duration
	var exBytes int64
	err := ex.alternate(rounds, func() error {
		lat, n, err := sequential(client, ex.URL()+"/metrics", c.latencyDur/rounds)
		exLat, exBytes = append(exLat, lat...), n
		return err
	}, func() error {
		lat, _, err := sequential(client, floorURL+"/metrics", c.latencyDur/rounds)
		flLat = append(flLat, lat...)
		return err
	})
	if err != nil {
		return err
	}
	for _, q := range []float64{0.5, 0.99} {
		e, f := quantile(exLat, q), quantile(flLat, q)
		r.ratio(fmt.Sprintf("scrape time p%.0f, 1 scraper (exporter vs floor)", q*100), e, f, maxP99Ratio, q == 0.99, false)
	}
	fmt.Printf("  (%d exporter and %d floor scrapes in %d alternating rounds each, %d gzip bytes per scrape)\n",
		len(exLat), len(flLat), rounds, exBytes)
	return nil
}

// scrapeThroughput compares the scrapes per second of c.scrapers scrapers,
// exporter against floor.
func scrapeThroughput(c config, ex *exporter, client *http.Client, floorURL string, r *report) error {
	var exScrapes, flScrapes int64
	var exTime, flTime time.Duration
	err := ex.alternate(rounds, func() error {
		n, d, err := concurrent(client, ex.URL()+"/metrics", c.scrapers, c.loadDur/rounds)
		exScrapes, exTime = exScrapes+n, exTime+d
		return err
	}, func() error {
		n, d, err := concurrent(client, floorURL+"/metrics", c.scrapers, c.loadDur/rounds)
		flScrapes, flTime = flScrapes+n, flTime+d
		return err
	})
	if err != nil {
		return err
	}
	exRate, flRate := float64(exScrapes)/exTime.Seconds(), float64(flScrapes)/flTime.Seconds()
	r.add(fmt.Sprintf("throughput, %d scrapers (exporter vs floor)", c.scrapers), exRate, flRate, "scrapes/s",
		exRate >= minThroughputRatio*flRate, false, fmt.Sprintf("ratio %.2f, target >= %.2f; %d alternating rounds each", exRate/flRate, minThroughputRatio, rounds))
	return nil
}

// idleRequests counts the requests the fake receives over the next d.
func idleRequests(fake *fakeexchange.Exchange, d time.Duration) requestCount {
	from := time.Now()
	time.Sleep(d)
	return countRequests(fake, from, from.Add(d))
}

// endpointCounts is each endpoint's requests in two measuring windows, as
// "name loaded/idle", for the endpoints whose counts differ.
func endpointCounts(a, b requestCount) string {
	names := slices.Sorted(maps.Keys(a.byEndpoint))
	for n := range b.byEndpoint {
		if _, ok := a.byEndpoint[n]; !ok {
			names = append(names, n)
		}
	}
	var parts []string
	for _, n := range names {
		if a.byEndpoint[n] != b.byEndpoint[n] {
			parts = append(parts, fmt.Sprintf("%s %d/%d", n, a.byEndpoint[n], b.byEndpoint[n]))
		}
	}
	if len(parts) == 0 {
		return "every endpoint alike"
	}
	return "differing (loaded/idle): " + strings.Join(parts, ", ")
}
