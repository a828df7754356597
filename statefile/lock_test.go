//go:build unix

package statefile

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestAcquireRefusesAHeldStateFileNamingItsHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "woox.json")
	l, err := Acquire(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Acquire(path)
	if err == nil {
		t.Fatal("second Acquire of a held state file succeeded")
	}
	for _, want := range []string{path, "in use by another exporter", "process " + strconv.Itoa(os.Getpid())} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %q", err, want)
		}
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	l, err = Acquire(path)
	if err != nil {
		t.Fatalf("Acquire after Release: %v", err)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
}
