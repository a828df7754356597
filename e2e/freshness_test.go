package e2e

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

const (
	// The fake's balance changes every balanceChangeEvery; the exporter
	// polls it every balancePollEvery.
	balanceChangeEvery = 2 * time.Second
	balancePollEvery   = time.Second
	// answerMaxAge is the contract: an answer may miss a poll that
	// finished less than this before it was asked for.
	answerMaxAge = time.Second
	// balancePollMargin is a poll's round trip to the fake (in this
	// process, under the race detector when it is on) and the scheduling of
	// both processes on a loaded machine (CI runs the test beside every
	// other package, under -race): small beside the ages of a stale answer,
	// which are many seconds.
	balancePollMargin = time.Second
	// freshnessScrapeFor is how long the scrapers run: long enough for
	// gaps of up to irregularMaxGap after short ones, and for several
	// rounds of the HA pair.
	freshnessScrapeFor = 75 * time.Second
	// Irregular scrapers wait between irregularMinGap and irregularMaxGap,
	// as someone's curl does.
	irregularMinGap, irregularMaxGap = 3 * time.Second, 20 * time.Second
	haScrapeEvery                    = 10 * time.Second
)

// freshnessToken is the token whose holding the test changes: its own, so
// that nothing else in the scenario moves it.
const freshnessToken = "CLOCK"

// Accept headers as Prometheus sends them with its default scrape
// protocols: version 3 (UTF-8 names) and version 2.
const (
	prometheus3Accept = "application/openmetrics-text;version=1.0.0;escaping=allow-utf-8;q=0.6,application/openmetrics-text;version=0.0.1;q=0.5," +
		"text/plain;version=1.0.0;escaping=allow-utf-8;q=0.4,text/plain;version=0.0.4;q=0.3,*/*;q=0.2"
	prometheus2Accept = "application/openmetrics-text;version=1.0.0;q=0.5,application/openmetrics-text;version=0.0.1;q=0.4,text/plain;version=0.0.4;q=0.3,*/*;q=0.2"
)

