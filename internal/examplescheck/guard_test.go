package examplescheck

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Grafana's run.sh turns an unreadable or empty password file into an empty
// password, which Grafana ignores for its default, admin: the guard
// (examples/grafana/require-admin-password.sh) refuses those. Each case must
// fail for its own reason.

// guardProblems: the guard at path refuses a missing, an empty and a
// white-space password file, each naming why, and starts with a password.
func guardProblems(t *testing.T, path string) []string {
	t.Helper()
	dir, guard := guardDir(t, path)
	pw := filepath.Join(dir, "password")
	out := expectGuard(path, "missing", "is missing", runGuard(guard, pw))
	for _, c := range []struct{ name, content, want string }{
		{"empty", "", "is empty"},
		{"of white space", " \n\t\n", "is empty"},
		{"good", "correct-horse\n", "started"},
	} {
		if err := os.WriteFile(pw, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, expectGuard(path, c.name, c.want, runGuard(guard, pw))...)
	}
	return out
}

// guardAs472Problems: run as Grafana's user, uid 472, the guard at path
// refuses a password file it cannot read (root's, mode 0400) and starts
// with one it owns. Needs root, to make those files and switch user, and
// setpriv; the test skips without them.
func guardAs472Problems(t *testing.T, path string) []string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("not root: cannot run the guard as uid 472 (Grafana's user); CI runs as root")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("setpriv is not installed (apt-get install util-linux): cannot run the guard as uid 472")
	}
	as472 := []string{setpriv, "--reuid=472", "--regid=0", "--clear-groups"}
	dir, guard := guardDir(t, path)
	pw := filepath.Join(dir, "password")
	if err := os.WriteFile(pw, []byte("correct-horse\n"), 0o400); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(pw, 0, 0); err != nil {
		t.Fatal(err)
	}
	out := expectGuard(path, "root's, 0400, read by uid 472", "cannot read", runGuard(guard, pw, as472...))
	if err := os.Chown(pw, 472, 0); err != nil {
		t.Fatal(err)
	}
	return append(out, expectGuard(path, "uid 472's, 0400, read by uid 472", "started", runGuard(guard, pw, as472...))...)
}

func TestGrafanaGuardRefusesAMissingOrEmptyPassword(t *testing.T) {
	report(t, guardProblems(t, guardFile))
}

func TestGrafanaGuardRefusesAPasswordUID472CannotRead(t *testing.T) {
	report(t, guardAs472Problems(t, guardFile))
}

// brokenGuard is a copy of the guard without the part that begins with the
// line holding from and ends with the next line that is exactly "fi".
func brokenGuard(t *testing.T, from string) string {
	t.Helper()
	lines := strings.SplitAfter(string(read(t, guardFile)), "\n")
	start := -1
	for i, l := range lines {
		if start < 0 && strings.Contains(l, from) {
			start = i
		}
		if start >= 0 && l == "fi\n" {
			file := filepath.Join(t.TempDir(), "guard.sh")
			if err := os.WriteFile(file, []byte(strings.Join(append(lines[:start:start], lines[i+1:]...), "")), 0o644); err != nil {
				t.Fatal(err)
			}
			return file
		}
	}
	t.Fatalf("%s: no block starting at %q", guardFile, from)
	return ""
}

func TestGuardCheckFailsOnAGuardThatStartsAnyway(t *testing.T) {
	noEmptyCheck := brokenGuard(t, "grep -q")
	got := guardProblems(t, noEmptyCheck)
	wantProblem(t, got, `password file empty: want "is empty", got: started`)
	wantProblem(t, got, `password file of white space: want "is empty", got: started`)
}

func TestGuardAs472CheckFailsOnAGuardThatDoesNotCheckReadability(t *testing.T) {
	// Without its -r test the guard still refuses, but as an empty file.
	noReadCheck := brokenGuard(t, `[ ! -r "$f" ]`)
	got := guardAs472Problems(t, noReadCheck)
	wantProblem(t, got, `password file root's, 0400, read by uid 472: want "cannot read", got: `)
	wantProblem(t, got, `is empty; put one in`)
}

// guardDir is a directory uid 472 can read, holding a copy of the guard
// script at path: t.TempDir's directories are private to their owner.
func guardDir(t *testing.T, path string) (dir, guard string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "woox-grafana-guard-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	guard = filepath.Join(dir, "guard.sh")
	if err := os.WriteFile(guard, read(t, path), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, guard
}

// runGuard runs the guard on the password file pw, with the command echo
// started, prefixed by runner (setpriv, to run it as another user).
func runGuard(guard, pw string, runner ...string) string {
	args := append(append(runner, "env", "GF_SECURITY_ADMIN_PASSWORD__FILE="+pw, "sh", guard), "echo", "started")
	out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
	if _, exited := errors.AsType[*exec.ExitError](err); err != nil && !exited {
		// It did not run: say why, or the problem would show no output.
		return string(out) + err.Error()
	}
	return string(out)
}

// expectGuard is a problem unless the output of the guard contains want: its
// refusal, or "started".
func expectGuard(guard, name, want, out string) []string {
	if strings.Contains(out, want) {
		return nil
	}
	return []string{fmt.Sprintf("%s: password file %s: want %q, got: %s", guard, name, want, out)}
}
