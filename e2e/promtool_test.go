package e2e

import (
	"bytes"
	"os/exec"
	"testing"

	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// TestPromtoolFindsNoLintProblemInAFullScrape lints, with promtool check
// metrics (names, suffixes, units, help), what each of two shards serves
// with every collector on and a state file: shard 0 polls the public
// endpoints and one account, shard 1 the other account, so together they
// export every family docs/metrics.md lists, and each scrape is linted
// whole, Go's and the process' families included.
func TestPromtoolFindsNoLintProblemInAFullScrape(t *testing.T) {
	promtool := testsupport.Tool(t, "promtool", "prometheus")
	fakeURL := everyFamilyFake(t)
	var urls []string
	for _, index := range []string{"0", "1"} {
		p := startEveryFamily(t, fakeURL, "--shard.count=2", "--shard.index="+index)
		urls = append(urls, p.URL()+"/metrics")
	}
	documented := documentedFamilies(t)
	exported, scrapes := waitForFamilies(t, documented, urls...)
	// A scrape missing families would pass the lint without checking them.
	for _, name := range sortedKeys(documented) {
		if !exported[name] {
			t.Errorf("neither shard exported %s: the lint did not see it", name)
		}
	}
	for i, scrape := range scrapes {
		cmd := exec.Command(promtool, "check", "metrics")
		cmd.Stdin = bytes.NewReader(scrape)
		// promtool exits 3 with one line per problem, on stderr.
		out, err := cmd.CombinedOutput()
		if err != nil || len(bytes.TrimSpace(out)) > 0 {
			t.Errorf("promtool check metrics on shard %d's scrape: %v\n%s", i, err, out)
		}
	}
}
