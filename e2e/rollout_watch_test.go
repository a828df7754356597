package e2e

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/common/model"
)

// accountInfoByShard is the query of how many watched accounts Prometheus
// holds of each shard now.
const accountInfoByShard = `count by (instance) (woox_transfer_account_info{job="woox"})`

// rolloutWatch reads Prometheus' alerts and each shard's
// woox_transfer_account_info there every 2 s, in a goroutine of its own,
// and keeps what it saw by step of the run.
type rolloutWatch struct {
	r     *rollout
	began time.Time
	stop  chan struct{}
	done  chan struct{}
	once  sync.Once

	mu    sync.Mutex
	steps []*rolloutStep
	// failing counts the reads in a row that failed; errs are the runs of
	// failures longer than a restart of Prometheus.
	failing int
	errs    []string
}

// rolloutStep is what the watch saw during one step, from its start to the
// end of the minute watched after it.
type rolloutStep struct {
	name       string
	stops      []int
	start, end time.Time
	// fewest is the fewest woox_transfer_account_info series of each shard
	// at a read; lost is the first read with fewer than its accounts, back
	// the first with all of them again after that.
	fewest     [rolloutShards]int
	lost, back [rolloutShards]time.Time
	// pending is the longest an alert was seen pending, by identity;
	// firing when it was first seen firing.
	pending map[string]time.Duration
	firing  map[string]time.Time
}

// watchRollout starts the watch, which ends with the test at the latest.
func watchRollout(t *testing.T, r *rollout) *rolloutWatch {
	w := &rolloutWatch{r: r, began: time.Now(), stop: make(chan struct{}), done: make(chan struct{})}
	t.Cleanup(w.close)
	go func() {
		defer close(w.done)
		for {
			w.read(time.Now())
			select {
			case <-w.stop:
				return
			case <-time.After(2 * time.Second):
			}
		}
	}()
	return w
}

// step runs action as a step of the run named name, which stops the shards
// in stops, then watches for rolloutWatchFor more.
func (w *rolloutWatch) step(t *testing.T, name string, stops []int, action func()) {
	t.Helper()
	t.Logf("+%s: %s", time.Since(w.began).Round(time.Second), name)
	s := &rolloutStep{name: name, stops: stops, start: time.Now(), fewest: [rolloutShards]int{2, 2},
		pending: map[string]time.Duration{}, firing: map[string]time.Time{}}
	w.mu.Lock()
	w.steps = append(w.steps, s)
	w.mu.Unlock()
	action()
	time.Sleep(rolloutWatchFor)
	w.mu.Lock()
	s.end = time.Now()
	w.mu.Unlock()
}

// close stops the watch and waits for its last read.
func (w *rolloutWatch) close() {
	w.once.Do(func() { close(w.stop) })
	<-w.done
}

// read reads the alerts and accounts once, into the current step.
func (w *rolloutWatch) read(now time.Time) {
	alerts, err := w.r.prom.Alerts()
	var accounts model.Vector
	if err == nil {
		accounts, err = w.r.prom.Query(accountInfoByShard, now)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.steps) == 0 {
		return
	}
	s := w.steps[len(w.steps)-1]
	if err != nil {
		// A restart of Prometheus takes seconds; a minute is a fault.
		if w.failing++; w.failing == 30 {
			w.errs = append(w.errs, fmt.Sprintf("%s: Prometheus' API failed for a minute: %v", s.name, err))
		}
		return
	}
	w.failing = 0
	for _, a := range alerts {
		id := toLabelSet(a.Labels).String()
		if a.State == "firing" {
			if _, seen := s.firing[id]; !seen {
				s.firing[id] = now
			}
		} else if d := now.Sub(a.ActiveAt); d > s.pending[id] {
			s.pending[id] = d
		}
	}
	for i, sh := range w.r.shards {
		n := 0
		for _, v := range accounts {
			if string(v.Metric["instance"]) == sh.addr {
				n = int(v.Value)
			}
		}
		s.fewest[i] = min(s.fewest[i], n)
		if n < len(w.r.accounts[i]) && s.lost[i].IsZero() {
			s.lost[i] = now
		}
		if n == len(w.r.accounts[i]) && !s.lost[i].IsZero() && s.back[i].IsZero() {
			s.back[i] = now
		}
	}
}

func toLabelSet(m map[string]string) model.LabelSet {
	ls := model.LabelSet{}
	for k, v := range m {
		ls[model.LabelName(k)] = model.LabelValue(v)
	}
	return ls
}

