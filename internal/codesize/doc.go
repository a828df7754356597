// Package codesize holds only tests: they keep the module's production Go
// code within its size limits (no function over MaxFuncLines lines, no file
// over MaxFileLines lines) and the repository in its shape: the root package
// at most MaxRootFiles files, scripts/ at most MaxScriptLines lines of bash,
// docs/development.md's layout table naming every directory of Go code, and
// its list of the files an endpoint adds naming every file the last endpoint
// of the table touches (each endpoint with its client, collector and fake
// file).
// Production means every non-test .go file under the repository root, the
// separate deploy/kubernetes/validate module included, except testdata and
// generated files.
package codesize

const (
	// MaxFuncLines is the longest a production function or method may be,
	// counted from its func keyword to its closing brace.
	MaxFuncLines = 80
	// MaxFileLines is the longest a production .go file may be.
	MaxFileLines = 450
)