// Every answer, in every format, to every scraper, holds the balance the
// newest poll read, or one at most 1 s older: with the balance changing
// every 2 s and polled every 1 s, no value served was superseded more than
// a poll interval and that second before the answer was asked for. The scrapers are
// those that only a predicted scrape would leave behind: curl with and
// without gzip and a Prometheus at irregular gaps, and an HA pair of
// Prometheus servers scraping one format on different phases. Each answer
// must also parse, so a badly stitched one fails too.
func TestBinaryServesEveryScraperTheNewestPoll(t *testing.T) {
	if testing.Short() {
		t.Skip("scrapes for over a minute")
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("WOOX_FRESHNESS_SEED"); s != "" {
		if _, err := fmt.Sscan(s, &seed); err != nil {
			t.Fatalf("WOOX_FRESHNESS_SEED: %v", err)
		}
	}
	t.Logf("gaps and phases from seed %d (WOOX_FRESHNESS_SEED repeats them)", seed)

	// The fake is not started: no history generator moves balances.
	fake := startFake(t)
	clock := &balanceClock{fake: fake}
	defer clock.start(t)()
	p := exportertest.Start(t, defaultSecrets, "--woox.api-url="+serveFake(t, fake),
		"--config.file="+accountsConfig(t, t.TempDir(), "main"), "--balances.interval="+balancePollEvery.String())
	// Ready once every poller has polled: the balance is there.
	p.WaitReady(t)

	rng := rand.New(rand.NewPCG(seed, seed))
	gaps := func() func() time.Duration {
		r := rand.New(rand.NewPCG(rng.Uint64(), rng.Uint64()))
		return func() time.Duration {
			return irregularMinGap + time.Duration(r.Int64N(int64(irregularMaxGap-irregularMinGap)))
		}
	}
	every := func(d time.Duration) func() time.Duration { return func() time.Duration { return d } }
	haPhase := time.Second + time.Duration(rng.Int64N(int64(4*time.Second)))
	// The HA pair asks as Prometheus 2 does, for a format of its own: its
	// scrapes alone tell when that format is scraped.
	scrapers := []*freshnessScraper{
		{name: "curl", first: time.Duration(rng.Int64N(int64(irregularMinGap))), gap: gaps()},
		{name: "curl --compressed", header: http.Header{"Accept-Encoding": {"gzip"}}, gzip: true,
			first: time.Duration(rng.Int64N(int64(irregularMinGap))), gap: gaps()},
		{name: "Prometheus 3 at irregular gaps", header: prometheusHeader(prometheus3Accept), gzip: true, openMetrics: true,
			first: time.Duration(rng.Int64N(int64(irregularMinGap))), gap: gaps()},
		{name: "Prometheus 2 HA, replica a", header: prometheusHeader(prometheus2Accept), gzip: true, openMetrics: true,
			gap: every(haScrapeEvery)},
		{name: "Prometheus 2 HA, replica b", header: prometheusHeader(prometheus2Accept), gzip: true, openMetrics: true,
			first: haPhase, gap: every(haScrapeEvery)},
	}
	t.Logf("HA replicas every %s, %s apart", haScrapeEvery, haPhase.Round(time.Millisecond))

	begin := time.Now()
	var wg sync.WaitGroup
	for _, s := range scrapers {
		wg.Go(func() { s.run(p.URL()+"/metrics", clock, begin) })
	}
	wg.Wait()

	// A value superseded longer ago than this had been read by a poll that
	// finished more than answerMaxAge before the answer: with a change
	// every balanceChangeEvery, no value older than maxAge.
	maxSuperseded := balancePollEvery + answerMaxAge + balancePollMargin
	maxAge := balanceChangeEvery + maxSuperseded
	since := func(at time.Time) time.Duration { return at.Sub(begin).Round(time.Millisecond) }
	for _, s := range scrapers {
		var oldest time.Duration
		for _, a := range s.answers {
			switch {
			case a.err != nil:
				t.Errorf("%s, answer asked for at %s: %v", s.name, since(a.at), a.err)
				continue
			case a.superseded > maxSuperseded:
				t.Errorf("%s, answer asked for at %s: held the balance set at %s, %s old, superseded %s before (want at most %s superseded, %s old)",
					s.name, since(a.at), since(a.changed), a.age.Round(time.Millisecond), a.superseded.Round(time.Millisecond), maxSuperseded, maxAge)
			}
			oldest = max(oldest, a.age)
		}
		t.Logf("%-30s %2d answers, oldest value %4.1fs old", s.name, len(s.answers), oldest.Seconds())
		if len(s.answers) < 2 {
			t.Errorf("%s: %d answers, want a run with gaps between them", s.name, len(s.answers))
		}
	}
}

// prometheusHeader is what Prometheus sends with a scrape, whose timeout
// is 10 s, accepting the formats in accept.
func prometheusHeader(accept string) http.Header {
	return http.Header{
		"Accept":                              {accept},
		"Accept-Encoding":                     {"gzip"},
		"X-Prometheus-Scrape-Timeout-Seconds": {"10"},
	}
}

// balanceClock sets the fake's holding of freshnessToken to the Unix time
// of each change, in seconds to the millisecond, so that the value an
// answer holds says when the exchange last held it; changes are kept in
// order to tell when each value was superseded.
type balanceClock struct {
	fake    *fakeexchange.Exchange
	mu      sync.Mutex
	changes []time.Time
}

// start changes the holding now and every balanceChangeEvery until the
// function it returns is called.
func (c *balanceClock) start(t *testing.T) (stop func()) {
	c.change(t)
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(balanceChangeEvery)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				c.change(t)
			}
		}
	}()
	return func() {
		close(done)
		<-stopped
	}
}

// change sets the holding to now; the change is recorded first, so that no
// answer can hold a value the clock does not know.
func (c *balanceClock) change(t *testing.T) {
	now := time.Now().Truncate(time.Millisecond)
	c.mu.Lock()
	c.changes = append(c.changes, now)
	c.mu.Unlock()
	amount := fmt.Sprintf("%d.%03d", now.Unix(), now.UnixMilli()%1000)
	if err := c.fake.Apply(fakeexchange.Event{Balance: &fakeexchange.Change[fakeexchange.Balance]{Account: "main",
		Row: fakeexchange.Balance{Token: freshnessToken, Holding: amount, Frozen: "0", Staked: "0",
			AvailableBalance: amount, MarkPrice: "1"}}}); err != nil {
		t.Error(err)
	}
}

// superseded is when the value set at changed was replaced, or false while
// it was not before at.
func (c *balanceClock) superseded(changed, at time.Time) (time.Time, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	i, found := slices.BinarySearchFunc(c.changes, changed, func(x, y time.Time) int { return x.Compare(y) })
	switch {
	case !found:
		return time.Time{}, false, fmt.Errorf("holding %.3f is no value the test set", float64(changed.UnixMilli())/1000)
	case i+1 < len(c.changes) && c.changes[i+1].Before(at):
		return c.changes[i+1], true, nil
	}
	return time.Time{}, false, nil
}

