package codesize

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// addingAnEndpoint is the files docs/development.md's "Adding an endpoint"
// names, NAME standing for the endpoint's name: the first cell of each row
// of its tables.
func addingAnEndpoint(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot, "docs", "development.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start, end := strings.Index(doc, "\n## Adding an endpoint\n"), strings.Index(doc, "\n## Checks\n")
	if start < 0 || end < start {
		t.Fatal(`docs/development.md has no "Adding an endpoint" section before "Checks"`)
	}
	var files []string
	for _, line := range strings.Split(doc[start:end], "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cell, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " | ")
		for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(cell, -1) {
			files = append(files, m[1])
		}
	}
	if len(files) < 10 {
		t.Fatalf("read %d files from the list: is the pattern still right? %v", len(files), files)
	}
	return files
}

// endpointIdents are the Go names of the endpoint table's name constants,
// by the name they hold (token_config: TokenConfig).
func endpointIdents(t *testing.T) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(repoRoot, "endpoint", "table.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		if v, ok := n.(*ast.ValueSpec); ok && len(v.Values) == len(v.Names) {
			for i, name := range v.Names {
				if lit, ok := v.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					s, _ := strconv.Unquote(lit.Value)
					out[s] = name.Name
				}
			}
		}
		return true
	})
	return out
}

// TestAddingAnEndpointTouchesOnlyTheListedFiles holds the list of "Adding
// an endpoint" to the last endpoint of the table, the last added: every
// file the list names exists for it, and every file of the repository that
// mentions it (its name, its flags' stem or its Go name) is one the list
// names. A new endpoint that needs an edit elsewhere (a test that lists
// rows of every endpoint by hand, the fake's server, the reload's handoff,
// the e2e interval flags, the dashboard's $account check, as some once
// did) fails here until that place follows the table, or the list names
// it. Every endpoint of the table has its client, collector and fake file
// as the list names them, the collector's registering it and the fake's
// adding its route.
func TestAddingAnEndpointTouchesOnlyTheListedFiles(t *testing.T) {
	list := addingAnEndpoint(t)
	idents := endpointIdents(t)
	last := endpoint.All[len(endpoint.All)-1]
	named := func(pattern string) string { return strings.ReplaceAll(pattern, "NAME", last.Name) }
	for _, pattern := range list {
		if m, _ := filepath.Glob(filepath.Join(repoRoot, named(pattern))); len(m) == 0 {
			t.Errorf("the list names %s, which %s has none of", pattern, last.Name)
		}
	}
	mentions := [][]byte{[]byte(last.Name), []byte(strings.ReplaceAll(last.Name, "_", "-")), []byte(idents[last.Name])}
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(repoRoot, path)
		if d.IsDir() {
			// Fuzz findings hold any bytes; hidden and build directories
			// are not the repository's.
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "dist" || filepath.ToSlash(rel) == "client/testdata/fuzz" ||
				strings.HasSuffix(filepath.ToSlash(rel), "testdata/fuzz")) {
				return filepath.SkipDir
			}
			return nil
		}
		// The list itself names the last endpoint, as its example.
		if !d.Type().IsRegular() || filepath.ToSlash(rel) == "docs/development.md" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil || bytes.IndexByte(b, 0) >= 0 {
			return err
		}
		for _, m := range mentions {
			if !bytes.Contains(b, m) {
				continue
			}
			listed := false
			for _, pattern := range list {
				if ok, _ := filepath.Match(named(pattern), filepath.ToSlash(rel)); ok {
					listed = true
				}
			}
			if !listed {
				t.Errorf("%s mentions %s (%q) but is not in docs/development.md's list of an endpoint's files: make it follow the endpoint table, or name it there", rel, last.Name, m)
			}
			break
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, ep := range endpoint.All {
		ident := idents[ep.Name]
		for pattern, want := range map[string]string{
			"client/NAME.go":                "endpoint." + ident,
			"collector/NAME.go":             "register(endpoint." + ident + ",",
			"internal/fakeexchange/NAME.go": "addRoute(endpoint." + ident + ",",
		} {
			path := strings.ReplaceAll(pattern, "NAME", ep.Name)
			b, err := os.ReadFile(filepath.Join(repoRoot, path))
			if err != nil || !bytes.Contains(b, []byte(want)) {
				t.Errorf("%s: %s does not hold %s (%v)", ep.Name, path, want, err)
			}
		}
	}
}
