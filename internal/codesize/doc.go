// Package codesize holds only a test: it keeps the module's production Go
// code within the size limits of issue 22 (no function over MaxFuncLines
// lines, no file over MaxFileLines lines). Production means every non-test
// .go file under the repository root, the separate deploy/kubernetes/validate
// module included, except testdata and generated files.
package codesize

const (
	// MaxFuncLines is the longest a production function or method may be,
	// counted from its func keyword to its closing brace.
	MaxFuncLines = 80
	// MaxFileLines is the longest a production .go file may be.
	MaxFileLines = 450
)
