package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"maps"
	"math"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// lastSuccessName is the family whose values tell how old each endpoint's
// data of each account is.
const lastSuccessName = "woox_poll_last_success_timestamp_seconds"

// ageSampler keeps the body of a scrape every so often, so that the age of
// the data the exporter served can be read once the timed scrapes are over.
// A nil *ageSampler keeps nothing.
type ageSampler struct {
	every time.Duration

	mu   sync.Mutex
	next time.Time
	kept []keptScrape
}

// keptScrape is a scrape's gzipped body and when it began.
type keptScrape struct {
	at   time.Time
	body []byte
}

// want reports whether the scrape beginning at t keeps its body.
func (s *ageSampler) want(t time.Time) bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if t.Before(s.next) {
		return false
	}
	s.next = t.Add(s.every)
	return true
}

func (s *ageSampler) keep(at time.Time, body []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.kept = append(s.kept, keptScrape{at: at, body: body})
}

// take returns the scrapes kept so far and forgets them.
func (s *ageSampler) take() []keptScrape {
	s.mu.Lock()
	defer s.mu.Unlock()
	kept := s.kept
	s.kept = nil
	return kept
}

// pollSuccess is one series of lastSuccessName.
type pollSuccess struct {
	endpoint, account string
	at                time.Time
}

// lastSuccesses reads every series of lastSuccessName from an exposition in
// Prometheus' text format or OpenMetrics. Only that family's samples are
// handed to the parser: the rest of a thousand accounts' scrape would cost
// the load test more CPU than the exporter spent serving it.
func lastSuccesses(r io.Reader) ([]pollSuccess, error) {
	var lines bytes.Buffer
	fmt.Fprintf(&lines, "# TYPE %s gauge\n", lastSuccessName)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if rest, ok := bytes.CutPrefix(line, []byte(lastSuccessName)); ok && len(rest) > 0 && (rest[0] == '{' || rest[0] == ' ') {
			lines.Write(line)
			lines.WriteByte('\n')
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	parser := expfmt.NewTextParser(model.LegacyValidation)
	mfs, err := parser.TextToMetricFamilies(&lines)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", lastSuccessName, err)
	}
	var out []pollSuccess
	for _, m := range mfs[lastSuccessName].GetMetric() {
		p := pollSuccess{}
		for _, l := range m.GetLabel() {
			switch l.GetName() {
			case "endpoint":
				p.endpoint = l.GetValue()
			case "account":
				p.account = l.GetValue()
			}
		}
		// Whole seconds apart: nanoseconds since 1970 overflow a
		// float's precision.
		sec, frac := math.Modf(m.GetGauge().GetValue())
		p.at = time.Unix(int64(sec), int64(math.Round(frac*1e9)))
		out = append(out, p)
	}
	return out, nil
}

// dataAges adds to ages, per endpoint, the age of each account's data at
// each kept scrape: when the scrape began less the account's last
// successful poll. An endpoint counts only in scrapes from judgedFrom on,
// and not at all when absent from it.
func dataAges(ages map[string][]time.Duration, kept []keptScrape, judgedFrom map[string]time.Time) error {
	for _, k := range kept {
		zr, err := gzip.NewReader(bytes.NewReader(k.body))
		if err != nil {
			return fmt.Errorf("scrape of %s: %w", k.at.Format(time.TimeOnly), err)
		}
		succ, err := lastSuccesses(zr)
		if err != nil {
			return fmt.Errorf("scrape of %s: %w", k.at.Format(time.TimeOnly), err)
		}
		for _, p := range succ {
			from, ok := judgedFrom[p.endpoint]
			if !ok || k.at.Before(from) {
				continue
			}
			ages[p.endpoint] = append(ages[p.endpoint], k.at.Sub(p.at))
		}
	}
	return nil
}

// ageWarmUp is how long after the last first poll an endpoint's data age is
// first judged: by then every poller has polled on its beat (nextPoll), so
// that the first polls' queue at the rate cap does not count.
func ageWarmUp(interval time.Duration) time.Duration { return interval + interval/2 }

// maxDataAge is the oldest an endpoint's data may be at a scrape (p99): an
// interval, plus what a poll may wait at the rate cap and take. Positions,
// the figures liquidation alerts read, get the least.
func maxDataAge(name string, interval time.Duration) time.Duration {
	if name == endpoint.Positions {
		return interval + time.Second
	}
	return interval + 2*time.Second
}

// dataAge is one endpoint's data age at the kept scrapes of a growth run.
type dataAge struct {
	interval      time.Duration
	p50, p99, max time.Duration
	// samples is how many (account, scrape) ages there are; none when
	// the run's kept scrapes all came before judgedFrom.
	samples    int
	judgedFrom time.Duration // after the last first poll
}

