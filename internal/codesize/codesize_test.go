package codesize

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// repoRoot is the module root, two levels above this package.
const repoRoot = "../.."

// productionFiles lists every non-test, non-generated .go file under root,
// skipping testdata and hidden or underscore directories as the go tool does.
func productionFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "vendor" ||
				strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walking %s: %v", root, err)
	}
	return files
}

func TestProductionCodeSize(t *testing.T) {
	files := productionFiles(t, repoRoot)
	if len(files) == 0 {
		t.Fatalf("no production .go files found under %s", repoRoot)
	}
	fset := token.NewFileSet()
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
		if err != nil {
			t.Errorf("parsing %s: %v", path, err)
			continue
		}
		if ast.IsGenerated(f) {
			continue
		}
		rel, _ := filepath.Rel(repoRoot, path)
		if n := fset.File(f.Pos()).LineCount(); n > MaxFileLines {
			t.Errorf("%s: file has %d lines, limit %d", rel, n, MaxFileLines)
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1
			if n > MaxFuncLines {
				t.Errorf("%s:%d: %s has %d lines, limit %d",
					rel, fset.Position(fd.Pos()).Line, funcName(fd), n, MaxFuncLines)
			}
		}
	}
}

// funcName names fd as Recv.Name for methods and Name for functions.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	typ := fd.Recv.List[0].Type
	if star, ok := typ.(*ast.StarExpr); ok {
		typ = star.X
	}
	switch x := typ.(type) {
	case *ast.IndexExpr:
		typ = x.X
	case *ast.IndexListExpr:
		typ = x.X
	}
	if id, ok := typ.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}
