package releasecheck

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

const (
	// repoRoot is the module root, two levels above this package.
	repoRoot   = "../.."
	unitFile   = repoRoot + "/deploy/systemd/woox_exporter.service"
	deployDoc  = repoRoot + "/docs/deploying.md"
	unitName   = "woox_exporter.service"
	installBin = "/usr/bin/woox_exporter"
)

// unitSettings reads the [Service] section of the unit at path: each key's
// values in order (SystemCallFilter= is given twice).
func unitSettings(t *testing.T, path string) map[string][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	settings := map[string][]string{}
	section := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";"):
		case strings.HasPrefix(line, "["):
			section = line
		case section == "[Service]":
			if k, v, ok := strings.Cut(line, "="); ok {
				settings[k] = append(settings[k], v)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return settings
}

// setting is the last value of key in the unit's [Service] section, as
// systemd reads a key given more than once, or "" without one.
func setting(settings map[string][]string, key string) string {
	if v := settings[key]; len(v) > 0 {
		return v[len(v)-1]
	}
	return ""
}

// unitCopy writes the unit at path into a new directory under the name
// systemd would load it by, with edit applied, and returns its path.
// systemd-analyze verify also checks that ExecStart's binary exists, which
// only the package installs: the copy starts /bin/true in its place.
func unitCopy(t *testing.T, path string, edit func(string) string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(b), "ExecStart="+installBin+" ", "ExecStart=/bin/true ")
	out := filepath.Join(t.TempDir(), unitName)
	if err := os.WriteFile(out, []byte(edit(text)), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// verifyProblems runs systemd-analyze verify on the unit at path. It exits
// 0 on an unknown key or a value it cannot parse, only saying so: any line
// it prints is a problem.
func verifyProblems(t *testing.T, path string) []string {
	t.Helper()
	analyze := testsupport.Tool(t, "systemd-analyze", "systemd")
	out, err := exec.Command(analyze, "verify", path).CombinedOutput()
	var problems []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if l != "" {
			problems = append(problems, "systemd-analyze verify: "+l)
		}
	}
	if err != nil {
		problems = append(problems, "systemd-analyze verify "+path+": "+err.Error())
	}
	return problems
}

func TestUnitVerifies(t *testing.T) {
	for _, p := range verifyProblems(t, unitCopy(t, unitFile, keep)) {
		t.Error(p)
	}
	broken := unitCopy(t, unitFile, func(s string) string { return strings.Replace(s, "ProtectSystem=", "ProtectSytem=", 1) })
	if ps := verifyProblems(t, broken); !containsLine(ps, "ProtectSytem") {
		t.Errorf("a unit with a misspelt key: want a problem naming it, got %q", ps)
	}
}

func keep(s string) string { return s }

func containsLine(lines []string, sub string) bool {
	for _, l := range lines {
		if strings.Contains(l, sub) {
			return true
		}
	}
	return false
}

// spaces are runs of blanks: systemd-analyze pads its columns to the
// longest entry, so a quote is compared with them collapsed.
var spaces = regexp.MustCompile(`\s+`)

// exposureProblems runs systemd-analyze security on the unit at path and
// names each line of its summary and of its exposed settings (✗) that
// docs/deploying.md does not quote, and an overall level other than OK.
func exposureProblems(t *testing.T, path, doc string) []string {
	t.Helper()
	analyze := testsupport.Tool(t, "systemd-analyze", "systemd")
	out, err := exec.Command(analyze, "security", "--offline=yes", "--no-pager", path).CombinedOutput()
	if err != nil {
		return []string{"systemd-analyze security: " + err.Error() + "\n" + string(out)}
	}
	b, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	quoted := spaces.ReplaceAllString(string(b), " ")
	var problems []string
	overall := false
	for _, l := range strings.Split(string(out), "\n") {
		l = strings.TrimSpace(spaces.ReplaceAllString(l, " "))
		if strings.HasPrefix(l, "→ Overall exposure level") {
			overall = true
			if !strings.Contains(l, " OK ") {
				problems = append(problems, "the unit's exposure is above systemd's OK level: "+l)
			}
		} else if !strings.HasPrefix(l, "✗") {
			continue
		}
		if !strings.Contains(quoted, l) {
			problems = append(problems, doc+" does not quote this line of `systemd-analyze security --offline=yes`: "+l)
		}
	}
	if !overall {
		problems = append(problems, "systemd-analyze security printed no overall exposure:\n"+string(out))
	}
	return problems
}

func TestUnitExposureIsTheOneDocumented(t *testing.T) {
	for _, p := range exposureProblems(t, unitCopy(t, unitFile, keep), deployDoc) {
		t.Error(p)
	}
	looser := unitCopy(t, unitFile, func(s string) string { return strings.Replace(s, "ProtectSystem=strict\n", "", 1) })
	if ps := exposureProblems(t, looser, deployDoc); !containsLine(ps, "ProtectSystem=") {
		t.Errorf("a unit without ProtectSystem=: want a problem naming it, got %q", ps)
	}
}
