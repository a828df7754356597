package testsupport

import (
	"os"
	"os/exec"
	"testing"
)

// RequireToolsEnv names the variable that, set to 1, turns a test's skip for
// a missing tool into a failure: .ci/run sets it after installing the tools,
// so that a check CI must run cannot pass by skipping.
const RequireToolsEnv = "REQUIRE_TEST_TOOLS"

// Tool is the path of the command name, found in PATH. When it is missing
// the test is skipped, naming the command and the Debian package that
// installs it (or fails, under RequireToolsEnv): the checks that run
// promtool, amtool, jsonnet or docker-compose skip on a developer's machine
// without them.
func Tool(t testing.TB, name, debianPackage string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv(RequireToolsEnv) == "1" {
			t.Fatalf("%s is not installed (apt-get install %s), and %s=1 says it must be", name, debianPackage, RequireToolsEnv)
		}
		t.Skipf("%s is not installed (apt-get install %s): skipping this check", name, debianPackage)
	}
	return p
}
