package releasecheck

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

const (
	goreleaserFile = repoRoot + "/.goreleaser.yaml"
	// oldPackage is the packages' name before Debian's policy renamed them:
	// the new ones replace it.
	oldPackage = "woox_exporter"
)

// debianPackageName is what Debian's policy allows as a package name:
// lower case letters, digits, "+", "-" and ".", starting with a letter or
// digit, at least two characters.
var debianPackageName = regexp.MustCompile(`^[a-z0-9][a-z0-9+.-]+$`)

// nfpmConfig is the part of .goreleaser.yaml's nfpms entry this test reads.
type nfpmConfig struct {
	PackageName string `yaml:"package_name"`
	License     string `yaml:"license"`
	Contents    []struct {
		Src      string `yaml:"src"`
		Dst      string `yaml:"dst"`
		Packager string `yaml:"packager"`
	} `yaml:"contents"`
	Overrides map[string]struct {
		Replaces  []string `yaml:"replaces"`
		Conflicts []string `yaml:"conflicts"`
		Provides  []string `yaml:"provides"`
	} `yaml:"overrides"`
}

// packagingProblems holds the GoReleaser configuration at path, whose
// files are relative to root: the packages' name is one Debian allows and
// the one the install check and the docs use, it replaces the old name, and
// the license goes into every archive and package, the .deb's copyright
// file where Debian's policy wants it.
func packagingProblems(t *testing.T, path, root string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Archives []struct {
			Files []string `yaml:"files"`
		} `yaml:"archives"`
		Nfpms []nfpmConfig `yaml:"nfpms"`
	}
	if err := yaml.Unmarshal(b, &c); err != nil || len(c.Nfpms) != 1 || len(c.Archives) != 1 {
		t.Fatalf("%s: want one archive and one nfpms entry (%v)", path, err)
	}
	n := c.Nfpms[0]
	var problems []string
	if !debianPackageName.MatchString(n.PackageName) || n.PackageName != pkg {
		problems = append(problems, "package_name "+n.PackageName+": want "+pkg+", a name Debian's policy allows (no _)")
	}
	deb, rpm := n.Overrides["deb"], n.Overrides["rpm"]
	for what, names := range map[string][]string{"deb replaces": deb.Replaces, "deb conflicts": deb.Conflicts,
		"deb provides": deb.Provides, "rpm replaces (Obsoletes)": rpm.Replaces} {
		if !slices.Equal(names, []string{oldPackage}) {
			problems = append(problems, "overrides: "+what+" is "+strings.Join(names, ",")+", want "+oldPackage)
		}
	}
	if n.License != "Apache-2.0" {
		problems = append(problems, "nfpms license "+n.License+", want Apache-2.0")
	}
	var license, copyright bool
	for _, f := range n.Contents {
		license = license || f.Src == "LICENSE"
		if f.Dst == debCopyright && f.Packager == "deb" {
			copyright = true
			if text, err := os.ReadFile(filepath.Join(root, f.Src)); err != nil || !strings.Contains(string(text), "\nLicense: Apache-2.0\n") {
				problems = append(problems, f.Src+" is not a copyright file of the Apache-2.0 license ("+errString(err)+")")
			}
		}
	}
	if !license {
		problems = append(problems, "the packages do not install LICENSE")
	}
	if !copyright {
		problems = append(problems, "the .deb installs no "+debCopyright)
	}
	if !slices.ContainsFunc(c.Archives[0].Files, func(glob string) bool { ok, _ := filepath.Match(glob, "LICENSE"); return ok }) {
		problems = append(problems, "the archives do not hold LICENSE")
	}
	if text, err := os.ReadFile(filepath.Join(root, "LICENSE")); err != nil || !strings.Contains(string(text), "Apache License\n                           Version 2.0, January 2004") {
		problems = append(problems, "LICENSE is not the Apache License 2.0 ("+errString(err)+")")
	}
	return problems
}

// packageCommand is a command or file name in the docs that names the
// package: dpkg -r NAME, rpm -e NAME, NAME_*_amd64.deb, NAME-*.x86_64.rpm.
var packageCommand = regexp.MustCompile(`(?:dpkg (?:-r|--remove|-P|--purge)|rpm -e) ([a-z0-9_.+-]+)|([a-z0-9_.+-]+)_(?:\*|VERSION)_(?:amd64|arm64)\.deb|([a-z0-9_.+-]+)-(?:\*|VERSION-1)\.(?:x86_64|aarch64)\.rpm`)

// docsPackageProblems: every package name the docs at paths use is pkg.
func docsPackageProblems(t *testing.T, paths ...string) []string {
	t.Helper()
	var problems []string
	found := 0
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(string(b)), " ")
		for _, m := range packageCommand.FindAllStringSubmatch(text, -1) {
			found++
			if name := m[1] + m[2] + m[3]; name != pkg {
				problems = append(problems, p+": "+m[0]+" names the package "+name+", want "+pkg)
			}
		}
	}
	if found == 0 {
		problems = append(problems, "the docs never name the package")
	}
	return problems
}

func TestPackagesAreNamedAsDebianAllowsAndCarryTheLicense(t *testing.T) {
	for _, p := range packagingProblems(t, goreleaserFile, repoRoot) {
		t.Error(p)
	}
	for _, p := range docsPackageProblems(t, deployDoc, repoRoot+"/docs/development.md") {
		t.Error(p)
	}

	// Broken copies: the old name, no license, and docs that still use the
	// old name.
	b, err := os.ReadFile(goreleaserFile)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	broken := filepath.Join(dir, "goreleaser.yaml")
	old := strings.NewReplacer("package_name: "+pkg, "package_name: "+oldPackage, "license: Apache-2.0", "",
		"src: LICENSE", "src: README.md").Replace(string(b))
	if err := os.WriteFile(broken, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := len(packagingProblems(t, broken, repoRoot)); got < 3 {
		t.Errorf("a configuration with the old name and no license shows %d problems, want 3 or more", got)
	}
	if got := packagingProblems(t, goreleaserFile, dir); len(got) != 2 {
		t.Errorf("without LICENSE and the copyright file: %q, want 2 problems", got)
	}
	doc := filepath.Join(dir, "deploying.md")
	if err := os.WriteFile(doc, []byte("dpkg -i woox_exporter_*_amd64.deb\nthen `dpkg -r woox_exporter`\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := len(docsPackageProblems(t, doc)); got != 2 {
		t.Errorf("docs with the old name show %d problems, want 2", got)
	}
}
