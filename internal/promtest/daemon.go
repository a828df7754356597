package promtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// logTail is how many lines of a daemon's log a failed test shows.
const logTail = 300

// daemon is a running Prometheus or Alertmanager binary.
type daemon struct {
	// URL is the daemon's base URL, without a trailing slash.
	URL string

	name   string
	bin    string
	args   []string
	cmd    *exec.Cmd
	output *testsupport.SyncBuffer
	done   chan struct{} // closed when the process has exited
	hc     *http.Client
}

// lookPath finds bin in PATH or fails the test, naming the Debian package.
func lookPath(t testing.TB, bin, pkg string) string {
	t.Helper()
	path, err := exec.LookPath(bin)
	if err != nil {
		t.Fatalf("%s not found in PATH (Debian: apt-get install %s): %v", bin, pkg, err)
	}
	return path
}

// freeAddr is a loopback address whose port was free a moment ago, or fails
// the test.
func freeAddr(t testing.TB) string {
	t.Helper()
	addr, err := exportertest.FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	return addr
}

// startDaemon runs bin with args (which make it listen on addr), stops it by
// its PID when the test ends, showing the tail of its log if the test
// failed, and waits up to 30 s for /-/ready.
func startDaemon(t testing.TB, name, addr, bin string, args ...string) *daemon {
	t.Helper()
	d := &daemon{URL: "http://" + addr, name: name, bin: bin, args: args, output: &testsupport.SyncBuffer{},
		hc: &http.Client{Timeout: 5 * time.Second}}
	if err := d.start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		d.stop()
		if t.Failed() {
			t.Logf("%s (pid %d) log, last %d lines:\n%s", name, d.Pid(), logTail, d.Tail(logTail))
		}
	})
	if err := d.ready(30 * time.Second); err != nil {
		t.Fatal(err)
	}
	return d
}

// start runs the binary with its arguments, its output appended to the
// daemon's log.
func (d *daemon) start() error {
	d.cmd = exec.Command(d.bin, d.args...)
	d.cmd.Stdout, d.cmd.Stderr = d.output, d.output
	d.done = make(chan struct{})
	if err := d.cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", d.name, err)
	}
	go func(cmd *exec.Cmd, done chan struct{}) {
		_ = cmd.Wait()
		close(done)
	}(d.cmd, d.done)
	return nil
}

// restart stops the daemon as stop does and, away after the stop, runs it
// again with the same arguments (address, configuration, data), waiting up
// to 30 s for /-/ready. URL and the HTTP client stay as they were, so that
// another goroutine may keep asking the API meanwhile.
func (d *daemon) restart(away time.Duration) error {
	stopped := time.Now()
	d.stop()
	time.Sleep(time.Until(stopped.Add(away)))
	if err := d.start(); err != nil {
		return err
	}
	return d.ready(30 * time.Second)
}

// ready polls /-/ready until it answers 200; it gives up after timeout or
// when the process exits.
func (d *daemon) ready(timeout time.Duration) error {
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if resp, err := d.hc.Get(d.URL + "/-/ready"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if d.Exited() {
			return fmt.Errorf("%s exited before it was ready:\n%s", d.name, d.Tail(logTail))
		}
	}
	return fmt.Errorf("%s not ready within %s:\n%s", d.name, timeout, d.Tail(logTail))
}

// Pid is the process id.
func (d *daemon) Pid() int { return d.cmd.Process.Pid }

// Output is everything the daemon logged so far.
func (d *daemon) Output() string { return d.output.String() }

// Tail is the last n lines the daemon logged.
func (d *daemon) Tail(n int) string {
	l := strings.Split(strings.TrimSuffix(d.Output(), "\n"), "\n")
	return strings.Join(l[max(0, len(l)-n):], "\n")
}

// Exited reports whether the process has exited.
func (d *daemon) Exited() bool {
	select {
	case <-d.done:
		return true
	default:
		return false
	}
}

// stop sends SIGTERM to the daemon's PID and waits up to 10 s for it to
// exit, then kills it.
func (d *daemon) stop() {
	_ = d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-d.done:
	case <-time.After(10 * time.Second):
		_ = d.cmd.Process.Kill()
		<-d.done
	}
}

// decode decodes the JSON body of resp into v after checking its status.
func decode(resp *http.Response, what string, v any) error {
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: status %d", what, resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}