// report logs each step's timings and the alerts seen pending, and fails
// for an alert seen firing, for a stopped shard whose accounts Prometheus
// never lost (the step tested nothing), and for a broken API.
func (w *rolloutWatch) report(t *testing.T, took time.Duration) {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, e := range w.errs {
		t.Error(e)
	}
	for _, s := range w.steps {
		t.Logf("%s: +%s, %s", s.name, s.start.Sub(w.began).Round(time.Second), s.end.Sub(s.start).Round(time.Second))
		for _, i := range s.stops {
			if s.lost[i].IsZero() {
				t.Errorf("%s: Prometheus never lost shard %d's woox_transfer_account_info: the step tested nothing", s.name, i)
				continue
			}
			back := "never had them all again"
			if !s.back[i].IsZero() {
				back = fmt.Sprintf("had them all again at +%s", s.back[i].Sub(s.start).Round(time.Second))
			}
			t.Logf("  shard %d: Prometheus held %d of its %d accounts' woox_transfer_account_info at the fewest, from +%s; %s",
				i, s.fewest[i], len(w.r.accounts[i]), s.lost[i].Sub(s.start).Round(time.Second), back)
		}
		for _, id := range slices.Sorted(maps.Keys(s.pending)) {
			t.Logf("  pending for up to %s: %s", s.pending[id].Round(time.Second), id)
		}
		for _, id := range slices.Sorted(maps.Keys(s.firing)) {
			t.Errorf("%s: firing at +%s: %s", s.name, s.firing[id].Sub(s.start).Round(time.Second), id)
		}
	}
	for i, sh := range w.r.shards {
		t.Logf("shard %d away (stop to /-/ready): %s", i, strings.Trim(fmt.Sprint(roundAll(sh.away)), "[]"))
	}
	t.Logf("Prometheus away (SIGTERM to /-/ready): %s; the run took %s", w.r.promAway.Round(100*time.Millisecond), took.Round(time.Second))
}

func roundAll(ds []time.Duration) []time.Duration {
	out := make([]time.Duration, len(ds))
	for i, d := range ds {
		out[i] = d.Round(100 * time.Millisecond)
	}
	return out
}

// waitForAccounts waits up to 90 s for Prometheus to have scraped both
// shards and to hold every account's woox_transfer_account_info.
func (r *rollout) waitForAccounts(t *testing.T) {
	t.Helper()
	for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(time.Second) {
		// scrape_samples_scraped is not in the history written before:
		// it is there once Prometheus scraped the running shards.
		scraped, err := r.prom.Query(`scrape_samples_scraped{job="woox"} > 0`, time.Now())
		var accounts model.Vector
		if err == nil {
			accounts, err = r.prom.Query(`woox_transfer_account_info{job="woox"}`, time.Now())
		}
		if err == nil && len(scraped) == rolloutShards && len(accounts) == 4 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 90 s Prometheus scraped %d of %d shards and holds %d of 4 accounts' woox_transfer_account_info (error: %v)",
				len(scraped), rolloutShards, len(accounts), err)
		}
	}
}

// checkPremise fails unless Prometheus holds, for each shard, a transfer
// within the last hour to one of its accounts from an account of the
// other shard: what a restart of that shard made page.
func (r *rollout) checkPremise(t *testing.T) {
	t.Helper()
	v, err := r.prom.Query(`time() - woox_transfer_last_timestamp_seconds{job="woox", direction="out"} < 3600`, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	shardOf := map[string]int{}
	for i, names := range r.accounts {
		for _, n := range names {
			shardOf[n] = i
		}
	}
	var covered [rolloutShards]bool
	for _, s := range v {
		to, ok := shardOf[strings.TrimPrefix(string(s.Metric["application_id"]), "app-")]
		if ok && to != shardOf[string(s.Metric["account"])] {
			covered[to] = true
		}
	}
	for i, c := range covered {
		if !c {
			t.Fatalf("Prometheus holds no transfer of the last hour to an account of shard %d from the other shard:\n%v", i, v)
		}
	}
}

// checkNothingFired fails for every alert whose ALERTS series was firing at
// any evaluation since began: also those between two reads, or while
// Prometheus restarted.
func (r *rollout) checkNothingFired(t *testing.T, began time.Time) {
	t.Helper()
	window := time.Since(began).Round(time.Second) + time.Minute
	v, err := r.prom.Query(fmt.Sprintf(`max_over_time(ALERTS{alertstate="firing"}[%ds])`, int(window.Seconds())), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range v {
		t.Errorf("fired during the run (ALERTS): %s", s.Metric)
	}
	if len(v) == 0 {
		t.Logf("ALERTS over the run (%s): nothing fired", window)
	}
}
