// Command loadtest measures the woox_exporter binary on loopback against the
// performance targets in the README (Performance), and prints each figure beside
// its floor or budget with PASS or FAIL.
//
// It hosts the fake exchange in process, serves the floor from a second
// process of its own (--serve-floor), and runs the exporter binary as a
// subprocess, three times: on the large account with
// hourly polls (start-up: every request is then part of a first poll), on
// the large account with polls every 2 s (scrape cost, memory, exchange
// requests with and without scrapers), and on a 50,000-record history
// backlog (catch-up at the rate limit). The exporter and the floor are
// measured in alternating rounds, the exporter stopped (SIGSTOP) while the
// floor runs, so neither the exporter's polls nor drift in the machine's
// load count against the floor.
//
// The exit status is 1 when a hard invariant fails: a 429 from the exchange,
// inexact counters, more exchange requests under scrape load, RSS at or
// above the limit. Timing ratios depend on the machine and only fail the run
// with --strict.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/alecthomas/kingpin/v2"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/client"
	exporterconfig "github.com/woox-exporter/woox_exporter/config"
	"github.com/woox-exporter/woox_exporter/fakeexchange"
)

// prometheusAccept is the Accept header Prometheus 3 sends by default.
const prometheusAccept = "application/openmetrics-text;version=1.0.0;escaping=allow-utf-8;q=0.5," +
	"application/openmetrics-text;version=0.0.1;q=0.4,text/plain;version=1.0.0;escaping=allow-utf-8;q=0.3," +
	"text/plain;version=0.0.4;q=0.2,*/*;q=0.1"

const protoAccept = "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited"

// Targets: see the README, Performance.
const (
	maxP99Ratio        = 1.25
	minThroughputRatio = 0.8
	maxRSSBytes        = 50_000_000 // 50 MB
	minCatchUpRatio    = 0.9
	maxReadyAfterPoll  = 2 * time.Second
)

// rounds is how many turns the exporter and the floor each take when they
// are compared.
const rounds = 3

type config struct {
	exporter    string
	latencyDur  time.Duration
	loadDur     time.Duration
	pollEvery   time.Duration
	scrapers    int
	networks    int
	keys        int
	tokens      int
	backlog     int
	rateLimit   string
	budget      float64
	catchUpWait time.Duration
	strict      bool
	// floorFile and floorAddress make this process the floor server.
	floorFile    string
	floorAddress string
}

func main() {
	var c config
	app := kingpin.New("loadtest", "Load test of the woox_exporter binary against the fake exchange.")
	app.Flag("exporter", "Path of the woox_exporter binary.").Default("./woox_exporter").StringVar(&c.exporter)
	app.Flag("latency-duration", "How long one scraper scrapes the exporter, and then the floor, for p50/p99, in 3 alternating rounds.").Default("10s").DurationVar(&c.latencyDur)
	app.Flag("load-duration", "How long the concurrent scrapers run against each server, in 3 alternating rounds; also the idle and the loaded window for exchange requests; keep it a multiple of --poll-interval so both windows hold as many polls.").Default("16s").DurationVar(&c.loadDur)
	app.Flag("poll-interval", "Interval of every poller of the exporter on the large account (scrape cost, exchange cost); 1h leaves the pollers idle after their first polls.").Default("2s").DurationVar(&c.pollEvery)
	app.Flag("scrapers", "Concurrent scrapers for throughput.").Default("20").IntVar(&c.scrapers)
	app.Flag("networks", "Token network rows of the large account.").Default("1000").IntVar(&c.networks)
	app.Flag("keys", "API keys of the large account.").Default("100").IntVar(&c.keys)
	app.Flag("tokens", "Tokens of the large account's history (x 27 transaction types).").Default("100").IntVar(&c.tokens)
	app.Flag("backlog", "History records waiting when the exporter starts, for the catch-up run.").Default("50000").IntVar(&c.backlog)
	app.Flag("rate-limit", "Published limit of each private endpoint, REQUESTS/WINDOW, on the fake and the exporter.").Default("10/2s").StringVar(&c.rateLimit)
	app.Flag("budget", "The exporter's --api.budget.").Default("0.5").Float64Var(&c.budget)
	app.Flag("catch-up-timeout", "Give up on the catch-up after this long.").Default("3m").DurationVar(&c.catchUpWait)
	app.Flag("strict", "Also fail on missed timing targets.").BoolVar(&c.strict)
	app.Flag("serve-floor", "Internal: serve the metric families in this file (delimited protobuf) as the floor, until interrupted.").Hidden().StringVar(&c.floorFile)
	app.Flag("floor-address", "Internal: where --serve-floor listens.").Hidden().StringVar(&c.floorAddress)
	kingpin.MustParse(app.Parse(os.Args[1:]))
	if c.floorFile != "" {
		if err := serveFloor(c.floorFile, c.floorAddress); err != nil {
			fmt.Fprintln(os.Stderr, "loadtest floor:", err)
			os.Exit(2)
		}
		return
	}

	r := &report{}
	if err := run(context.Background(), c, r); err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(2)
	}
	if r.failed(c.strict) {
		fmt.Println("\nRESULT: FAIL")
		os.Exit(1)
	}
	fmt.Println("\nRESULT: PASS")
}

