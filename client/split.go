package client

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// An answer's rows are read as slices of it: encoding/json would copy every
// byte once per level. These walk JSON json.Valid accepted: no errors.

// objectMembers calls fn with each member of the valid JSON object b, in
// order: its key unquoted (see unquoteKey), and its value as a slice of b.
func objectMembers(b []byte, fn func(key, value []byte)) {
	i := skipSpace(b, 1)
	for i < len(b) && b[i] != '}' {
		kEnd := i + stringEnd(b[i:])
		key := unquoteKey(b[i:kEnd])
		i = skipSpace(b, skipSpace(b, kEnd)+1) // past ':'
		vEnd := i + valueEnd(b[i:])
		fn(key, b[i:vEnd])
		i = skipSpace(b, vEnd)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
		}
	}
}

// arrayElements returns the elements of the valid JSON array b as slices of b.
func arrayElements(b []byte) []json.RawMessage {
	var out []json.RawMessage
	i := skipSpace(b, 1)
	for i < len(b) && b[i] != ']' {
		end := i + valueEnd(b[i:])
		out = append(out, b[i:end:end])
		i = skipSpace(b, end)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
		}
	}
	return out
}

// valueEnd is the length of the valid JSON value at the start of b.
func valueEnd(b []byte) int {
	switch b[0] {
	case '"':
		return stringEnd(b)
	case '{', '[':
		depth := 0
		for i := 0; i < len(b); i++ {
			switch b[i] {
			case '"':
				i += stringEnd(b[i:]) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return len(b)
	}
	for i, c := range b {
		switch c {
		case ',', ']', '}', ' ', '\t', '\r', '\n':
			return i
		}
	}
	return len(b)
}

// stringEnd is the length of the JSON string at the start of b.
func stringEnd(b []byte) int {
	for i := 1; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// unquoteKey reads a quoted key as encoding/json does, a plain one as a slice of q.
func unquoteKey(q []byte) []byte {
	inner := q[1 : len(q)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return inner
	}
	var s string
	_ = json.Unmarshal(q, &s) // q is a valid JSON string
	return []byte(s)
}

// exactMembers reads the valid JSON object obj as json.Unmarshal reads it
// into a struct of names: values[i] is names[i]'s, a slice of obj, nil when
// absent. ok is false when a name comes twice or in another case: the
// caller then asks json.Unmarshal.
func exactMembers(obj []byte, names []string, values [][]byte) (ok bool) {
	ok = obj[0] == '{'
	if !ok {
		return false
	}
	objectMembers(obj, func(name, v []byte) {
		for i, n := range names {
			if string(name) == n {
				ok = ok && values[i] == nil
				values[i] = v
				return
			}
		}
		for _, n := range names {
			ok = ok && !strings.EqualFold(string(name), n)
		}
	})
	return ok
}
