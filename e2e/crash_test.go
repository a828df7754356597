package e2e

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/common/model"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// restoredCounters are the counter families the exporter restores from its
// state file: the ones a crash could move back. The others start at zero in
// a new process, a reset Prometheus handles as one.
var restoredCounters = []string{
	"woox_token_history_records_total", "woox_token_history_inflow_total", "woox_token_history_outflow_total",
	"woox_token_history_records_by_type_total", "woox_token_history_late_records_total",
	"woox_token_history_shared_id_records_total", "woox_transfers_total", "woox_transfer_amount_total",
	"woox_api_key_allowed_ips_changes_total", "woox_api_key_permission_changes_total", "woox_wallet_withdrawals_total",
	"woox_account_setting_changes_total",
}

// settingChange is the n-th change of main's settings the crash test makes:
// the account's leverage, the LTC position's leverage, its margin mode.
func settingChange(n int64) fakeexchange.Event {
	leverage := fmt.Sprint(5 + n%4*5)
	switch n % 3 {
	case 0:
		return fakeexchange.Event{AccountInfo: &fakeexchange.Change[fakeexchange.AccountInfo]{Account: "main",
			Row: fakeexchange.AccountInfo{Leverage: leverage}}}
	case 1:
		return fakeexchange.Event{Position: &fakeexchange.Change[fakeexchange.Position]{Account: "main",
			Row: fakeexchange.Position{Symbol: "PERP_LTC_USDT", PositionSide: "BOTH", Leverage: leverage}}}
	}
	return fakeexchange.Event{Position: &fakeexchange.Change[fakeexchange.Position]{Account: "main",
		Row: fakeexchange.Position{Symbol: "PERP_LTC_USDT", PositionSide: "BOTH", MarginMode: []string{"CROSS", "ISOLATED"}[n/3%2]}}}
}

// counterWatch scrapes whichever exporter process is current every 0.2 s and
// remembers, for every restored counter series, the highest value it showed;
// a lower value later is a decrease.
type counterWatch struct {
	current   atomic.Pointer[exportertest.Process]
	mu        sync.Mutex
	highest   map[string]float64
	decreases []string
	scrapes   int
	// scraped are the processes at least one scrape reached.
	scraped map[*exportertest.Process]bool
}

func (w *counterWatch) run(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case <-time.After(200 * time.Millisecond):
		}
		p := w.current.Load()
		if p == nil {
			continue
		}
		samples, err := exportertest.Samples(scrapeClient, p.URL()+"/metrics")
		if err != nil {
			continue // between a kill and the next start
		}
		w.observe(p, samples)
	}
}

// waitScraped waits up to 20 s for a scrape of p.
func (w *counterWatch) waitScraped(t *testing.T, p *exportertest.Process) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		w.mu.Lock()
		done := w.scraped[p]
		w.mu.Unlock()
		if done {
			return
		}
	}
	t.Logf("no scrape of a process within 20 s\n%s", tail(p.Output(), 10))
}

func (w *counterWatch) observe(p *exportertest.Process, samples map[string]*model.Sample) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.scrapes++
	w.scraped[p] = true
	for series, s := range samples {
		if !slices.Contains(restoredCounters, string(s.Metric[model.MetricNameLabel])) {
			continue
		}
		v := float64(s.Value)
		if h, ok := w.highest[series]; ok && v < h {
			if len(w.decreases) < 20 {
				w.decreases = append(w.decreases, fmt.Sprintf("%s: %v after %v", series, v, h))
			}
			continue
		}
		w.highest[series] = v
	}
}

var scrapeClient = &http.Client{Timeout: 2 * time.Second}

// temporaries lists the files beside the state file other than the state
// file and its lock.
func temporaries(t *testing.T, state string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Dir(state))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if n := e.Name(); n != filepath.Base(state) && n != filepath.Base(state)+".lock" && !strings.HasSuffix(n, ".yml") {
			out = append(out, n)
		}
	}
	return out
}

