package collector

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-kit/log"
	"github.com/go-kit/log/level"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/exposition"
)

// epochStep separates the part generations of successive exporters: far
// more than the changes one exporter's part sees in its life.
const epochStep = 1 << 48

// Live is the exporter that serves now, replaced whole on a reload: the
// handler and the readiness check keep asking Live, which answers for
// whichever exporter is current.
type Live struct {
	// cur is the exporter served; running is the one Run runs: cur, or the
	// one a reload started whose first polls are not all done yet.
	cur     atomic.Pointer[Exporter]
	running *Exporter
	pending atomic.Bool
	logger  log.Logger

	// mu serializes Run's start and end with Replace. parent is Run's
	// context; stop and done end and await the running exporter's Run.
	mu      sync.Mutex
	parent  context.Context
	stop    context.CancelFunc
	done    chan struct{}
	stopped bool
}

var reloadPendingDesc = prometheus.NewDesc("woox_exporter_reload_first_polls_pending",
	"1 while the pollers a reload started run their first polls, the data of the configuration before it served meanwhile (at most 30 s); 0 otherwise.",
	nil, nil)

// NewLive serves e until a Replace.
func NewLive(e *Exporter, logger log.Logger) *Live {
	l := &Live{running: e, logger: logger}
	l.cur.Store(e)
	return l
}

// Current is the exporter serving now.
func (l *Live) Current() *Exporter { return l.cur.Load() }

// Pending reports whether a reload's exporter runs but is not served yet.
func (l *Live) Pending() bool { return l.pending.Load() }

// Describe implements prometheus.Collector.
func (l *Live) Describe(ch chan<- *prometheus.Desc) {
	ch <- reloadPendingDesc
	ch <- allowListUnlistedDesc
}

// Collect implements prometheus.Collector.
func (l *Live) Collect(ch chan<- prometheus.Metric) {
	v := 0.0
	if l.Pending() {
		v = 1
	}
	ch <- prometheus.MustNewConstMetric(reloadPendingDesc, prometheus.GaugeValue, v)
	l.cur.Load().networks.allowList.collect(ch)
}

// Source is Exporter.Source of whichever exporter is current.
func (l *Live) Source(perScrape prometheus.Gatherer) exposition.Source {
	return exposition.Source{PerScrape: perScrape, Data: func() []exposition.Part { return l.cur.Load().data() }}
}

// Ready is Exporter.Ready of the current exporter.
func (l *Live) Ready() bool { return l.cur.Load().Ready() }

// ReadyNote is Exporter.ReadyNote of the current exporter.
func (l *Live) ReadyNote() string { return l.cur.Load().ReadyNote() }

// Run runs the current exporter, and each that replaces it, until ctx is
// done; it returns once the last has stopped and saved its state.
func (l *Live) Run(ctx context.Context) {
	l.mu.Lock()
	l.parent = ctx
	l.startLocked(l.running)
	l.mu.Unlock()
	<-ctx.Done()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stopped = true
	<-l.done
}

func (l *Live) startLocked(e *Exporter) {
	ctx, stop := context.WithCancel(l.parent)
	done := make(chan struct{})
	go func() {
		defer close(done)
		e.Run(ctx)
	}()
	l.running, l.stop, l.done = e, stop, done
}

// ErrNotRunning is Replace's answer before Run or after it ended.
var ErrNotRunning = errors.New("the exporter is not running")

// Replace stops the running exporter (its polls cut short, its state
// saved), builds the next from its handoff and starts it, and returns: a
// reload answers once the new configuration is in force, not when its
// first polls are done (behind an account's budget they can take a
// minute). build may return an exporter and an error together (one built
// from the configuration before, after the new one failed): that exporter
// runs and the error is returned. With no exporter at all, polling stops.
// The data served stays the served exporter's until the next is ready, at
// most readyWithin, so that a reload does not empty the series for the
// length of the first polls.
func (l *Live) Replace(build func(*Handoff) (*Exporter, error), readyWithin time.Duration) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.parent == nil || l.stopped {
		return ErrNotRunning
	}
	old := l.running
	l.stop()
	<-l.done
	next, err := build(old.Handoff())
	if next == nil {
		// The stopped exporter's data stays served, and goes stale.
		return errors.Join(err, errors.New("no exporter built: polling stopped"))
	}
	next.epoch = old.epoch + epochStep
	l.startLocked(next)
	l.pending.Store(true)
	go l.serveWhenReady(next, readyWithin)
	return err
}

// serveWhenReady serves next once its first polls are done, or readyWithin
// after it started, unless a later reload replaced it first.
func (l *Live) serveWhenReady(next *Exporter, readyWithin time.Duration) {
	began := time.Now()
	for !next.Ready() && time.Since(began) < readyWithin && l.parent.Err() == nil && l.isRunning(next) {
		time.Sleep(50 * time.Millisecond)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.running != next || l.parent.Err() != nil {
		return
	}
	l.cur.Store(next)
	l.pending.Store(false)
	waited := time.Since(began).Round(time.Millisecond)
	if next.Ready() {
		level.Info(l.logger).Log("msg", "the reload's first polls are done; serving them", "after", waited)
		return
	}
	level.Warn(l.logger).Log("msg", "the reload's first polls are not all done; serving what they polled so far", "after", waited)
}

func (l *Live) isRunning(e *Exporter) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.running == e
}
