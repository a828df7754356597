package testsupport

import (
	"os"
	"os/exec"
	"testing"
)

// RequireToolsEnv, set to 1, turns a test's skip for a missing tool into a
// failure: .ci/run sets it after installing the tools, so that a check CI
// must run cannot pass by skipping.
const RequireToolsEnv = "WOOX_REQUIRE_TOOLS"

// NeedTools returns the path of each tool on PATH, in order. When one is
// missing it skips the test naming the tool and how to install it (install),
// or fails the test when RequireToolsEnv is 1.
func NeedTools(t testing.TB, install string, tools ...string) []string {
	t.Helper()
	paths := make([]string, len(tools))
	for i, tool := range tools {
		p, err := exec.LookPath(tool)
		if err != nil {
			if os.Getenv(RequireToolsEnv) == "1" {
				t.Fatalf("%s is not installed (%s), and %s=1 says it must be", tool, install, RequireToolsEnv)
			}
			t.Skipf("%s is not installed (%s): skipped", tool, install)
		}
		paths[i] = p
	}
	return paths
}