// The exporter is killed at random instants while records arrive, some
// kills during paging, some while a state file save is half written, some
// in the middle of a shutdown: a scraper reading /metrics every 0.2 s never
// sees a restored counter go down, the final totals equal the records the
// fake holds exactly, and no temporary file is left beside the state file.
func TestBinaryCountersNeverGoBackAcrossKills(t *testing.T) {
	fake, err := fakeexchange.New(fakeexchange.DefaultScenario(), fakeexchange.WithRateLimit(10, time.Second),
		fakeexchange.WithRequestLogLimit(100_000))
	if err != nil {
		t.Fatal(err)
	}
	url := serveFake(t, fake)
	dir := t.TempDir()
	state := filepath.Join(dir, "state.json")
	cfg := accountsConfig(t, dir, "main", "sub")
	rnd := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 43))

	// A backlog of 12,000 records makes the first polls page; new records
	// keep arriving, stamped up to 20 s back, so every later poll pages too.
	now := time.Now()
	var backlog []fakeexchange.HistoryRecord
	for i := range 12_000 {
		backlog = append(backlog, fakeexchange.HistoryRecord{ID: int64(1_000_000 + i), Type: []string{"DEPOSIT", "CONVERT", "TRANSACTION_FEE"}[i%3],
			Token: []string{"USDT", "BTC"}[i%2], Amount: fmt.Sprintf("%d.125", 1+i%7), Timestamp: now.Add(-50*time.Minute + time.Duration(i)*200*time.Millisecond).UnixMilli()})
	}
	if err := fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main", Records: backlog}}); err != nil {
		t.Fatal(err)
	}
	// Pages answer a little slowly, so that kills land between them.
	var paging atomic.Pointer[chan struct{}]
	fake.BeforeHistoryPage(func(_ string, page int) {
		time.Sleep(15 * time.Millisecond)
		if c := paging.Load(); c != nil && page >= 2 && paging.CompareAndSwap(c, nil) {
			close(*c)
		}
	})
	stopGen := make(chan struct{})
	var genWG sync.WaitGroup
	genWG.Go(func() {
		id := int64(5_000_000)
		for {
			select {
			case <-stopGen:
				return
			case <-time.After(25 * time.Millisecond):
			}
			id++
			rec := fakeexchange.HistoryRecord{ID: id, Type: []string{"CONVERT", "WITHDRAW", "REALIZED_PNL"}[id%3], Token: []string{"BTC", "ETH"}[id%2],
				Amount: fmt.Sprintf("-0.%03d", 1+id%997), Timestamp: time.Now().Add(-time.Duration(id%20) * time.Second).UnixMilli()}
			if err := fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main",
				Records: []fakeexchange.HistoryRecord{rec}}}); err != nil {
				t.Error(err)
				return
			}
			// Every second a setting changes: the account's leverage, a
			// position's leverage or margin mode, one after another.
			if id%40 == 0 {
				if err := fake.Apply(settingChange(id / 40)); err != nil {
					t.Error(err)
					return
				}
			}
		}
	})
	t.Cleanup(func() {
		select {
		case <-stopGen:
		default:
			close(stopGen)
		}
		genWG.Wait()
	})

	watch := &counterWatch{highest: map[string]float64{}, scraped: map[*exportertest.Process]bool{}}
	stopWatch := make(chan struct{})
	var watchWG sync.WaitGroup
	watchWG.Go(func() { watch.run(stopWatch) })
	t.Cleanup(func() {
		select {
		case <-stopWatch:
		default:
			close(stopWatch)
		}
		watchWG.Wait()
	})

	// Every start is timed to its readiness; the first, which reads the
	// backlog, is not judged.
	var readiness []*startReadiness
	start := func() *exportertest.Process {
		p := exportertest.Start(t, defaultSecrets, append([]string{"--woox.api-url=" + url, "--config.file=" + cfg,
			"--api.rate-limit=10/6s", "--token-history.lookback=2h", "--token-history.state-file=" + state},
			exportertest.IntervalFlags(2*time.Second)...)...)
		watch.current.Store(p)
		readiness = append(readiness, timeReadiness(p, len(readiness) > 0 && slices.ContainsFunc(readiness, (*startReadiness).wasReady)))
		return p
	}

	// Each kind of kill, in a shuffled order.
	kinds := []string{"random", "random", "random", "random", "paging", "paging", "paging", "save", "save", "save", "term+kill", "term+kill"}
	rnd.Shuffle(len(kinds), func(i, j int) { kinds[i], kinds[j] = kinds[j], kinds[i] })
	done := map[string]int{}
	tempsRemoved := 0
	left := map[string]bool{} // temporary files kills left, by name
	for i, kind := range kinds {
		p := start()
		if i == 0 || kind != "random" {
			// The backlog read through once: every restart after it
			// starts from a caught-up state file. A kill of a kind other
			// than random comes after its start is ready, so that each
			// kind of stop is followed by a timed restart; random kills
			// land in first polls too.
			if _, err := p.Ready(5 * time.Minute); err != nil {
				t.Fatal(err)
			}
		}
		if kind != "random" {
			// Shown something first, so that a kill could move it back.
			watch.waitScraped(t, p)
		}
		switch kind {
		case "random":
			time.Sleep(time.Duration(300+rnd.IntN(4000)) * time.Millisecond)
		case "paging":
			c := make(chan struct{})
			paging.Store(&c)
			select {
			case <-c:
			case <-time.After(20 * time.Second):
				t.Logf("kill %d: no second page within 20 s; killed anyway", i)
			}
		case "save":
			// A new save's file, not one an earlier kill left.
			deadline := time.Now().Add(20 * time.Second)
			for time.Now().Before(deadline) && len(tempNames(dir, state, left)) == 0 {
				time.Sleep(200 * time.Microsecond)
			}
		case "term+kill":
			time.Sleep(time.Duration(500+rnd.IntN(3000)) * time.Millisecond)
			if err := p.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			time.Sleep(time.Duration(5+rnd.IntN(195)) * time.Millisecond)
		}
		// A shutdown may be over before its SIGKILL.
		if err := p.Signal(syscall.SIGKILL); err != nil && !p.Exited() {
			t.Fatal(err)
		}
		if err := p.Wait(10 * time.Second); errors.Is(err, exportertest.ErrStillRunning) {
			t.Fatalf("kill %d (%s): no exit within 10 s", i, kind)
		}
		tempsRemoved += removedFiles(t, p.Output())
		for _, name := range tempNames(dir, state, left) {
			left[name] = true
		}
		done[kind]++
		// Down for a moment, as a restarting pod is.
		time.Sleep(time.Duration(100+rnd.IntN(400)) * time.Millisecond)
	}

	// The last start removes what the last kill left; records stop
	// arriving, and the counters catch up with every record.
	p := start()
	close(stopGen)
	genWG.Wait()
	deadline := time.Now().Add(60 * time.Second)
	var diff string
	for {
		s, err := exportertest.Samples(scrapeClient, p.URL()+"/metrics")
		if err == nil {
			diff = scrapedMatches(fake, s, "main") + scrapedMatches(fake, s, "sub")
			if diff == "" {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the counters never equalled the fake's records after the last start:\n%s\n%s", diff, tail(p.Output(), 30))
		}
		time.Sleep(200 * time.Millisecond)
	}
	p.Stop(t)
	tempsRemoved += removedFiles(t, p.Output())
	close(stopWatch)
	watchWG.Wait()
	checkRestartReadiness(t, readiness, kinds)

	checkStateExact(t, fake, readState(t, state)["main"], "main")
	if left := temporaries(t, state); len(left) > 0 {
		t.Errorf("files left beside the state file: %q", left)
	}
	watch.mu.Lock()
	defer watch.mu.Unlock()
	t.Logf("%d kills (%v); %d scrapes of %d processes, %d restored counter series; %d decreases; kills left %d temporary files, the starts removed %d; %d records",
		len(kinds), done, watch.scrapes, len(watch.scraped), len(watch.highest), len(watch.decreases), len(left), tempsRemoved, len(fake.ServedHistory("main")))
	if len(watch.decreases) > 0 {
		t.Errorf("restored counters went down across kills:\n%s", strings.Join(watch.decreases, "\n"))
	}
	for _, setting := range []string{"leverage", "position_leverage", "margin_mode"} {
		if series := `woox_account_setting_changes_total{account="main", setting="` + setting + `"}`; watch.highest[series] < 2 {
			t.Errorf("%s reached %v: the settings changed every second did not count", series, watch.highest[series])
		}
	}
	// A decrease shows across a kill only when both processes were
	// scraped; some kills come before the first scrape of a process.
	if n := len(watch.scraped); n < (len(kinds)+1)*2/3 {
		t.Errorf("scrapes reached only %d of the %d processes: too few to see a decrease", n, len(kinds)+1)
	}
	if len(left) == 0 {
		t.Error("no kill landed during a save (no temporary file left): the test did not try what it claims")
	}
	if tempsRemoved != len(left) {
		t.Errorf("kills left %d temporary files, and the starts said they removed %d", len(left), tempsRemoved)
	}
}

