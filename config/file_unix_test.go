//go:build unix

package config

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A config file that is not a regular file (a FIFO would block the read, a
// device such as /dev/zero never ends) or is larger than the cap is refused
// before a byte of it is parsed.
func TestLoadFileRefusesAnythingButASmallRegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.yml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.yml")
	account := []byte("accounts:\n  - {name: a, api_key: k, api_secret_env: WOOX_MAIN_SECRET}\n")
	if err := os.WriteFile(big, append(account, bytes.Repeat([]byte("# padding\n"), maxConfigFileSize/10+1)...), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{fifo, "config file " + fifo + " is not a regular file"},
		{os.DevNull, "config file " + os.DevNull + " is not a regular file"},
		{big, fmt.Sprintf("config file %s is larger than %d bytes", big, maxConfigFileSize)},
	} {
		done := make(chan error, 1)
		go func() {
			_, err := LoadFile(tc.path, testEnv)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || err.Error() != tc.want {
				t.Errorf("LoadFile(%s) error = %v, want %s", tc.path, err, tc.want)
			}
		case <-time.After(5 * time.Second):
			// Open the FIFO's other end, so that the blocked read ends.
			if w, err := os.OpenFile(tc.path, os.O_WRONLY, 0); err == nil {
				w.Close()
			}
			t.Errorf("LoadFile(%s) still reading after 5s", tc.path)
		}
	}
}
