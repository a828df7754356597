package releasecheck

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// RunEnv names the variable that, set to 1, runs the release check: it
// builds every artifact, and installs and purges the .deb, so it needs root
// and a machine whose packages it may change (.ci/run sets it).
const RunEnv = "WOOX_RELEASE_RUN"

// platforms are the targets every release ships an archive, a .deb and an
// .rpm for.
var platforms = []struct{ goos, goarch string }{{"linux", "amd64"}, {"linux", "arm64"}}

// artifact is one entry of GoReleaser's dist/artifacts.json.
type artifact struct {
	Name   string         `json:"name"`
	Path   string         `json:"path"` // relative to the repository root
	Goos   string         `json:"goos"`
	Goarch string         `json:"goarch"`
	Type   string         `json:"type"`
	Extra  map[string]any `json:"extra"`
}

// release is a snapshot GoReleaser built: what it says it stamped, and what
// it wrote.
type release struct {
	Version   string `json:"version"`
	Commit    string `json:"commit"`
	artifacts []artifact
}

// file is the artifact's path from this package's directory.
func (a artifact) file() string { return filepath.Join(repoRoot, a.Path) }

// find is the artifact of type typ for goos/goarch whose name ends in
// suffix, or fails the test.
func (r *release) find(t *testing.T, typ, goos, goarch, suffix string) artifact {
	t.Helper()
	for _, a := range r.artifacts {
		if a.Type == typ && a.Goos == goos && a.Goarch == goarch && strings.HasSuffix(a.Name, suffix) {
			return a
		}
	}
	t.Fatalf("GoReleaser built no %s *%s for %s/%s", typ, suffix, goos, goarch)
	return artifact{}
}

// buildSnapshot runs goreleaser release --snapshot --clean at the root and
// reads what it built.
func buildSnapshot(t *testing.T) *release {
	t.Helper()
	goreleaser, err := exec.LookPath("goreleaser")
	if err != nil {
		t.Fatalf("goreleaser is not installed: GOFLAGS='' go install github.com/goreleaser/goreleaser/v2@v2.15.1 (the version .ci/run pins)")
	}
	cmd := exec.Command(goreleaser, "release", "--snapshot", "--clean")
	cmd.Dir = repoRoot
	cmd.Env = append(os.Environ(), remoteEnv(t)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("goreleaser release --snapshot --clean: %v\n%s", err, out)
	}
	r := &release{}
	readJSON(t, filepath.Join(repoRoot, "dist", "metadata.json"), r)
	readJSON(t, filepath.Join(repoRoot, "dist", "artifacts.json"), &r.artifacts)
	if r.Version == "" || len(r.Commit) != 40 {
		t.Fatalf("dist/metadata.json: want a version and a full commit, got version %q, commit %q", r.Version, r.Commit)
	}
	return r
}

// remoteEnv gives git a remote URL for GoReleaser's commands when the clone
// has none: without one GoReleaser reads no git state at all and stamps a
// snapshot with the commit "none". The variables reach no other command.
func remoteEnv(t *testing.T) []string {
	t.Helper()
	cmd := exec.Command("git", "remote")
	cmd.Dir = repoRoot
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git remote: %v", err)
	}
	if strings.TrimSpace(string(out)) != "" {
		return nil
	}
	return []string{
		"GIT_CONFIG_COUNT=1",
		"GIT_CONFIG_KEY_0=remote.origin.url",
		"GIT_CONFIG_VALUE_0=https://github.com/woox-exporter/woox_exporter.git",
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func TestReleaseSnapshot(t *testing.T) {
	if os.Getenv(RunEnv) != "1" {
		t.Skipf("%s not set: this test builds the release and installs the .deb", RunEnv)
	}
	r := buildSnapshot(t)
	t.Logf("snapshot %s, commit %s", r.Version, r.Commit)
	t.Run("checksums", func(t *testing.T) {
		for _, p := range checksumProblems(t, r) {
			t.Error(p)
		}
	})
	t.Run("archives", func(t *testing.T) {
		for _, pl := range platforms {
			a := r.find(t, "Archive", pl.goos, pl.goarch, ".tar.gz")
			for _, p := range archiveProblems(t, r, a) {
				t.Error(p)
			}
		}
	})
	t.Run("packages", func(t *testing.T) {
		for _, pl := range platforms {
			if pl.goos != "linux" {
				continue
			}
			for _, p := range debContentProblems(t, r.find(t, "Linux Package", pl.goos, pl.goarch, ".deb")) {
				t.Error(p)
			}
			for _, p := range rpmContentProblems(t, r, r.find(t, "Linux Package", pl.goos, pl.goarch, ".rpm")) {
				t.Error(p)
			}
		}
	})
	t.Run("deb installed, run as its unit runs it, purged", func(t *testing.T) {
		checkInstalledDeb(t, r)
	})
}
