package collector

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/go-kit/log"

	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// runLive runs l until the test ends, and waits until its first exporter is
// ready.
func runLive(t *testing.T, l *Live) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); l.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	testsupport.WaitFor(t, "the first exporter's first polls", l.Ready)
}

// replaceWith replaces l's exporter with one built from cfg and the
// handoff, and returns it.
func replaceWith(t *testing.T, l *Live, cfg Config, readyWithin time.Duration) *Exporter {
	t.Helper()
	var next *Exporter
	err := l.Replace(func(h *Handoff) (*Exporter, error) {
		cfg.Handoff = h
		var err error
		next, err = New(cfg)
		return next, err
	}, readyWithin)
	if err != nil {
		t.Fatal(err)
	}
	return next
}

// A reload answers once the new exporter runs, however long its first polls
// wait; the data before it is served until they are done.
func TestReplaceReturnsBeforeTheNextExportersFirstPolls(t *testing.T) {
	r := newTestRig(t)
	r.add(t, hrec(1, 30*time.Minute, "USDT", "DEPOSIT", "1"))
	first := newExporter(t, testConfig(r))
	l := NewLive(first, log.NewLogfmtLogger(r.logs))
	runLive(t, l)

	pageHeld, release := r.holdHistoryPage(t, 1)
	next := replaceWith(t, l, testConfig(r), time.Hour)
	<-pageHeld // the next exporter's token history poll hangs in its first page
	if l.Current() != first || !l.Pending() || !l.Ready() {
		t.Errorf("while the next exporter's first poll hangs: current is the first %v, pending %v, ready %v; want true, true, true",
			l.Current() == first, l.Pending(), l.Ready())
	}
	release()
	testsupport.WaitFor(t, "the next exporter served", func() bool { return l.Current() == next })
	if l.Pending() {
		t.Error("still pending once the next exporter is served")
	}
	if !strings.Contains(r.logs.String(), `msg="the reload's first polls are done; serving them"`) {
		t.Errorf("no line saying the reload's pollers are served:\n%s", r.logs.String())
	}
}

// A reload whose first polls hang is served after readyWithin with what it
// polled so far, and says so.
func TestReplaceServesTheNextAfterReadyWithin(t *testing.T) {
	r := newTestRig(t)
	first := newExporter(t, testConfig(r))
	l := NewLive(first, log.NewLogfmtLogger(r.logs))
	runLive(t, l)

	r.holdTokenNetworks()
	t.Cleanup(r.fake.ClearFaults)
	next := replaceWith(t, l, testConfig(r), 50*time.Millisecond)
	testsupport.WaitFor(t, "the next exporter served", func() bool { return l.Current() == next })
	if l.Pending() || next.Ready() {
		t.Errorf("served after readyWithin: pending %v, ready %v; want false, false", l.Pending(), next.Ready())
	}
	if !strings.Contains(r.logs.String(), `msg="the reload's first polls are not all done; serving what they polled so far"`) {
		t.Errorf("no warning that the reload is served before its first polls are done:\n%s", r.logs.String())
	}
}