func run(ctx context.Context, c config, r *report) error {
	requests, window, err := fakeexchange.ParseRateLimit(c.rateLimit)
	if err != nil {
		return err
	}
	fmt.Printf("loadtest: rate limit %s, budget %.2f, %d scrapers; large account %d networks, %d keys, %d tokens x %d types\n\n",
		c.rateLimit, c.budget, c.scrapers, c.networks, c.keys, c.tokens, len(fakeexchange.HistoryTypes()))
	if err := startUp(ctx, c, requests, window, r); err != nil {
		return fmt.Errorf("start-up: %w", err)
	}
	if err := largeAccount(ctx, c, requests, window, r); err != nil {
		return fmt.Errorf("large account: %w", err)
	}
	if err := catchUp(ctx, c, requests, window, r); err != nil {
		return fmt.Errorf("catch-up: %w", err)
	}
	return nil
}

// largeFake is the fake exchange holding the large account.
func largeFake(c config, requests int, window time.Duration) (*fakeexchange.Exchange, error) {
	fake, err := fakeexchange.New(fakeexchange.LargeScenario(c.networks, c.keys), fakeexchange.WithRateLimit(requests, window))
	if err != nil {
		return nil, err
	}
	now := time.Now()
	types := len(fakeexchange.HistoryTypes())
	if err := fake.AppendHistory("main", fakeexchange.LargeHistory(c.tokens, c.tokens*types, 1, now.Add(-50*time.Minute), now.Add(-time.Minute))...); err != nil {
		return nil, err
	}
	return fake, nil
}

// startUp measures how long after the answers of the first polls /-/ready
// says ready, on the large account. Its exporter polls every hour, so every
// request it sends is part of a first poll: with short intervals a second
// poll's request could land after a late ready and hide it.
func startUp(ctx context.Context, c config, requests int, window time.Duration, r *report) error {
	fake, err := largeFake(c, requests, window)
	if err != nil {
		return err
	}
	answers := &answerLog{h: fake}
	fakeURL, stopFake, err := serve(answers)
	if err != nil {
		return err
	}
	defer stopFake()
	ex, err := startExporter(ctx, c, fakeURL, "--token-network.interval=1h", "--credentials.interval=1h", "--token-history.interval=1h")
	if err != nil {
		return err
	}
	defer ex.stop()
	readyAt, err := ex.waitReady(30 * time.Second)
	if err != nil {
		return err
	}
	n, last := answers.last()
	if n == 0 {
		return errors.New("ready before any request reached the exchange")
	}
	// The fake's handler returns a moment after the exporter may have read
	// the answer: a ready seen before that counts as at once.
	afterPoll := max(readyAt.Sub(last), 0)
	r.add("start-up: /-/ready after the last first-poll answer", afterPoll, maxReadyAfterPoll, "", afterPoll <= maxReadyAfterPoll, true,
		fmt.Sprintf("(%d first-poll requests, intervals 1h; start to ready %s)", n, readyAt.Sub(ex.started).Round(time.Millisecond)))
	return ex.checkLog()
}

