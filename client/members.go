package client

import (
	"bytes"
	"unicode/utf8"

	"github.com/valyala/fastjson"
)

// member is one field of an object read by readFields: its name as sent
// (unescaped), the name's fieldKey, its value and, for a string, number,
// boolean or null, the value's text as sent.
type member struct {
	name, key []byte
	value     *fastjson.Value
	text      []byte
}

// maxScanned is the most members an object is searched one by one for a
// name seen before: beyond, an index keeps a huge object linear.
const maxScanned = 32

// add adds the member name: v to f; a name of the same fieldKey seen
// before is replaced, keeping its place. Two spellings of one field with
// different values make a disagreeError.
func (f *fields) add(index map[string]int, name []byte, v *fastjson.Value) (map[string]int, error) {
	if !utf8.Valid(name) {
		name = []byte(string([]rune(string(name)))) // as encoding/json reads it
	}
	start := len(f.texts)
	f.texts = appendKey(f.texts, name)
	m := member{name: name, key: f.texts[start:len(f.texts):len(f.texts)], value: v}
	// An empty array's text is taken too: fastjson tells no type but by
	// Type, which unescapes a string in place.
	if v.GetObject() == nil && v.GetArray() == nil {
		start = len(f.texts)
		f.texts = v.MarshalTo(f.texts)
		m.text = f.texts[start:len(f.texts):len(f.texts)]
	}
	i, found := index[string(m.key)]
	if index == nil {
		i = indexOf(f.members, m.key)
		found = i >= 0
	}
	if !found {
		f.members = append(f.members, m)
		switch {
		case index != nil:
			index[string(m.key)] = len(f.members) - 1
		case len(f.members) > maxScanned:
			index = make(map[string]int, 2*len(f.members))
			for j, m := range f.members {
				index[string(m.key)] = j
			}
		}
		return index, nil
	}
	old := &f.members[i]
	var err error
	// The same name twice: the last one counts, as encoding/json has it.
	if !bytes.Equal(old.name, name) && !bytes.Equal(old.raw(), m.raw()) {
		a, b := string(old.name), string(name)
		if b < a {
			a, b = b, a
		}
		err = &disagreeError{a, b}
	}
	*old = m
	return index, err
}

// raw is the member's value as sent, without the spaces between its
// tokens.
func (m *member) raw() []byte {
	if m.text != nil {
		return m.text
	}
	return m.value.MarshalTo(nil)
}

// get is the field name, in any spelling; nil when absent.
func (f fields) get(name string) *member {
	var buf [64]byte
	if i := indexOf(f.members, appendKey(buf[:0], name)); i >= 0 {
		return &f.members[i]
	}
	return nil
}

// indexOf is the place in f of the member of fieldKey key, -1 when none.
func indexOf(f []member, key []byte) int {
	for i := range f {
		if bytes.Equal(f[i].key, key) {
			return i
		}
	}
	return -1
}

// appendKey appends name's fieldKey to dst, without building a string for
// an ASCII name.
func appendKey[T ~string | ~[]byte](dst []byte, name T) []byte {
	for i := 0; i < len(name); i++ {
		if name[i] >= utf8.RuneSelf {
			return append(dst, fieldKey(string(name))...)
		}
	}
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c == '_':
		case 'A' <= c && c <= 'Z':
			dst = append(dst, c+'a'-'A')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
