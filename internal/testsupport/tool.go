package testsupport

import (
	"os/exec"
	"testing"
)

// Tool is the path of the command name, found in PATH. When it is missing
// the test is skipped, naming the command and the Debian package that
// installs it: the checks that run promtool, amtool or docker-compose skip
// on a developer's machine without them, and CI installs them before go test.
func Tool(t testing.TB, name, debianPackage string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("%s is not installed (apt-get install %s): skipping this check", name, debianPackage)
	}
	return p
}