// answerLog passes requests to h and keeps when each was answered.
type answerLog struct {
	h          http.Handler
	mu         sync.Mutex
	n          int
	lastAnswer time.Time
}

func (a *answerLog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.h.ServeHTTP(w, r)
	now := time.Now()
	a.mu.Lock()
	a.n++
	if now.After(a.lastAnswer) {
		a.lastAnswer = now
	}
	a.mu.Unlock()
}

// last returns how many requests were answered and when the last one was.
func (a *answerLog) last() (int, time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.n, a.lastAnswer
}

// largeAccount measures scrape cost, memory and exchange requests.
func largeAccount(ctx context.Context, c config, requests int, window time.Duration, r *report) error {
	fake, err := largeFake(c, requests, window)
	if err != nil {
		return err
	}
	fakeURL, stopFake, err := serve(fake)
	if err != nil {
		return err
	}
	defer stopFake()

	every := c.pollEvery.String()
	ex, err := startExporter(ctx, c, fakeURL, "--token-network.interval="+every, "--credentials.interval="+every, "--token-history.interval="+every)
	if err != nil {
		return err
	}
	defer ex.stop()
	if _, err := ex.waitReady(30 * time.Second); err != nil {
		return err
	}

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4 * c.scrapers, DisableCompression: true}, Timeout: 30 * time.Second}
	mfs, err := gatherProto(client, ex.url+"/metrics")
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

	// Exchange requests with nobody scraping, then under scrape load, the
	// exporter polling throughout.
	idleFrom := time.Now()
	time.Sleep(c.loadDur)
	idle := countRequests(fake, idleFrom, time.Now())
	loadFrom := time.Now()
	if _, _, err := concurrent(client, ex.url+"/metrics", c.scrapers, c.loadDur); err != nil {
		return err
	}
	loaded := countRequests(fake, loadFrom, loadFrom.Add(c.loadDur))
	rss, _ := ex.memory()

	// Exporter and floor take turns, so drift in the machine's load hits
	// both; the exporter is stopped while the floor is measured, so that
	// its polls do not take the CPUs from the floor.
	var exLat, flLat []time.Duration
	var exBytes int64
	err = ex.alternate(rounds, func() error {
		lat, n, err := sequential(client, ex.url+"/metrics", c.latencyDur/rounds)
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

	var exScrapes, flScrapes int64
	var exTime, flTime time.Duration
	err = ex.alternate(rounds, func() error {
		n, d, err := concurrent(client, ex.url+"/metrics", c.scrapers, c.loadDur/rounds)
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
	_, hwm := ex.memory()
	hwm = max(hwm, rss)

	perSec := func(n int) float64 { return float64(n) / c.loadDur.Seconds() }
	// Each of the 3 pollers may land one poll more or fewer in a window.
	r.add(fmt.Sprintf("exchange requests/s, loaded (%d scrapers) vs idle", c.scrapers), perSec(loaded.total), perSec(idle.total), "req/s",
		loaded.total <= idle.total+3 && loaded.total >= idle.total-3, true,
		fmt.Sprintf("ratio %s; %d vs %d requests in %s; target: equal within one poll per poller",
			ratioText(loaded.total, idle.total), loaded.total, idle.total, c.loadDur))
	r.add("exporter peak RSS (VmHWM), large account", mb(hwm), mb(maxRSSBytes), "MB", hwm < maxRSSBytes, true,
		fmt.Sprintf("(VmRSS after the loaded window %.1f MB)", mb(rss)))
	tooMany := countRequests(fake, time.Time{}, time.Now()).tooMany
	r.add("429s from the exchange, large account", float64(tooMany), 0, "", tooMany == 0, true, "")
	return ex.checkLog()
}

// catchUp measures how fast a backlog is consumed at the rate limit.
func catchUp(ctx context.Context, c config, requests int, window time.Duration, r *report) error {
	s := fakeexchange.LargeScenario(10, 3)
	fake, err := fakeexchange.New(s, fakeexchange.WithRateLimit(requests, window), fakeexchange.WithRequestLogLimit(0))
	if err != nil {
		return err
	}
	now := time.Now()
	backlog := fakeexchange.LargeHistory(c.tokens, c.backlog, 1, now.Add(-55*time.Minute), now.Add(-5*time.Minute))
	if err := fake.AppendHistory("main", backlog...); err != nil {
		return err
	}
	fakeURL, stopFake, err := serve(fake)
	if err != nil {
		return err
	}
	defer stopFake()

	ex, err := startExporter(ctx, c, fakeURL, "--token-history.lookback=1h", "--token-history.interval=5s",
		"--token-network.interval=5s", "--credentials.interval=5s")
	if err != nil {
		return err
	}
	defer ex.stop()
	hc := &http.Client{Timeout: 30 * time.Second}
	deadline := ex.started.Add(c.catchUpWait)
	var mfs []*dto.MetricFamily
	var catchUpRSS int64
	for {
		mfs, err = gatherProto(hc, ex.url+"/metrics")
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
	first, ok := firstRequest(fake, fakeexchange.EndpointTokenHistory)
	if !ok {
		return errors.New("no token history request reached the exchange")
	}
	took := consumed.Sub(first)
	// A client that keeps to the budget sends at most perWindow requests in
	// any window, so its last page goes out no earlier than
	// (ceil(pages / perWindow) - 1) windows after its first.
	perWindow := client.RateLimit{Requests: requests, Window: window}.Allowed(c.budget)
	pages := (c.backlog + fakeexchange.MaxPageSize - 1) / fakeexchange.MaxPageSize
	windows := (pages+perWindow-1)/perWindow - 1
	if windows < 1 {
		return fmt.Errorf("a backlog of %d pages fits in one window of %d requests: nothing to measure", pages, perWindow)
	}
	allowed := time.Duration(windows) * window
	fmt.Printf("catch-up allowance: (ceil(%d pages / %d requests per %s) - 1) x %s = %s; the clock starts at the first history request\n",
		pages, perWindow, window, window, allowed)
	r.add("catch-up time vs budget allowance", took, allowed, "", allowed.Seconds() >= minCatchUpRatio*took.Seconds(), false,
		fmt.Sprintf("ratio %.2f (allowance / time), target >= %.2f; %d records, %.0f vs %.0f rows/s; %s from process start",
			allowed.Seconds()/took.Seconds(), minCatchUpRatio, c.backlog, float64(c.backlog)/took.Seconds(),
			float64(c.backlog)/allowed.Seconds(), consumed.Sub(ex.started).Round(time.Millisecond)))

	// The poll that counted the last page may have published before the
	// next one re-read the overlap: a double count would show only then.
	if mfs, err = waitHistoryPollAfter(hc, ex.url+"/metrics", consumed, deadline); err != nil {
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
			last, ok1 := valueOf(mfs, "woox_poll_last_success_timestamp_seconds", "endpoint", fakeexchange.EndpointTokenHistory)
			took, ok2 := valueOf(mfs, "woox_poll_duration_seconds", "endpoint", fakeexchange.EndpointTokenHistory)
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

// valueOf returns the value of the first series of family name whose label
// has the given value.
func valueOf(mfs []*dto.MetricFamily, name, label, value string) (float64, bool) {
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, lp := range m.GetLabel() {
				if lp.GetName() == label && lp.GetValue() == value {
					return m.GetGauge().GetValue() + m.GetCounter().GetValue() + m.GetUntyped().GetValue(), true
				}
			}
		}
	}
	return 0, false
}

// compareTotals compares the exported token history with exact sums over
// the records the fake holds: records, inflow and outflow per (token, type),
// no series beyond those, and the newest record's time. The exporter reads
// the account from WOOX_API_KEY, so its account label is the default name.
// It returns one line per mismatch.
func compareTotals(mfs []*dto.MetricFamily, recs []fakeexchange.HistoryRecord) []string {
	type sums struct {
		n       int
		in, out decimal.Decimal
	}
	want := map[[2]string]*sums{}
	var newest int64
	for _, rec := range recs {
		k := [2]string{rec.Token, rec.Type}
		if want[k] == nil {
			want[k] = &sums{}
		}
		s := want[k]
		s.n++
		a := decimal.RequireFromString(rec.Amount)
		if a.Sign() > 0 {
			s.in = s.in.Add(a)
		} else {
			s.out = s.out.Sub(a)
		}
		newest = max(newest, rec.Timestamp)
	}
	account := exporterconfig.DefaultAccountName
	counters := []string{"woox_token_history_records_total", "woox_token_history_inflow_total", "woox_token_history_outflow_total"}
	got := map[string]map[[2]string]float64{}
	var bad []string
	for _, mf := range mfs {
		if !slices.Contains(counters, mf.GetName()) {
			continue
		}
		got[mf.GetName()] = map[[2]string]float64{}
		for _, m := range mf.GetMetric() {
			l := map[string]string{}
			for _, p := range m.GetLabel() {
				l[p.GetName()] = p.GetValue()
			}
			k := [2]string{l["token"], l["transaction_type"]}
			if l["account"] != account || want[k] == nil {
				bad = append(bad, fmt.Sprintf("%s%v: no such records at the exchange", mf.GetName(), l))
				continue
			}
			got[mf.GetName()][k] = m.GetCounter().GetValue()
		}
	}
	for k, s := range want {
		for name, v := range map[string]float64{
			counters[0]: float64(s.n),
			counters[1]: s.in.InexactFloat64(),
			counters[2]: s.out.InexactFloat64(),
		} {
			if g, ok := got[name][k]; !ok {
				bad = append(bad, fmt.Sprintf("%s{token=%q, transaction_type=%q} missing, want %v", name, k[0], k[1], v))
			} else if g != v {
				bad = append(bad, fmt.Sprintf("%s{token=%q, transaction_type=%q} = %v, want %v", name, k[0], k[1], g, v))
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

// startFloor runs the floor in a process of its own, as the exporter runs:
// served from the load test's process it would share the runtime, and the
// garbage collector, with the scrapers, and the machine's CPUs among fewer
// processes than the exporter.
func startFloor(mfs []*dto.MetricFamily) (url string, stop func(), err error) {
	f, err := os.CreateTemp("", "loadtest-floor-*.pb")
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	enc := expfmt.NewEncoder(f, expfmt.NewFormat(expfmt.TypeProtoDelim))
	for _, mf := range mfs {
		if err := enc.Encode(mf); err != nil {
			os.Remove(f.Name())
			return "", nil, err
		}
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return "", nil, err
	}
	addr, err := freeAddress()
	if err != nil {
		os.Remove(f.Name())
		return "", nil, err
	}
	self, err := os.Executable()
	if err != nil {
		os.Remove(f.Name())
		return "", nil, err
	}
	cmd := exec.Command(self, "--serve-floor="+f.Name(), "--floor-address="+addr)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		os.Remove(f.Name())
		return "", nil, fmt.Errorf("start the floor: %w", err)
	}
	stop = func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
		os.Remove(f.Name())
	}
	url = "http://" + addr
	hc := &http.Client{Timeout: 10 * time.Second}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := scrape(hc, url+"/metrics"); err == nil {
			return url, stop, nil
		} else if time.Now().After(deadline) {
			stop()
			return "", nil, fmt.Errorf("floor not serving within 30s: %w", err)
		}
	}
}

// serveFloor serves the families in file with promhttp, as the exporter's
// /metrics is served, until interrupted.
func serveFloor(file, addr string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	dec := expfmt.NewDecoder(f, expfmt.NewFormat(expfmt.TypeProtoDelim))
	var mfs []*dto.MetricFamily
	for {
		mf := &dto.MetricFamily{}
		if err := dec.Decode(mf); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			f.Close()
			return fmt.Errorf("read %s: %w", file, err)
		}
		mfs = append(mfs, mf)
	}
	f.Close()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: promhttp.HandlerFor(
		prometheus.GathererFunc(func() ([]*dto.MetricFamily, error) { return mfs, nil }),
		promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError, EnableOpenMetrics: true})}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// freeAddress returns a loopback address with a port free a moment ago.
func freeAddress() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// exporterProc is a running woox_exporter subprocess.
type exporterProc struct {
	cmd     *exec.Cmd
	url     string
	started time.Time
	log     *bytes.Buffer
	logMu   *sync.Mutex
	done    chan struct{}
}

func startExporter(ctx context.Context, c config, fakeURL string, extra ...string) (*exporterProc, error) {
	addr, err := freeAddress()
	if err != nil {
		return nil, err
	}
	args := append([]string{"--web.listen-address=" + addr, "--woox.api-url=" + fakeURL,
		"--api.rate-limit=" + c.rateLimit, "--api.budget=" + strconv.FormatFloat(c.budget, 'f', -1, 64), "--log.level=warn"}, extra...)
	cmd := exec.CommandContext(ctx, c.exporter, args...)
	cmd.Env = append(os.Environ(), "WOOX_API_KEY="+fakeexchange.LargeMainKey, "WOOX_API_SECRET="+fakeexchange.LargeMainSecret)
	p := &exporterProc{cmd: cmd, url: "http://" + addr, log: &bytes.Buffer{}, logMu: &sync.Mutex{}, done: make(chan struct{})}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	p.started = time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", c.exporter, err)
	}
	go func() {
		defer close(p.done)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			p.logMu.Lock()
			p.log.WriteString(sc.Text() + "\n")
			p.logMu.Unlock()
		}
		_ = cmd.Wait()
	}()
	return p, nil
}

// waitReady polls /-/ready every 5 ms and returns when it answered 200.
func (p *exporterProc) waitReady(timeout time.Duration) (time.Time, error) {
	client := &http.Client{Timeout: time.Second}
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		resp, err := client.Get(p.url + "/-/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return time.Now(), nil
			}
		}
		select {
		case <-p.done:
			return time.Time{}, fmt.Errorf("exporter exited:\n%s", p.logText())
		default:
		}
	}
	return time.Time{}, fmt.Errorf("exporter not ready within %s:\n%s", timeout, p.logText())
}

