package config

import (
	"bytes"
	"sort"

	"go.yaml.in/yaml/v3"
)

// syntaxErrorLine is the line of a YAML syntax error in data. yaml.v3 names
// where the enclosing block or flow began, which can be many lines before
// the mistake (an account's indentation slip is reported at "accounts:");
// the mistake is on the last line of the shortest prefix of the file that
// does not parse. A prefix of a block-style file parses as long as the
// lines before it do, so the search is a binary one; a quoted or flow value
// over several lines before the mistake can make it name that value's
// first line instead, never a line before reported.
func syntaxErrorLine(data []byte, reported int) int {
	lines := bytes.SplitAfter(data, []byte("\n"))
	first := sort.Search(len(lines), func(i int) bool {
		var n yaml.Node
		return yaml.Unmarshal(bytes.Join(lines[:i+1], nil), &n) != nil
	})
	if first == len(lines) {
		return reported
	}
	return max(first+1, reported)
}
