package config

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/woox-exporter/woox_exporter/allowlist"
)

// Fields of one withdrawal allow-list entry; name is fieldName.
const (
	fieldNetwork = "network"
	fieldAddress = "address"
	fieldTag     = "tag"
)

// LoadAllowList reads the withdrawal allow-list in the YAML file at path, a
// list of destinations:
//
//   - network: ETH
//     address: "0x31d64B3230f8baDD91dE1710A65DF536aF8f7cDa"
//     name: cold wallet
//   - network: XRP
//     address: rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh
//     tag: "104"
//
// Each entry needs a network (as the token networks name it) and an
// address; tag (the memo or destination tag) and name are optional. An entry
// for a destination listed before (under the rules of package allowlist: an
// EVM address in another letter case is the same), unknown fields and
// values that are not scalars are refused. An empty file is refused too: an
// empty list is written [].
//
// The file must be a regular file of at most 1 MiB. Every problem found in
// it is reported, one per line, as "file:line: field: what is wrong".
func LoadAllowList(path string) (*allowlist.List, error) {
	f, _, err := openRegularFile(path)
	switch {
	case errors.Is(err, errNotRegular):
		return nil, fmt.Errorf("allow-list %s is not a regular file", path)
	case err != nil:
		return nil, fmt.Errorf("read allow-list: %w", err)
	}
	defer f.Close()
	data, err := readAtMost(f, maxConfigFileSize)
	switch {
	case errors.Is(err, errTooLarge):
		return nil, fmt.Errorf("allow-list %s is larger than %d bytes", path, maxConfigFileSize)
	case err != nil:
		return nil, fmt.Errorf("read allow-list: %w", err)
	}
	l := &fileLoader{path: path, dir: filepath.Dir(path)}
	return l.allowList(data)
}

func (l *fileLoader) allowList(data []byte) (*allowlist.List, error) {
	root, err := l.document(data, "no entries: the file is empty; write [] for a list that allows no withdrawal")
	if err != nil {
		return nil, err
	}
	if root.Kind != yaml.SequenceNode {
		return nil, errors.New(l.where(root.Line, "") + "expected a list of entries (network, address, optional tag and name), got " + kindName(root))
	}
	var entries []allowlist.Entry
	first := map[allowlist.Destination]int{}
	for i, n := range root.Content {
		path := fmt.Sprintf("[%d]", i)
		e, ok := l.allowEntry(resolve(n), path)
		if !ok {
			continue
		}
		d := allowlist.DestinationOf(e.Network, e.Address, e.Tag)
		if line, dup := first[d]; dup {
			l.errorf(e.Line, path, "duplicate entry: the same destination as the entry at line %d", line)
			continue
		}
		first[d] = e.Line
		entries = append(entries, e)
	}
	if len(l.errs) > 0 {
		return nil, l.err()
	}
	return allowlist.New(entries)
}

// allowEntry checks the entry at n; ok is false when it has errors, which
// are recorded.
func (l *fileLoader) allowEntry(n *yaml.Node, path string) (e allowlist.Entry, ok bool) {
	if n.Kind != yaml.MappingNode {
		l.errorf(n.Line, path, "expected an entry (a mapping with network, address and optional tag and name), got %s", kindName(n))
		return e, false
	}
	before := len(l.errs)
	e.Line = n.Line
	l.mapping(n, path, func(key string, k, v *yaml.Node) {
		var dst *string
		switch key {
		case fieldNetwork:
			dst = &e.Network
		case fieldAddress:
			dst = &e.Address
		case fieldTag:
			dst = &e.Tag
		case fieldName:
			dst = &e.Name
		default:
			l.errorf(k.Line, fieldPath(path, key), "unknown field (known fields: %s, %s, %s, %s)", fieldNetwork, fieldAddress, fieldTag, fieldName)
			return
		}
		switch {
		case v.Kind != yaml.ScalarNode:
			l.errorf(v.Line, path+"."+key, "expected a string, got %s", kindName(v))
		case !isNull(v):
			*dst = v.Value
			if err := checkAllowValue(key, v.Value); err != nil {
				l.errorf(v.Line, path+"."+key, "%v", err)
			}
		}
	})
	for _, f := range []struct{ key, value string }{{fieldNetwork, e.Network}, {fieldAddress, e.Address}} {
		if f.value == "" {
			l.errorf(n.Line, path+"."+f.key, "required")
		}
	}
	return e, len(l.errs) == before
}

// checkAllowValue refuses what no exchange sends: a network that is not a
// plain name, an address with a space or control character in it, a tag
// with a control character or a space at either end.
func checkAllowValue(key, value string) error {
	switch key {
	case fieldNetwork:
		if value != "" && !accountNameRE.MatchString(value) {
			return fmt.Errorf("%s must match %s, as the token networks name a network", quote(value), accountNameRE)
		}
	case fieldAddress:
		if strings.IndexFunc(value, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
			return fmt.Errorf("%s holds a space or control character", quote(value))
		}
	case fieldTag, fieldName:
		if strings.IndexFunc(value, unicode.IsControl) >= 0 || strings.TrimSpace(value) != value {
			return fmt.Errorf("%s holds a control character or begins or ends with a space", quote(value))
		}
	}
	return nil
}
