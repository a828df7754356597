package statefile

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// errLocked is tryLock's error when another process holds the lock.
var errLocked = errors.New("locked")

// Lock is an exclusive hold on a state file, kept for as long as the
// exporter runs: two exporters writing one file would overwrite each
// other's accounts on every poll.
type Lock struct {
	f *os.File
}

// LockPath is the file beside the state file that Acquire locks. The state
// file itself is replaced on every write, so it cannot carry the lock.
func LockPath(path string) string { return path + ".lock" }

// Acquire takes an advisory, exclusive lock (flock) on LockPath(path), or
// fails naming the state file when another process holds it. The lock file
// is left in place when released: removing it would let a third process
// lock a new file while the second still holds the old one.
func Acquire(path string) (*Lock, error) {
	name := LockPath(path)
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|noFollow, 0o600)
	if err != nil {
		return nil, fmt.Errorf("state file %s: open lock file: %w", path, err)
	}
	if err := tryLock(f); err != nil {
		holder := readHolder(f)
		f.Close()
		if errors.Is(err, errLocked) {
			return nil, fmt.Errorf("state file %s is in use by another exporter (%s holds %s): "+
				"each exporter needs a state file of its own", path, holder, name)
		}
		return nil, fmt.Errorf("state file %s: lock %s: %w", path, name, err)
	}
	// The holder's PID, for the error of the next one to try.
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &Lock{f: f}, nil
}

// readHolder describes the process that holds the lock, from the PID it wrote.
func readHolder(f *os.File) string {
	b := make([]byte, 32)
	n, _ := f.ReadAt(b, 0)
	if pid, err := strconv.Atoi(strings.TrimSpace(string(b[:n]))); err == nil && pid > 0 {
		return "process " + strconv.Itoa(pid)
	}
	return "another process"
}

// Release gives the lock up; a nil Lock is none.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}