func (p *exporterProc) logText() string {
	p.logMu.Lock()
	defer p.logMu.Unlock()
	return p.log.String()
}

// checkLog fails on any warning or error the exporter logged.
func (p *exporterProc) checkLog() error {
	if l := strings.TrimSpace(p.logText()); l != "" {
		return fmt.Errorf("the exporter logged warnings or errors:\n%s", l)
	}
	return nil
}

// memory reads the current and peak resident set size from /proc.
func (p *exporterProc) memory() (rss, hwm int64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return -1, -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseInt(f[1], 10, 64)
		switch f[0] {
		case "VmRSS:":
			rss = kb << 10
		case "VmHWM:":
			hwm = kb << 10
		}
	}
	return rss, hwm
}

// alternate runs exRound and floorRound in turn, n times each, with the
// exporter stopped (SIGSTOP) while floorRound runs.
func (p *exporterProc) alternate(n int, exRound, floorRound func() error) error {
	for range n {
		if err := exRound(); err != nil {
			return err
		}
		if err := p.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
			return fmt.Errorf("stop the exporter: %w", err)
		}
		err := floorRound()
		if cerr := p.cmd.Process.Signal(syscall.SIGCONT); cerr != nil && err == nil {
			err = fmt.Errorf("continue the exporter: %w", cerr)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (p *exporterProc) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGCONT)
	_ = p.cmd.Process.Signal(os.Interrupt)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
}

