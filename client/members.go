package client

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// member is one field of an object read by decodeFields: its name as sent
// (unquoted) and its value, both slices of the object unless the name had
// escapes, and the hash of the name's fieldKey.
type member struct {
	name  []byte
	key   uint64
	value json.RawMessage
}

// maxScanned is the most members an object is searched one by one for a
// name seen before: beyond, an index keeps a huge object linear.
const maxScanned = 32

// addMember adds the member name: v to f; a name of the same fieldKey seen
// before is replaced, keeping its place. Two spellings of one field with
// different values make a disagreeError.
func (f fields) addMember(index map[string]int, name, v []byte) (fields, map[string]int, error) {
	key := keyHash(name)
	i := -1
	if index != nil {
		if j, ok := index[fieldKey(string(name))]; ok {
			i = j
		}
	} else {
		i = indexOf(f, key, name)
	}
	if i < 0 {
		f = append(f, member{name: name, key: key, value: v})
		switch {
		case index != nil:
			index[fieldKey(string(name))] = len(f) - 1
		case len(f) > maxScanned:
			index = make(map[string]int, 2*len(f))
			for j, m := range f {
				index[fieldKey(string(m.name))] = j
			}
		}
		return f, index, nil
	}
	m := &f[i]
	var err error
	// The same name twice: the last one counts, as encoding/json has it.
	if !bytes.Equal(m.name, name) && !bytes.Equal(m.value, v) {
		a, b := string(m.name), string(name)
		if b < a {
			a, b = b, a
		}
		err = &disagreeError{a, b}
	}
	m.name, m.value = name, v
	return f, index, err
}

// get is the value of the field name, in any spelling; nil when absent.
func (f fields) get(name string) json.RawMessage {
	if i := indexOf(f, keyHash(name), name); i >= 0 {
		return f[i].value
	}
	return nil
}

// indexOf is the place in f of the member whose fieldKey is name's (key is
// its hash), -1 when none.
func indexOf[T ~string | ~[]byte](f fields, key uint64, name T) int {
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