// freshnessScraper scrapes /metrics from first after the start, then after
// each gap (start to start), until freshnessScrapeFor has passed.
type freshnessScraper struct {
	name   string
	header http.Header
	// gzip and openMetrics are what the answers must be: gzipped,
	// OpenMetrics rather than the text format.
	gzip, openMetrics bool
	first             time.Duration
	gap               func() time.Duration

	answers []freshnessAnswer
}

// freshnessAnswer is one answer: when it was asked for, when the value it
// holds was set, how old that was and how long it had been superseded by
// then; or why it could not be read.
type freshnessAnswer struct {
	at, changed     time.Time
	age, superseded time.Duration
	err             error
}

func (s *freshnessScraper) run(url string, clock *balanceClock, begin time.Time) {
	// Go's transport neither asks for nor decodes gzip by itself: the
	// header says what is asked for, and the test reads what comes.
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableCompression: true}}
	for next := begin.Add(s.first); next.Before(begin.Add(freshnessScrapeFor)); next = next.Add(s.gap()) {
		time.Sleep(time.Until(next))
		a := freshnessAnswer{at: time.Now()}
		var holding float64
		holding, a.err = s.scrape(client, url)
		if a.err == nil {
			a.changed = time.UnixMilli(int64(math.Round(holding * 1000)))
			a.age = a.at.Sub(a.changed)
			var replaced time.Time
			var ok bool
			if replaced, ok, a.err = clock.superseded(a.changed, a.at); ok {
				a.superseded = a.at.Sub(replaced)
			}
		}
		s.answers = append(s.answers, a)
	}
}

// scrape asks for /metrics as the scraper does, checks that the answer is
// in the format and encoding asked for and parses, and returns the holding
// of freshnessToken it holds.
func (s *freshnessScraper) scrape(client *http.Client, url string) (float64, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	req.Header = s.header.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err
	}
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("status %d: %s", resp.StatusCode, tail(string(body), 3))
	}
	if gz := resp.Header.Get("Content-Encoding") == "gzip"; gz != s.gzip {
		return 0, fmt.Errorf("Content-Encoding %q, want gzip %v", resp.Header.Get("Content-Encoding"), s.gzip)
	}
	if s.gzip {
		// Multistream, as Prometheus reads: every member, and nothing
		// after the last.
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return 0, fmt.Errorf("gzip: %w", err)
		}
		if body, err = io.ReadAll(zr); err != nil {
			return 0, fmt.Errorf("gzip: %w", err)
		}
	}
	want := expfmt.TypeTextPlain
	if s.openMetrics {
		want = expfmt.TypeOpenMetrics
	}
	if got := expfmt.Format(resp.Header.Get("Content-Type")).FormatType(); got != want {
		return 0, fmt.Errorf("Content-Type %q, want OpenMetrics %v", resp.Header.Get("Content-Type"), s.openMetrics)
	}
	families, err := parseExposition(body, s.openMetrics)
	if err != nil {
		return 0, err
	}
	for _, m := range families["woox_balance_holding"].GetMetric() {
		labels := map[string]string{}
		for _, l := range m.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		if labels["account"] == "main" && labels["token"] == freshnessToken {
			return m.GetGauge().GetValue(), nil
		}
	}
	return 0, fmt.Errorf(`no woox_balance_holding{account="main", token=%q}`, freshnessToken)
}

// parseExposition parses an answer in the text format, or in OpenMetrics,
// after checking that every family is written in one block.
func parseExposition(body []byte, openMetrics bool) (map[string]*dto.MetricFamily, error) {
	if openMetrics {
		var ok bool
		if body, ok = bytes.CutSuffix(body, []byte("# EOF\n")); !ok {
			return nil, fmt.Errorf("OpenMetrics answer does not end with # EOF: %q", tail(string(body), 2))
		}
	}
	if err := familiesInOneBlock(body); err != nil {
		return nil, err
	}
	if openMetrics {
		body = openMetricsAsText(body)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("parse: %w", err)
	}
	return families, nil
}

