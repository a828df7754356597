package collector

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-kit/log"
	"github.com/go-kit/log/level"

	"github.com/woox-exporter/woox_exporter/client"
)

// pollFunc reads one endpoint once and, on success, publishes a new
// snapshot. It calls progress whenever it makes headway (a page arrived), so
// that a long catch-up is not cancelled while it still advances.
type pollFunc func(ctx context.Context, progress func()) error

// poller runs one listPollFunc for one (endpoint, account) every interval.
// Polls of one poller never overlap: the next starts only after the previous
// one returned, and a poll that makes no progress for stallAfter is
// cancelled, so a stuck exchange connection cannot hold the schedule.
type poller struct {
	endpoint string
	account  string
	interval time.Duration
	// stallAfter is how long a poll may go without progress.
	stallAfter time.Duration
	poll       listPollFunc
	// onTurn, when set, runs a poll at its account's turn under the rate
	// cap (client.Client.OnTurn): polls due while many wait hold no
	// goroutine meanwhile.
	onTurn  func(ctx context.Context, run func(context.Context))
	logger  log.Logger
	rejects rejectLog
	now     func() time.Time

	// finishedPolls counts the poller's finished polls: the generation of
	// its account's poll times.
	finishedPolls atomic.Uint64
	// outcomeChanges counts the polls that changed its outcome: the
	// generation of its account's poll outcomes.
	outcomeChanges atomic.Uint64

	// firstPolled, when set, is called once the first poll has finished.
	firstPolled func()
	// failedPolls counts the polls failed in a row since failingSince, for
	// the one line that says the endpoint recovered. Only the poll, which
	// never overlaps the next, reads and writes them.
	failedPolls  uint64
	failingSince time.Time

	mu     sync.Mutex
	status pollStatus
	// refused is true while the exchange keeps refusing the key, tlsFailing
	// while the https connection fails: only the first failure of a run is
	// logged at error, with what to check.
	refused, tlsFailing bool
}

// pollStatus is the outcome of the last finished poll.
type pollStatus struct {
	polled      bool // a poll has finished, with success or not
	success     bool
	lastSuccess time.Time
	// rejected is how many rows the last successful poll left out.
	rejected int
	duration time.Duration
	// failures counts failed polls by failureReasons index.
	failures [len(failureReasons)]uint64
	// failedFor is the failureReasons index of the last poll's failure when
	// it failed, and check what to check about it (for tls).
	failedFor int
	check     string
}

// outcome is s less what changes at every poll: its duration, and when it
// last succeeded (only whether it ever did).
func (s pollStatus) outcome() pollStatus {
	s.duration = 0
	if !s.lastSuccess.IsZero() {
		s.lastSuccess = time.Unix(0, 0)
	}
	return s
}

// failureReasons are the values of the reason label of
// woox_poll_failures_total: what an operator does about a failure.
var failureReasons = [...]string{"rate_limited", "auth", "maintenance", "transient", "bad_response", "stalled", "tls"}

// failureReason is the index in failureReasons of why a poll failed. A
// request the exchange refused for another reason, and an answer the
// collector cannot use (a token history row it cannot count yet), are bad
// responses.
func failureReason(err error) int {
	switch {
	case errors.Is(err, errStalled):
		return 5
	case client.IsTLS(err):
		return 6
	case client.IsRateLimited(err):
		return 0
	case client.IsAuth(err):
		return 1
	case client.IsMaintenance(err):
		return 2
	case client.IsTransient(err):
		return 3
	}
	return 4
}

// errStalled is the cause of a poll's cancellation when it made no progress.
var errStalled = errors.New("poll made no progress")

// start polls at once, then on the poller's beats (nextPoll) until ctx is
// done, then calls stopped once no poll runs. A poll still running at the
// next beat is followed by one at once: polls never overlap. Between polls
// no goroutine waits: the timer starts one per poll. With thousands of accounts the
// stacks of a waiting goroutine per poller were a good part of the memory
// (docs/performance.md, "A thousand accounts").
func (p *poller) start(ctx context.Context, stopped func()) {
	var (
		mu      sync.Mutex
		polling bool
		// ended is set once stopped was called, by whichever of the
		// poll and the stop saw ctx done first.
		ended bool
		timer *time.Timer
		// due is when the poll the timer starts is due.
		due   = time.Now()
		phase = p.phase()
	)
	end := func() {
		if !ended {
			ended = true
			stopped()
		}
	}
	mu.Lock()
	defer mu.Unlock()
	timer = time.AfterFunc(0, func() {
		mu.Lock()
		if ctx.Err() != nil {
			// The stop below ends it.
			mu.Unlock()
			return
		}
		polling = true
		started := due
		mu.Unlock()
		p.atTurn(ctx, func(ctx context.Context) {
			began := time.Now()
			p.pollOnce(ctx)
			mu.Lock()
			defer mu.Unlock()
			polling = false
			if ctx.Err() != nil {
				end()
				return
			}
			now := time.Now()
			due = nextPoll(started, began, now, p.interval, phase)
			timer.Reset(due.Sub(now))
		})
	})
	context.AfterFunc(ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		if !polling {
			// A poll starting now sees ctx done and does not run.
			timer.Stop()
			end()
		}
	})
}