// serve runs h on a loopback port until the returned stop is called.
func serve(h http.Handler) (url string, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() { _ = srv.Close() }, nil
}

// scrape fetches url as Prometheus does and returns the compressed size.
func scrape(client *http.Client, url string) (int64, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Accept", prometheusAccept)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil {
		return n, err
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != "gzip" {
		return n, fmt.Errorf("scrape %s: status %d, Content-Encoding %q", url, resp.StatusCode, resp.Header.Get("Content-Encoding"))
	}
	return n, nil
}

// sequential scrapes url back to back for d and returns every scrape time.
func sequential(client *http.Client, url string, d time.Duration) ([]time.Duration, int64, error) {
	var lat []time.Duration
	var size int64
	for end := time.Now().Add(d); time.Now().Before(end); {
		t := time.Now()
		n, err := scrape(client, url)
		if err != nil {
			return nil, 0, err
		}
		lat = append(lat, time.Since(t))
		size = n
	}
	return lat, size, nil
}

// concurrent runs n scrapers against url for d and returns how many scrapes
// they completed and how long they took.
func concurrent(client *http.Client, url string, n int, d time.Duration) (int64, time.Duration, error) {
	var count atomic.Int64
	var firstErr atomic.Pointer[error]
	var wg sync.WaitGroup
	start := time.Now()
	end := start.Add(d)
	for range n {
		wg.Go(func() {
			for time.Now().Before(end) {
				if _, err := scrape(client, url); err != nil {
					firstErr.CompareAndSwap(nil, &err)
					return
				}
				count.Add(1)
			}
		})
	}
	wg.Wait()
	if e := firstErr.Load(); e != nil {
		return 0, 0, *e
	}
	return count.Load(), time.Since(start), nil
}