// familiesInOneBlock checks that each family's metadata comes once and its
// samples right after it, as an answer stitched from parts must still be
// (the text parser would merge a family written twice).
func familiesInOneBlock(body []byte) error {
	seen := map[string]bool{}
	current := ""
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if meta, ok := strings.CutPrefix(line, "# "); ok {
			f := strings.Fields(meta)
			if len(f) < 2 || f[0] != "HELP" && f[0] != "TYPE" && f[0] != "UNIT" {
				return fmt.Errorf("line %d: unexpected comment %q", n, line)
			}
			if f[1] != current {
				if seen[f[1]] {
					return fmt.Errorf("line %d: family %s written twice", n, f[1])
				}
				seen[f[1]], current = true, f[1]
			}
			continue
		}
		name, _, _ := strings.Cut(line, " ")
		name, _, _ = strings.Cut(name, "{")
		suffix, ok := strings.CutPrefix(name, current)
		if current == "" || !ok || !slices.Contains([]string{"", "_total", "_created", "_count", "_sum", "_bucket", "_info"}, suffix) {
			return fmt.Errorf("line %d: sample %s outside its family's block (in %s)", n, name, current)
		}
	}
	return sc.Err()
}

// openMetricsAsText is an OpenMetrics answer, its "# EOF" cut, as the text
// parser reads it: a counter's metadata under the name its samples carry
// (name_total), no UNIT lines. Nothing else differs in what the exporter
// writes (no timestamps, exemplars or created lines).
func openMetricsAsText(body []byte) []byte {
	lines := strings.SplitAfter(string(body), "\n")
	var out strings.Builder
	for i := 0; i < len(lines); {
		// A run of metadata lines, then its family's samples.
		j := i
		counters := map[string]bool{}
		for ; j < len(lines) && strings.HasPrefix(lines[j], "# "); j++ {
			if f := strings.Fields(lines[j]); len(f) >= 4 && f[1] == "TYPE" && f[3] == "counter" {
				counters[f[2]] = true
			}
		}
		for _, l := range lines[i:j] {
			f := strings.Fields(l)
			switch {
			case f[1] == "UNIT":
				continue
			case counters[f[2]]:
				l = "# " + f[1] + " " + f[2] + "_total" + strings.TrimPrefix(l, "# "+f[1]+" "+f[2])
			}
			out.WriteString(l)
		}
		for i = j; i < len(lines) && !strings.HasPrefix(lines[i], "# "); i++ {
			out.WriteString(lines[i])
		}
	}
	return []byte(out.String())
}

// The checks an answer passes reject what a bad stitching of parts writes,
// and read both formats as the exporter writes them.
func TestParseExpositionRejectsBadStitching(t *testing.T) {
	const (
		gauge   = "# HELP a_bytes A.\n# TYPE a_bytes gauge\na_bytes{account=\"main\"} 1\n"
		counter = "# HELP b_total B.\n# TYPE b_total counter\nb_total 2\n"
		omGauge = "# HELP a_bytes A.\n# TYPE a_bytes gauge\n# UNIT a_bytes bytes\na_bytes{account=\"main\"} 1\n"
		omCount = "# HELP b B.\n# TYPE b counter\nb_total 2\n"
	)
	for _, tc := range []struct {
		name        string
		body        string
		openMetrics bool
		ok          bool
	}{
		{"text", gauge + counter, false, true},
		{"OpenMetrics", omGauge + omCount + "# EOF\n", true, true},
		{"a family twice", gauge + counter + "# HELP a_bytes A.\n# TYPE a_bytes gauge\na_bytes{account=\"sub\"} 1\n", false, false},
		{"a sample under another family", gauge + counter + "a_bytes{account=\"sub\"} 1\n", false, false},
		{"OpenMetrics without # EOF", omGauge + omCount, true, false},
		{"# EOF inside", omGauge + "# EOF\n" + omCount + "# EOF\n", true, false},
		{"# EOF in the text format", gauge + "# EOF\n", false, false},
		{"a sample cut short", gauge + "a_bytes{account=\"sub\"\n", false, false},
	} {
		families, err := parseExposition([]byte(tc.body), tc.openMetrics)
		if (err == nil) != tc.ok {
			t.Errorf("%s: error %v, want ok %v", tc.name, err, tc.ok)
		}
		if b := families["b_total"].GetMetric(); tc.ok && (len(families["a_bytes"].GetMetric()) != 1 || len(b) != 1 || b[0].GetCounter().GetValue() != 2) {
			t.Errorf("%s: read %v", tc.name, families)
		}
	}
}
