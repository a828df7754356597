package codesize

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

const (
	// MaxRootFiles is the most .go files (tests included) the root package
	// may hold: the command's steps, flags, wiring, logging and build info.
	// The rest of the exporter is in packages with one job each.
	MaxRootFiles = 6
	// MaxScriptLines is the most lines of bash scripts/ may hold: checks are
	// Go tests, and bash only writes generated files and runs long
	// measurements.
	MaxScriptLines = 400
	developmentDoc = repoRoot + "/docs/development.md"
)

func TestRootPackageHoldsOnlyTheCommand(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(repoRoot, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) > MaxRootFiles {
		for i := range files {
			files[i] = filepath.Base(files[i])
		}
		t.Errorf("the root package holds %d .go files, limit %d: %s; move what is not main, options, wiring, logging or build info into a package", len(files), MaxRootFiles, strings.Join(files, ", "))
	}
}

func TestScriptsStayShort(t *testing.T) {
	scripts, err := filepath.Glob(filepath.Join(repoRoot, "scripts", "*.sh"))
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, s := range scripts {
		b, err := os.ReadFile(s)
		if err != nil {
			t.Fatal(err)
		}
		total += strings.Count(string(b), "\n")
	}
	if total > MaxScriptLines {
		t.Errorf("scripts/*.sh hold %d lines of bash, limit %d: write the check as a Go test", total, MaxScriptLines)
	}
}

// layoutPath is a path in backquotes in the first cell of a table row.
var layoutPath = regexp.MustCompile("`([a-z0-9_./-]+)`")

// TestDevelopmentLayoutNamesEveryPackage holds the layout table of
// docs/development.md to the tree: every directory holding Go code is named
// there (itself, or a directory above it), and every path named exists.
func TestDevelopmentLayoutNamesEveryPackage(t *testing.T) {
	named := layoutPaths(t)
	for _, p := range named {
		if _, err := os.Stat(filepath.Join(repoRoot, p)); err != nil {
			t.Errorf("docs/development.md's layout names %s, which does not exist", p)
		}
	}
	for _, dir := range goDirs(t) {
		found := false
		for _, p := range named {
			if strings.HasSuffix(p, "/") && strings.HasPrefix(dir+"/", p) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("docs/development.md's layout table does not name %s/: add a row saying what it is for", dir)
		}
	}
}

// layoutPaths are the paths in the first cell of each row of the first
// table of docs/development.md.
func layoutPaths(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(developmentDoc)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var paths []string
	inTable := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "|") {
			if inTable {
				break
			}
			continue
		}
		inTable = true
		cells := strings.Split(line, "|")
		if len(cells) < 3 {
			continue
		}
		for _, m := range layoutPath.FindAllStringSubmatch(cells[1], -1) {
			paths = append(paths, m[1])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("docs/development.md has no layout table")
	}
	return paths
}

// goDirs are the directories below the root holding .go files, relative to
// the root, skipping testdata and hidden directories as the go tool does.
func goDirs(t *testing.T) []string {
	t.Helper()
	seen := map[string]bool{}
	for _, f := range goFiles(t) {
		if dir := filepath.Dir(f); dir != "." {
			seen[filepath.ToSlash(dir)] = true
		}
	}
	dirs := make([]string, 0, len(seen))
	for d := range seen {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	return dirs
}

func goFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != repoRoot && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") {
			rel, err := filepath.Rel(repoRoot, path)
			if err != nil {
				return err
			}
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