// ageFigures summarizes ages per endpoint polled by default, every one of
// which has an entry, with or without samples.
func ageFigures(ages map[string][]time.Duration, every map[string]time.Duration) map[string]dataAge {
	out := map[string]dataAge{}
	for _, ep := range slices.Sorted(maps.Keys(every)) {
		a := dataAge{interval: every[ep], judgedFrom: ageWarmUp(every[ep]), samples: len(ages[ep])}
		if a.samples > 0 {
			a.p50, a.p99 = quantile(ages[ep], 0.5), quantile(ages[ep], 0.99)
			a.max = slices.Max(ages[ep])
		}
		out[ep] = a
	}
	return out
}

// defaultIntervals is the poll interval of every endpoint polled by
// default, as a growth run's exporter runs them (no interval flag).
func defaultIntervals() map[string]time.Duration {
	out := map[string]time.Duration{}
	for _, ep := range endpoint.All {
		if ep.Enabled(nil) {
			out[ep.Name] = ep.DefaultInterval
		}
	}
	return out
}

// ageText is an endpoint's ages as "p50 / p99 / max".
func ageText(a dataAge) string {
	if a.samples == 0 {
		return "-"
	}
	r := func(d time.Duration) string { return d.Round(10 * time.Millisecond).String() }
	return strings.Join([]string{r(a.p50), r(a.p99), r(a.max)}, " / ")
}

// measureAges scrapes the exporter once a second, as Prometheus would, for
// --growth-age-window and keeps the age of the data it served. It runs
// before the floor rounds: a floor round stops the exporter (SIGSTOP), and
// the scrapes after it would show how long it was stopped, not how the
// exporter keeps up.
func measureAges(c config, ex *exporter, client *http.Client, readyAt time.Time, row *growthRow) error {
	every := defaultIntervals()
	judgedFrom := map[string]time.Time{}
	for ep, d := range every {
		judgedFrom[ep] = readyAt.Add(ageWarmUp(d))
	}
	sampler := &ageSampler{every: time.Second}
	err := paced(client, ex.URL()+"/metrics", time.Second, c.growthAgeWindow, sampler)
	row.agesTo = time.Now()
	if err != nil {
		return err
	}
	ages := map[string][]time.Duration{}
	if err := dataAges(ages, sampler.take(), judgedFrom); err != nil {
		return err
	}
	row.ages = ageFigures(ages, every)
	return nil
}

// reportAges adds each endpoint's data age check to the report.
func reportAges(r *report, label string, ages map[string]dataAge) {
	for _, ep := range slices.Sorted(maps.Keys(ages)) {
		a := ages[ep]
		name := fmt.Sprintf("growth, %s: data age p99, %s (every %s)", label, ep, a.interval)
		if a.samples == 0 {
			fmt.Printf("%-4s [%-6s] %-58s %s\n", "SKIP", "hard", name,
				fmt.Sprintf("(no scrape from %s after ready on: the run is shorter)", a.judgedFrom))
			continue
		}
		limit := maxDataAge(ep, a.interval)
		r.add(name, a.p99.Round(time.Millisecond), limit, "", a.p99 <= limit, true,
			fmt.Sprintf("(p50 %s, max %s over %d ages)", a.p50.Round(time.Millisecond), a.max.Round(time.Millisecond), a.samples))
	}
}

// printAges prints the data age table of every growth row.
func printAges(rows []growthRow) {
	fmt.Println("\ndata age at scrape time (scrape start less each account's last successful poll; p50 / p99 / max over accounts and the scrapes kept, one a second, from the warm-up on):")
	fmt.Println("| accounts | account size | endpoint | interval | data age p50 / p99 / max | p99 limit | ages (accounts x scrapes) | judged from, after ready |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for _, g := range rows {
		for _, ep := range slices.Sorted(maps.Keys(g.ages)) {
			a := g.ages[ep]
			fmt.Printf("| %d | %s | %s | %s | %s | %s | %d | %s |\n", g.accounts, g.shape, ep, a.interval, ageText(a), maxDataAge(ep, a.interval), a.samples, a.judgedFrom)
		}
	}
}

// positionsAge is the positions' data age p99 beside its limit, for the
// growth table.
func positionsAge(ages map[string]dataAge) string {
	a, ok := ages[endpoint.Positions]
	if !ok || a.samples == 0 {
		return "-"
	}
	return fmt.Sprintf("%s (%s)", a.p99.Round(10*time.Millisecond), maxDataAge(endpoint.Positions, a.interval))
}
