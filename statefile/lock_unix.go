//go:build unix

package statefile

import (
	"errors"
	"os"
	"syscall"
)

// noFollow keeps a planted symlink from redirecting the lock file.
const noFollow = syscall.O_NOFOLLOW

// tryLock takes an exclusive flock on f without waiting: errLocked when
// another open file description holds it.
func tryLock(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errLocked
	}
	return err
}
