package collector

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

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
	cur atomic.Pointer[Exporter]

	// mu serializes Run's start and end with Replace. parent is Run's
	// context; stop and done end and await the current exporter's Run.
	mu      sync.Mutex
	parent  context.Context
	stop    context.CancelFunc
	done    chan struct{}
	stopped bool
}

// NewLive serves e until a Replace.
func NewLive(e *Exporter) *Live {
	l := &Live{}
	l.cur.Store(e)
	return l
}

// Current is the exporter serving now.
func (l *Live) Current() *Exporter { return l.cur.Load() }

// Source is Exporter.Source of whichever exporter is current.
func (l *Live) Source(live prometheus.Gatherer) exposition.Source {
	return exposition.Source{Live: live, Data: func() []exposition.Part { return l.cur.Load().data() }}
}

// Ready is Exporter.Ready of the current exporter.
func (l *Live) Ready() bool { return l.cur.Load().Ready() }

// Run runs the current exporter, and each that replaces it, until ctx is
// done; it returns once the last has stopped and saved its state.
func (l *Live) Run(ctx context.Context) {
	l.mu.Lock()
	l.parent = ctx
	l.startLocked(l.cur.Load())
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
	l.stop, l.done = stop, done
}

// ErrNotRunning is Replace's answer before Run or after it ended.
var ErrNotRunning = errors.New("the exporter is not running")

// Replace stops the current exporter (its polls cut short, its state
// saved), builds the next from its handoff and starts it. build may return
// an exporter and an error together (one built from the configuration
// before, after the new one failed): that exporter runs and the error is
// returned. With no exporter at all, polling stops. The stopped exporter's
// data is served until the next is ready, at most readyWithin, so that a
// reload does not empty the series for the length of the first polls.
func (l *Live) Replace(build func(*Handoff) (*Exporter, error), readyWithin time.Duration) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.parent == nil || l.stopped {
		return ErrNotRunning
	}
	old := l.cur.Load()
	l.stop()
	<-l.done
	next, err := build(old.Handoff())
	if next == nil {
		// The stopped exporter's data stays served, and goes stale.
		return errors.Join(err, errors.New("no exporter built: polling stopped"))
	}
	next.epoch = old.epoch + epochStep
	l.startLocked(next)
	for deadline := time.Now().Add(readyWithin); !next.Ready() && time.Now().Before(deadline) && l.parent.Err() == nil; {
		time.Sleep(50 * time.Millisecond)
	}
	l.cur.Store(next)
	return err
}
