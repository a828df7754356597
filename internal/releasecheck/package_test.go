package releasecheck

import (
	"archive/tar"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// packaged are the files the .deb and the .rpm install, with their modes
// as ls shows them; those the docs tell users to read or edit are among
// them. conf marks a configuration file that an upgrade keeps once edited.
var packaged = []struct {
	path, mode string
	conf       bool
}{
	{path: installBin, mode: "-rwxr-xr-x"},
	{path: "/usr/lib/systemd/system/" + unitName, mode: "-rw-r--r--"},
	{path: "/etc/default/woox_exporter", mode: "-rw-------", conf: true},
	{path: "/etc/woox_exporter/accounts.yml", mode: "-rw-r--r--", conf: true},
	{path: "/etc/woox_exporter/secrets", mode: "drwx------"},
	{path: "/usr/share/woox_exporter/alerts/woox_exporter.rules.yml", mode: "-rw-r--r--"},
	{path: "/usr/share/woox_exporter/dashboards/woox_exporter.json", mode: "-rw-r--r--"},
	{path: "/usr/share/doc/woox_exporter/README.md", mode: "-rw-r--r--"},
	{path: "/usr/share/doc/woox_exporter/CHANGELOG.md", mode: "-rw-r--r--"},
	{path: "/usr/share/doc/woox_exporter/docs/deploying.md", mode: "-rw-r--r--"},
	{path: "/usr/share/doc/woox_exporter/docs/configuration.md", mode: "-rw-r--r--"},
	{path: "/usr/share/doc/woox_exporter/LICENSE", mode: "-rw-r--r--"},
}

// debCopyright is where Debian's policy wants the .deb's copyright file:
// under the package's own name.
const debCopyright = "/usr/share/doc/" + pkg + "/copyright"

// contentProblems compares a package's files (path to mode) and its
// configuration files with packaged.
func contentProblems(name string, modes map[string]string, conffiles []string) []string {
	var problems []string
	var wantConf []string
	for _, p := range packaged {
		if got, ok := modes[p.path]; !ok {
			problems = append(problems, fmt.Sprintf("%s: no %s", name, p.path))
		} else if got != p.mode {
			problems = append(problems, fmt.Sprintf("%s: %s has mode %s, want %s", name, p.path, got, p.mode))
		}
		if p.conf {
			wantConf = append(wantConf, p.path)
		}
	}
	slices.Sort(conffiles)
	slices.Sort(wantConf)
	if !slices.Equal(conffiles, wantConf) {
		problems = append(problems, fmt.Sprintf("%s: configuration files %q, want %q", name, conffiles, wantConf))
	}
	return problems
}

// debContentProblems reads the .deb with dpkg-deb: its files and their
// modes, its conffiles, the unit it installs and its maintainer scripts.
func debContentProblems(t *testing.T, a artifact) []string {
	t.Helper()
	dpkgDeb := testsupport.Tool(t, "dpkg-deb", "dpkg")
	data, err := exec.Command(dpkgDeb, "--fsys-tarfile", a.file()).Output()
	if err != nil {
		return []string{a.Name + ": dpkg-deb --fsys-tarfile: " + err.Error()}
	}
	modes := map[string]string{}
	var unit []byte
	tr := tar.NewReader(bytes.NewReader(data))
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return []string{a.Name + ": " + err.Error()}
		}
		path := strings.TrimSuffix(strings.TrimPrefix(h.Name, "."), "/")
		modes[path] = h.FileInfo().Mode().String()
		if path == "/usr/lib/systemd/system/"+unitName {
			if unit, err = io.ReadAll(tr); err != nil {
				t.Fatal(err)
			}
		}
	}
	conf, err := exec.Command(dpkgDeb, "--info", a.file(), "conffiles").Output()
	if err != nil {
		return []string{a.Name + ": dpkg-deb --info conffiles: " + err.Error()}
	}
	problems := contentProblems(a.Name, modes, strings.Fields(string(conf)))
	if got := modes[debCopyright]; got != "-rw-r--r--" {
		problems = append(problems, fmt.Sprintf("%s: %s has mode %q, want -rw-r--r--", a.Name, debCopyright, got))
	}
	for field, want := range map[string]string{"Package": pkg, "Replaces": oldPackage, "Conflicts": oldPackage, "Provides": oldPackage} {
		if got, err := exec.Command(dpkgDeb, "--field", a.file(), field).Output(); err != nil || strings.TrimSpace(string(got)) != want {
			problems = append(problems, fmt.Sprintf("%s: control field %s is %q (%v), want %s", a.Name, field, strings.TrimSpace(string(got)), err, want))
		}
	}
	if want, err := os.ReadFile(unitFile); err != nil {
		t.Fatal(err)
	} else if !bytes.Equal(unit, want) {
		problems = append(problems, a.Name+": its unit is not deploy/systemd/"+unitName)
	}
	for _, script := range []string{"postinst", "prerm", "postrm"} {
		if err := exec.Command(dpkgDeb, "--info", a.file(), script).Run(); err != nil {
			problems = append(problems, a.Name+": no "+script+" script")
		}
	}
	return problems
}

// rpmContentProblems reads the .rpm with rpm (Debian's rpm package): its
// files and their modes, its configuration files, version and scriptlets.
func rpmContentProblems(t *testing.T, r *release, a artifact) []string {
	t.Helper()
	rpm := testsupport.Tool(t, "rpm", "rpm")
	query := func(args ...string) string {
		out, err := exec.Command(rpm, append(append([]string{"--query", "--package"}, args...), a.file())...).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: rpm -qp %s: %v\n%s", a.Name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	modes := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(query("--queryformat", "[%{FILEMODES:perms} %{FILENAMES}\n]")), "\n") {
		if mode, path, ok := strings.Cut(l, " "); ok {
			modes[path] = mode
		}
	}
	problems := contentProblems(a.Name, modes, strings.Fields(query("--configfiles")))
	if name, obsoletes := query("--queryformat", "%{NAME}"), strings.Fields(query("--obsoletes")); name != pkg || !slices.Equal(obsoletes, []string{oldPackage}) {
		problems = append(problems, fmt.Sprintf("%s: name %s obsoleting %q, want %s obsoleting %s", a.Name, name, obsoletes, pkg, oldPackage))
	}
	// rpm has no "-" in a version: nfpm writes the snapshot's as "~".
	if v, want := query("--queryformat", "%{VERSION}"), strings.ReplaceAll(r.Version, "-", "~"); v != want {
		problems = append(problems, fmt.Sprintf("%s: version %s, want %s", a.Name, v, want))
	}
	scripts := query("--scripts")
	for _, s := range []string{"postinstall scriptlet", "preuninstall scriptlet", "postuninstall scriptlet", "useradd"} {
		if !strings.Contains(scripts, s) {
			problems = append(problems, a.Name+": rpm -qp --scripts shows no "+s)
		}
	}
	return problems
}