func gatherProto(client *http.Client, url string) ([]*dto.MetricFamily, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", protoAccept)
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: status %d", url, resp.StatusCode)
	}
	dec := expfmt.NewDecoder(resp.Body, expfmt.NewFormat(expfmt.TypeProtoDelim))
	var mfs []*dto.MetricFamily
	for {
		mf := &dto.MetricFamily{}
		if err := dec.Decode(mf); errors.Is(err, io.EOF) {
			return mfs, nil
		} else if err != nil {
			return nil, err
		}
		mfs = append(mfs, mf)
	}
}

// ratioText is a/b with two decimals, or n/a when b is 0.
func ratioText(a, b int) string {
	if b == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}

// mb converts bytes to megabytes (10^6 bytes).
func mb(bytes int64) float64 { return float64(bytes) / 1e6 }

func sumOf(mfs []*dto.MetricFamily, name string) float64 {
	var s float64
	for _, mf := range mfs {
		if mf.GetName() == name {
			for _, m := range mf.GetMetric() {
				s += m.GetCounter().GetValue()
			}
		}
	}
	return s
}

type requestCount struct{ total, tooMany int }

// countRequests counts the requests the fake received in [from, to).
func countRequests(fake *fakeexchange.Exchange, from, to time.Time) requestCount {
	var c requestCount
	for _, q := range fake.Requests() {
		if q.Time.Before(from) || !q.Time.Before(to) {
			continue
		}
		c.total++
		if q.Status == http.StatusTooManyRequests {
			c.tooMany++
		}
	}
	return c
}

