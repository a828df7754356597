package client

import (
	"bytes"
	"unicode/utf8"

	"github.com/valyala/fastjson"
)

// member is one field of an object read by readFields: its name as sent
// (unescaped), the hash of the name's fieldKey, its value and, for a
// string, number, boolean or null, the value's text as sent.
type member struct {
	name  []byte
	key   uint64
	value *fastjson.Value
	text  []byte
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
	m := member{name: name, key: keyHash(name), value: v}
	// An empty array's text is taken too: fastjson tells no type but by
	// Type, which unescapes a string in place.
	if v.GetObject() == nil && v.GetArray() == nil {
		start := len(f.texts)
		f.texts = v.MarshalTo(f.texts)
		m.text = f.texts[start:len(f.texts):len(f.texts)]
	}
	i := -1
	if index != nil {
		if j, ok := index[fieldKey(string(name))]; ok {
			i = j
		}
	} else {
		i = indexOf(f.members, m.key, name)
	}
	if i < 0 {
		f.members = append(f.members, m)
		switch {
		case index != nil:
			index[fieldKey(string(name))] = len(f.members) - 1
		case len(f.members) > maxScanned:
			index = make(map[string]int, 2*len(f.members))
			for j, m := range f.members {
				index[fieldKey(string(m.name))] = j
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
	if i := indexOf(f.members, keyHash(name), name); i >= 0 {
		return &f.members[i]
	}
	return nil
}

// indexOf is the place in f of the member whose fieldKey is name's (key is
// its hash), -1 when none.
func indexOf[T ~string | ~[]byte](f []member, key uint64, name T) int {
	for i := range f {
		if f[i].key == key && sameKey(f[i].name, name) {
			return i
		}
	}
	return -1
}

// keyHash is the FNV-1a hash of fieldKey(name), made without building the
// key for an ASCII name.
func keyHash[T ~string | ~[]byte](name T) uint64 {
	if !isASCII(name) {
		return asciiKeyHash(fieldKey(string(name)))
	}
	return asciiKeyHash(name)
}

// asciiKeyHash hashes name without its underscores, its ASCII letters in
// lower case: for an ASCII name, the hash of its fieldKey.
func asciiKeyHash[T ~string | ~[]byte](name T) uint64 {
	h := uint64(fnvOffset)
	for i := 0; i < len(name); i++ {
		if c := name[i]; c != '_' {
			h = (h ^ uint64(lowerASCII(c))) * fnvPrime
		}
	}
	return h
}

// sameKey reports whether a and b have the same fieldKey, building neither
// key when both are ASCII.
func sameKey[A, B ~string | ~[]byte](a A, b B) bool {
	if !isASCII(a) || !isASCII(b) {
		return fieldKey(string(a)) == fieldKey(string(b))
	}
	i, j := 0, 0
	for {
		for i < len(a) && a[i] == '_' {
			i++
		}
		for j < len(b) && b[j] == '_' {
			j++
		}
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		if lowerASCII(a[i]) != lowerASCII(b[j]) {
			return false
		}
		i, j = i+1, j+1
	}
}

func isASCII[T ~string | ~[]byte](s T) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
