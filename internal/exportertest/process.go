package exportertest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// ErrStillRunning is returned when the process has not exited in time.
var ErrStillRunning = errors.New("still running")

// Process is a running exporter binary.
type Process struct {
	// Addr is where the exporter serves, host:port.
	Addr string
	// Started is when the process was started.
	Started time.Time

	cmd     *exec.Cmd
	output  *testsupport.SyncBuffer
	done    chan struct{} // closed when the process has exited
	exitErr error         // what cmd.Wait returned, once done is closed
}

// StartBinary runs the exporter binary bin on a free loopback address,
// with args after --web.listen-address and env as its whole environment.
// Cancelling ctx kills it.
func StartBinary(ctx context.Context, bin string, env []string, args ...string) (*Process, error) {
	addr, err := FreeAddr()
	if err != nil {
		return nil, err
	}
	return StartBinaryAt(ctx, bin, addr, env, args...)
}

// StartBinaryAt is StartBinary on addr, host:port: an exporter restarted
// where Prometheus scrapes it.
func StartBinaryAt(ctx context.Context, bin, addr string, env []string, args ...string) (*Process, error) {
	cmd := exec.CommandContext(ctx, bin, append([]string{"--web.listen-address=" + addr}, args...)...)
	cmd.Env = env
	return StartCommand(cmd, addr)
}

// StartCommand starts cmd, an exporter that will serve on addr, with its
// standard output and error collected in Output. It is for starts that
// StartBinary cannot express, such as a socket passed on by a wrapper.
func StartCommand(cmd *exec.Cmd, addr string) (*Process, error) {
	p := &Process{Addr: addr, cmd: cmd, output: &testsupport.SyncBuffer{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.output, p.output
	p.Started = time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	go func() {
		p.exitErr = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// URL is the exporter's base URL, without a trailing slash.
func (p *Process) URL() string { return "http://" + p.Addr }

// Pid is the process id.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Output is everything the process wrote to its standard output and error
// so far.
func (p *Process) Output() string { return p.output.String() }

// Get fetches path from the exporter and returns the status and the body.
func (p *Process) Get(path string) (int, string, error) {
	resp, err := http.Get(p.URL() + path)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body), err
}

// Ready polls /-/ready every 5 ms until it answers 200 and returns when it
// did; it gives up after timeout or when the process exits.
func (p *Process) Ready(timeout time.Duration) (time.Time, error) {
	// With a timeout: a socket nobody accepts on keeps connections waiting
	// in its backlog, where a plain GET would wait for ever.
	client := &http.Client{Timeout: time.Second}
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		resp, err := client.Get(p.URL() + "/-/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return time.Now(), nil
			}
		}
		select {
		case <-p.done:
			return time.Time{}, fmt.Errorf("exporter exited:\n%s", p.Output())
		default:
		}
	}
	return time.Time{}, fmt.Errorf("exporter not ready within %s:\n%s", timeout, p.Output())
}

// Exited reports whether the process has exited.
func (p *Process) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Signal sends sig to the process.
func (p *Process) Signal(sig os.Signal) error { return p.cmd.Process.Signal(sig) }

// Wait waits up to timeout for the process to exit and returns what its
// exit says (nil for status 0), or ErrStillRunning.
func (p *Process) Wait(timeout time.Duration) error {
	select {
	case <-p.done:
		return p.exitErr
	case <-time.After(timeout):
		return fmt.Errorf("no exit within %s: %w", timeout, ErrStillRunning)
	}
}

// Shutdown asks the exporter to stop (SIGTERM, after a SIGCONT in case it
// is stopped) and waits up to timeout for it to exit; one that does not is
// killed, and ErrStillRunning returned. Otherwise it returns what the exit
// says (nil for status 0).
func (p *Process) Shutdown(timeout time.Duration) error {
	_ = p.Signal(syscall.SIGCONT)
	if err := p.Signal(syscall.SIGTERM); err != nil {
		return err
	}
	err := p.Wait(timeout)
	if errors.Is(err, ErrStillRunning) {
		p.Close()
	}
	return err
}

// Close kills the process, if it still runs, and waits for its exit.
func (p *Process) Close() {
	_ = p.cmd.Process.Kill()
	<-p.done
}