// removedFiles is how many temporary files a start said it removed.
func removedFiles(t *testing.T, output string) int {
	t.Helper()
	n := 0
	for _, line := range strings.Split(output, "\n") {
		if !strings.Contains(line, "removed the temporary files of a state file save cut short by a crash") {
			continue
		}
		var files int
		i := strings.Index(line, " files=")
		if i < 0 {
			t.Fatalf("no files= in %q", line)
		}
		if _, err := fmt.Sscanf(line[i:], " files=%d", &files); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		n += files
	}
	return n
}

// tempNames are the names of the save temporaries beside state that are
// not in known.
func tempNames(dir, state string, known map[string]bool) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if n := e.Name(); strings.HasPrefix(n, "."+filepath.Base(state)+".tmp-") && !known[n] {
			out = append(out, n)
		}
	}
	return out
}

// restartReadyWithin is how soon a restart from a whole state file must be
// ready: its first polls read what arrived while it was down, a page or two.
const restartReadyWithin = 10 * time.Second

// startReadiness is how long one start took to answer /-/ready with 200.
type startReadiness struct {
	started time.Time
	// judged says whether a process was ready before this start, so that
	// the state file held the caught-up counting.
	judged bool
	done   chan struct{}
	// readyAfter is the time to ready, 0 when the process ended first;
	// endedAfter is when it ended.
	readyAfter, endedAfter time.Duration
}