func quantile(d []time.Duration, q float64) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, int(math.Ceil(q*float64(len(s))))-1)]
}

// report collects the figures and prints each as it comes.
type report struct {
	hardFailed, softFailed bool
}

func (r *report) add(name string, got, ref any, unit string, ok, hard bool, note string) {
	verdict := "PASS"
	if !ok {
		verdict = "FAIL"
		if hard {
			r.hardFailed = true
		} else {
			r.softFailed = true
		}
	}
	kind := "report"
	if hard {
		kind = "hard"
	}
	fmt.Printf("%-4s [%-6s] %-58s %s vs %s %s %s\n", verdict, kind, name, format(got), format(ref), unit, note)
}

func (r *report) ratio(name string, got, ref time.Duration, maxRatio float64, target, hard bool) {
	ratio := got.Seconds() / ref.Seconds()
	note := fmt.Sprintf("ratio %.2f", ratio)
	if target {
		note += fmt.Sprintf(", target <= %.2f", maxRatio)
	}
	r.add(name, got, ref, "", !target || ratio <= maxRatio, hard, note)
}

func (r *report) failed(strict bool) bool { return r.hardFailed || (strict && r.softFailed) }

func format(v any) string {
	switch v := v.(type) {
	case time.Duration:
		return v.Round(10 * time.Microsecond).String()
	case float64:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return fmt.Sprint(v)
}
