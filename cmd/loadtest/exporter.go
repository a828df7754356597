package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/largeaccount"
)

// exporter is a running woox_exporter subprocess, watching the large
// account of the fake at fakeURL.
type exporter struct {
	*exportertest.Process
	// idleCPU is the CPU the exporter used while idle, in CPUs; 0 until
	// measured.
	idleCPU float64
	// longestSettle is the longest wait after a resume.
	longestSettle time.Duration
}

// startExporter runs c.exporter against the fake at fakeURL with the load
// test's rate limit and budget, logging warnings and errors only, and extra.
func startExporter(ctx context.Context, c config, fakeURL string, extra ...string) (*exporter, error) {
	args := append([]string{"--woox.api-url=" + fakeURL, "--api.rate-limit=" + c.rateLimit,
		"--api.budget=" + strconv.FormatFloat(c.budget, 'f', -1, 64), "--log.level=warn"}, extra...)
	env := append(os.Environ(), "WOOX_API_KEY="+largeaccount.MainKey, "WOOX_API_SECRET="+largeaccount.MainSecret)
	p, err := exportertest.StartBinary(ctx, c.exporter, env, args...)
	if err != nil {
		return nil, err
	}
	return &exporter{Process: p}, nil
}

// checkLog fails on any warning or error the exporter logged.
func (p *exporter) checkLog() error {
	if l := strings.TrimSpace(p.Output()); l != "" {
		return fmt.Errorf("the exporter logged warnings or errors:\n%s", l)
	}
	return nil
}

// memory reads the current and peak resident set size from /proc.
func (p *exporter) memory() (rss, hwm int64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.Pid()))
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

// An exporter resumed after a floor round is left to run the polls that
// fell due while it was stopped before it is measured again: a burst no
// running exporter sees. It is left settleAfterResume, then until its CPU
// over settleWindow is back near its use while idle (exporter.idleCPU), at
// most maxSettle in all: at a thousand accounts the burst takes longer to
// run than the stop lasted. The scrapes after it still find every part
// that changed meanwhile, as a Prometheus scraping every 15 s does.
const (
	settleAfterResume = 2 * time.Second
	settleWindow      = 500 * time.Millisecond
	maxSettle         = 15 * time.Second
)

// settle waits for the exporter to settle after a resume, and returns how
// long it waited.
func (p *exporter) settle() time.Duration {
	start := time.Now()
	time.Sleep(settleAfterResume)
	limit := max(1.25*p.idleCPU, 0.25)
	for time.Since(start) < maxSettle {
		c0, err0 := p.cpuTime()
		time.Sleep(settleWindow)
		c1, err1 := p.cpuTime()
		if err0 != nil || err1 != nil || (c1-c0).Seconds()/settleWindow.Seconds() <= limit {
			break
		}
	}
	return time.Since(start)
}

// alternate runs exRound and floorRound by rounds, n of each, with the
// exporter stopped (SIGSTOP) while floorRound runs.
func (p *exporter) alternate(n int, exRound, floorRound func() error) error {
	for i := range n {
		if i > 0 {
			p.longestSettle = max(p.longestSettle, p.settle())
		}
		if err := exRound(); err != nil {
			return err
		}
		if err := p.Signal(syscall.SIGSTOP); err != nil {
			return fmt.Errorf("stop the exporter: %w", err)
		}
		err := floorRound()
		if cerr := p.Signal(syscall.SIGCONT); cerr != nil && err == nil {
			err = fmt.Errorf("continue the exporter: %w", cerr)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// stop shuts the exporter down, killing it if it has not exited within
// 10 s.
func (p *exporter) stop() { _ = p.Shutdown(10 * time.Second) }

// cpuTime is the process's user and system CPU time, from /proc.
func (p *exporter) cpuTime() (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.Pid()))
	if err != nil {
		return 0, err
	}
	// Fields after the command name, which may hold spaces: state is 3,
	// utime 14 and stime 15, in clock ticks of 1/100 s on Linux.
	rest := string(b[strings.LastIndexByte(string(b), ')')+2:])
	f := strings.Fields(rest)
	if len(f) < 13 {
		return 0, errors.New("short /proc stat")
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	s, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	return time.Duration(u+s) * 10 * time.Millisecond, nil
}
