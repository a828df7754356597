package releasecheck

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// archived are the files every archive holds beside the binary, under its
// top directory.
var archived = []string{
	"README.md", "CHANGELOG.md", "RUNBOOK.md", "LICENSE", "docs/deploying.md",
	"alerts/woox_exporter.rules.yml", "dashboards/woox_exporter.json",
	"deploy/systemd/woox_exporter.service", "deploy/systemd/woox_exporter.default",
}

// checksumProblems: every archive and package is listed in the checksums
// file with the SHA-256 it has, and every file listed is there.
func checksumProblems(t *testing.T, r *release) []string {
	t.Helper()
	sums := filepath.Join(repoRoot, "dist", "sha256sums.txt")
	f, err := os.Open(sums)
	if err != nil {
		return []string{"no checksums file: " + err.Error()}
	}
	defer f.Close()
	var problems []string
	listed := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		want, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			problems = append(problems, "sha256sums.txt: not \"SUM  NAME\": "+sc.Text())
			continue
		}
		listed[name] = true
		if got, err := sha256File(filepath.Join(repoRoot, "dist", name)); err != nil {
			problems = append(problems, "sha256sums.txt lists "+name+": "+err.Error())
		} else if got != want {
			problems = append(problems, fmt.Sprintf("sha256sums.txt: %s has SHA-256 %s, the file lists %s", name, got, want))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for _, a := range r.artifacts {
		if (a.Type == "Archive" || a.Type == "Linux Package") && !listed[a.Name] {
			problems = append(problems, "sha256sums.txt does not list "+a.Name)
		}
	}
	return problems
}

func sha256File(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// archiveProblems unpacks the archive a and checks its layout, its binary's
// build info and, for linux, what its binary's --version says.
func archiveProblems(t *testing.T, r *release, a artifact) []string {
	t.Helper()
	top := fmt.Sprintf("woox_exporter-%s.%s-%s", r.Version, a.Goos, a.Goarch)
	dir := t.TempDir()
	if err := untar(a.file(), dir); err != nil {
		return []string{a.Name + ": " + err.Error()}
	}
	var problems []string
	bin := filepath.Join(dir, top, "woox_exporter")
	if fi, err := os.Stat(bin); err != nil || fi.Mode().Perm() != 0o755 {
		return []string{fmt.Sprintf("%s: want %s/woox_exporter, mode 0755 (%v)", a.Name, top, err)}
	}
	for _, f := range archived {
		if _, err := os.Stat(filepath.Join(dir, top, f)); err != nil {
			problems = append(problems, fmt.Sprintf("%s: no %s/%s", a.Name, top, f))
		}
	}
	problems = append(problems, buildInfoProblems(t, a.Name, bin, a.Goos, a.Goarch, r)...)
	if a.Goos == "linux" {
		problems = append(problems, versionProblems(t, a.Name, bin, a.Goarch, r)...)
	}
	return problems
}

// untar unpacks the .tar.gz at path into dir, refusing a name that would
// land outside it.
func untar(path, dir string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return err
		}
		dst := filepath.Join(dir, h.Name)
		if !strings.HasPrefix(dst, filepath.Clean(dir)+string(os.PathSeparator)) {
			return fmt.Errorf("entry %q lands outside the archive's directory", h.Name)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, h.FileInfo().Mode().Perm())
		if err != nil {
			return err
		}
		_, err = io.Copy(out, tr)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
}

// buildInfoProblems reads the binary's build info (go version -m), which a
// binary for any platform carries: cgo off, -trimpath, its platform. With
// -trimpath Go records no -ldflags there, so the version and commit they
// stamped are looked for in the binary itself, outside the build info's
// vcs.revision.
func buildInfoProblems(t *testing.T, name, bin, goos, goarch string, r *release) []string {
	t.Helper()
	out, err := exec.Command("go", "version", "-m", bin).CombinedOutput()
	if err != nil {
		return []string{fmt.Sprintf("%s: go version -m: %v\n%s", name, err, out)}
	}
	var problems []string
	for _, want := range []string{"\tCGO_ENABLED=0\n", "\t-trimpath=true\n", "\tGOOS=" + goos + "\n", "\tGOARCH=" + goarch + "\n"} {
		if !strings.Contains(string(out), want) {
			problems = append(problems, fmt.Sprintf("%s: the binary's build info lacks %q", name, strings.TrimSpace(want)))
		}
	}
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{r.Version, r.Commit} {
		if bytes.Count(b, []byte(s)) <= bytes.Count(b, []byte("vcs.revision="+s)) {
			problems = append(problems, fmt.Sprintf("%s: %s is not stamped into the binary (-ldflags -X)", name, s))
		}
	}
	return problems
}

// qemu runs a binary of each architecture on another (Debian's qemu-user).
var qemu = map[string]string{"amd64": "qemu-x86_64", "arm64": "qemu-aarch64"}

// versionProblems runs the linux binary with --version, through qemu-user
// for an architecture other than this machine's.
func versionProblems(t *testing.T, name, bin, goarch string, r *release) []string {
	t.Helper()
	cmd := exec.Command(bin, "--version")
	if goarch != runtime.GOARCH {
		cmd = exec.Command(testsupport.Tool(t, qemu[goarch], "qemu-user"), bin, "--version")
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return []string{fmt.Sprintf("%s: %s: %v\n%s", name, strings.Join(cmd.Args, " "), err, out)}
	}
	var problems []string
	for _, want := range []string{
		"woox_exporter, version " + r.Version + " ", "revision: " + r.Commit + ")",
		"build user:       goreleaser", "platform:         linux/" + goarch,
	} {
		if !strings.Contains(string(out), want) {
			problems = append(problems, fmt.Sprintf("%s: woox_exporter --version does not say %q:\n%s", name, want, out))
		}
	}
	return problems
}
