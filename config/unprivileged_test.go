package config

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// rerunUnprivileged runs the named test again in a copy of the test binary
// as the user nobody, when the tests run as root (as CI does): root reads
// files whatever their mode, so permission errors can only be seen by
// another user. It fails unless every subtest in wantPass passed there.
func rerunUnprivileged(t *testing.T, test string, wantPass ...string) {
	t.Helper()
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Fatalf("running as root and setpriv (util-linux) is missing: cannot run %s as another user", test)
	}
	dir, err := os.MkdirTemp("", "woox-unprivileged-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "config.test")
	copyExecutable(t, os.Args[0], bin)
	cmd := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--",
		bin, "-test.run=^"+test+"$", "-test.v", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/usr/bin:/bin", "TMPDIR=" + os.TempDir()}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s as nobody: %v\n%s", test, err, out)
	}
	for _, sub := range wantPass {
		if !strings.Contains(string(out), "--- PASS: "+test+"/"+sub+" ") {
			t.Errorf("%s/%s did not pass as nobody:\n%s", test, sub, out)
		}
	}
}

func copyExecutable(t *testing.T, from, to string) {
	t.Helper()
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}