// phase is where in its interval the poller polls: by its account, so that
// an account's polls keep their place across restarts; a public poller by
// its endpoint.
func (p *poller) phase() time.Duration {
	if p.account != "" {
		return pollPhase(p.account, p.interval)
	}
	return pollPhase(p.endpoint, p.interval)
}

// atTurn runs run at the poll's turn under the rate cap, or at once.
func (p *poller) atTurn(ctx context.Context, run func(context.Context)) {
	if p.onTurn == nil {
		run(ctx)
		return
	}
	p.onTurn(ctx, run)
}

func (p *poller) pollOnce(parent context.Context) {
	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(nil)
	stall := time.AfterFunc(p.stallAfter, func() { cancel(fmt.Errorf("%w for %s", errStalled, p.stallAfter)) })
	defer stall.Stop()

	started := time.Now()
	left, err := p.poll(ctx, func() { stall.Reset(p.stallAfter) })
	duration := time.Since(started)
	if err != nil && parent.Err() != nil {
		// Shutting down: not the exchange's failure, keep the last status.
		return
	}
	if err != nil && context.Cause(ctx) != nil {
		err = fmt.Errorf("%w: %w", context.Cause(ctx), err)
	}

	p.mu.Lock()
	before := p.status.outcome()
	p.status.polled = true
	p.status.success = err == nil
	p.status.duration = duration
	if err == nil {
		p.status.lastSuccess = p.now()
		p.status.rejected = left.count()
	} else {
		p.status.failedFor = failureReason(err)
		p.status.failures[p.status.failedFor]++
		p.status.check = ""
		if client.IsTLS(err) {
			p.status.check = client.TLSHint(err)
		}
	}
	changed := p.status.outcome() != before
	p.mu.Unlock()
	if changed {
		p.outcomeChanges.Add(1)
	}
	p.finishedPolls.Add(1)
	if !before.polled && p.firstPolled != nil {
		p.firstPolled()
	}

	if err != nil {
		if p.failedPolls == 0 {
			p.failingSince = p.now()
		}
		p.failedPolls++
		p.logFailure(err)
		return
	}
	p.logRecovery()
	p.refused, p.tlsFailing = false, false
	p.rejects.note(p.logger, p.endpoint, p.account, left.rows)
}

// logRecovery says, once, that a poll succeeded after failed ones: each
// failure was logged at warn, and without this line the log would end on
// them while the endpoint is fine.
func (p *poller) logRecovery() {
	if p.failedPolls == 0 {
		return
	}
	level.Info(p.logger).Log("msg", "poll recovered", "endpoint", p.endpoint, "account", p.account,
		"failed_for", p.now().Sub(p.failingSince).Round(time.Millisecond), "failed_polls", p.failedPolls)
	p.failedPolls = 0
}

// authHint is what to check when the exchange refuses the key.
const authHint = "that the key is not revoked or expired, that its IP restriction allows the address this host connects from, and that the secret is the key's own"

// logFailure logs a failed poll at warn; a refused key or a TLS failure at
// error, with what to check, on the first after anything else.
func (p *poller) logFailure(err error) {
	refused, tlsFailed := client.IsAuth(err), client.IsTLS(err)
	firstRefusal, firstTLS := refused && !p.refused, tlsFailed && !p.tlsFailing
	p.refused, p.tlsFailing = refused, tlsFailed
	switch {
	case firstRefusal:
		level.Error(p.logger).Log("msg", "the exchange refused the API key; check "+authHint, "endpoint", p.endpoint, "account", p.account, "err", err)
		return
	case firstTLS:
		level.Error(p.logger).Log("msg", "no trusted https connection to the exchange: "+client.TLSHint(err), "endpoint", p.endpoint, "account", p.account, "err", err)
		return
	}
	level.Warn(p.logger).Log("msg", "poll failed", "endpoint", p.endpoint, "account", p.account, "err", err)
}

func (p *poller) lastStatus() pollStatus {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.status
}