// timeReadiness times p's start to its readiness, in the background.
func timeReadiness(p *exportertest.Process, judged bool) *startReadiness {
	r := &startReadiness{started: time.Now(), judged: judged, done: make(chan struct{})}
	go func() {
		defer close(r.done)
		at, err := p.Ready(5 * time.Minute)
		if err == nil {
			r.readyAfter = at.Sub(r.started)
			return
		}
		r.endedAfter = time.Since(r.started)
	}()
	return r
}

func (r *startReadiness) wasReady() bool {
	select {
	case <-r.done:
		return r.readyAfter > 0
	default:
		return false
	}
}

// checkRestartReadiness reports every start's time to ready and fails on a
// judged restart that took longer than restartReadyWithin, or that was
// still not ready when it was stopped later than that.
func checkRestartReadiness(t *testing.T, starts []*startReadiness, kinds []string) {
	t.Helper()
	var report []string
	for i, r := range starts {
		<-r.done
		kind := "last"
		if i < len(kinds) {
			kind = kinds[i]
		}
		what := fmt.Sprintf("start %d (then %s): ", i, kind)
		switch {
		case r.readyAfter > 0:
			what += fmt.Sprintf("ready after %s", r.readyAfter.Round(time.Millisecond))
		default:
			what += fmt.Sprintf("stopped before ready, after %s", r.endedAfter.Round(time.Millisecond))
		}
		if !r.judged {
			what += " (not judged: no process was ready before it)"
		}
		report = append(report, what)
		if r.judged && (r.readyAfter > restartReadyWithin || (r.readyAfter == 0 && r.endedAfter > restartReadyWithin)) {
			t.Errorf("%s; a restart from a whole state file must be ready within %s", what, restartReadyWithin)
		}
	}
	t.Logf("restart to ready:\n%s", strings.Join(report, "\n"))
}
