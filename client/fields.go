package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/shopspring/decimal"
)

// fields is a JSON object read by field name without case and underscores,
// so that v3 "pnl24H" and v1 "pnl_24h" are one field. Its members are
// slices of the object: a few dozen are searched faster than a map is built.
type fields []member

// member is one field of an object, its name's keyHash all most comparisons need.
type member struct {
	name  []byte
	key   uint64
	value json.RawMessage
}

// fieldKey is the spelling-free form of a field name.
func fieldKey(name string) string {
	return strings.ToLower(strings.ReplaceAll(name, "_", ""))
}

// maxScanned is the most members searched one by one, beyond which an index is built.
const maxScanned = 32

// readFields reads one object of valid JSON into buf's storage. Two
// spellings of one field with different values are an error: which one the
// exchange meant is unknown.
func readFields(buf fields, raw json.RawMessage) (fields, error) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '{' {
		return nil, fmt.Errorf("expected an object, got %s", truncateForError(string(t)))
	}
	f := buf[:0]
	if f == nil {
		f = make(fields, 0, membersGuess(t))
	}
	var index map[string]int
	var err error
	objectMembers(t, func(name, v []byte) {
		i := -1
		if index != nil {
			if j, ok := index[fieldKey(string(name))]; ok {
				i = j
			}
		} else {
			i = indexOf(f, keyHash(name), name)
		}
		switch {
		case i < 0:
			f = append(f, member{name: name, key: keyHash(name), value: v})
			if index != nil || len(f) > maxScanned {
				index = f.index(index)
			}
		case !bytes.Equal(f[i].name, name) && !bytes.Equal(f[i].value, v) && err == nil:
			a, b := string(f[i].name), string(name)
			err = &disagreeError{min(a, b), max(a, b)}
			fallthrough
		default: // the same name twice: the last one counts, as encoding/json has it
			f[i].name, f[i].value = name, v
		}
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}

// membersGuess is a member per colon of a flat object, few for a nested one.
func membersGuess(obj []byte) int {
	if bytes.ContainsAny(obj[1:], "{[") {
		return 4
	}
	return min(bytes.Count(obj, []byte{':'}), maxScanned)
}

// index adds f's last member to index, or makes index of all of f.
func (f fields) index(index map[string]int) map[string]int {
	if index == nil {
		index = make(map[string]int, 2*len(f))
		for j, m := range f[:len(f)-1] {
			index[fieldKey(string(m.name))] = j
		}
	}
	index[fieldKey(string(f[len(f)-1].name))] = len(f) - 1
	return index
}

// get is the value of the field name, in any spelling; nil when absent.
func (f fields) get(name string) json.RawMessage {
	if i := indexOf(f, keyHash(name), name); i >= 0 {
		return f[i].value
	}
	return nil
}

// indexOf is the place in f of name (key its keyHash), -1 when none.
func indexOf[T ~string | ~[]byte](f fields, key uint64, name T) int {
	for i := range f {
		if f[i].key == key && sameKey(f[i].name, name) {
			return i
		}
	}
	return -1
}

// keyHash is the FNV-1a hash of fieldKey(name), without building it for ASCII.
func keyHash[T ~string | ~[]byte](name T) uint64 {
	h := uint64(fnvOffset)
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c >= utf8.RuneSelf:
			return fnv1a(fnvOffset, fieldKey(string(name)), false)
		case c != '_':
			h = (h ^ uint64(lowerASCII(c))) * fnvPrime
		}
	}
	return h
}

// sameKey reports whether a and b have one fieldKey, building neither for ASCII.
func sameKey[A, B ~string | ~[]byte](a A, b B) bool {
	for i, j := 0, 0; ; i, j = i+1, j+1 {
		for i < len(a) && a[i] == '_' {
			i++
		}
		for j < len(b) && b[j] == '_' {
			j++
		}
		switch {
		case i == len(a) || j == len(b):
			return i == len(a) && j == len(b)
		case a[i] >= utf8.RuneSelf || b[j] >= utf8.RuneSelf:
			return fieldKey(string(a)) == fieldKey(string(b))
		case lowerASCII(a[i]) != lowerASCII(b[j]):
			return false
		}
	}
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// fieldError is what is wrong with one field (see decodeList).
type fieldError struct {
	field string
	err   error
}

func (e *fieldError) Error() string { return e.field + ": " + e.err.Error() }
func (e *fieldError) Unwrap() error { return e.err }

// errMissing is a required field absent, null or "".
var errMissing = errors.New("missing")

// disagreeError is two spellings of one field with different values.
type disagreeError struct{ a, b string }

func (e *disagreeError) Error() string { return fmt.Sprintf("fields %q and %q disagree", e.a, e.b) }

// column is one field of a row as its endpoint declares it: its name, in
// any spelling; whether it is required; and where its value goes, whose
// type says how it is read:
//
//	*string            a JSON string or number, as text
//	*decimal.Decimal   a decimal (see parseDecimal)
//	**decimal.Decimal  a decimal, nil when absent
//	*int64             a time in Unix milliseconds (see ParseTime)
//	*bool              a flag: 0/1 (number or string) or true/false
//	**bool             a flag, nil when absent
//	*[]string          a list of strings, nil when absent; its error quotes no value
//
// Absent, null and "" are all absent.
type column struct {
	name     string
	required bool
	dst      any
}

// need is a column the row cannot do without, may one it can.
func need(name string, dst any) column { return column{name, true, dst} }
func may(name string, dst any) column  { return column{name, false, dst} }

// read reads cols in order up to an error, a fieldError. A row's optional
// decimals are allocated together: they last as long as the row.
func (f fields) read(cols ...column) error {
	n := 0
	for _, c := range cols {
		if _, ok := c.dst.(**decimal.Decimal); ok {
			n++
		}
	}
	decimals := make([]decimal.Decimal, 0, n)
	for _, c := range cols {
		if err := f.readColumn(c, &decimals); err != nil {
			// A copy: the column's name would take every destination to the heap.
			return &fieldError{strings.Clone(c.name), err}
		}
	}
	return nil
}

func (f fields) readColumn(c column, decimals *[]decimal.Decimal) (err error) {
	raw := f.get(c.name)
	if dst, ok := c.dst.(*[]string); ok {
		if isNull(raw) {
			return nil
		}
		var list []string // not dst, which would then escape with every column's
		if err := json.Unmarshal(raw, &list); err != nil {
			return errors.New("not a list of strings")
		}
		*dst = list
		return nil
	}
	text, present, err := fieldBytes(raw)
	switch {
	case err != nil:
		return err
	case !present && c.required:
		return errMissing
	case !present:
		return nil
	}
	switch dst := c.dst.(type) {
	case *string:
		*dst = string(text)
	case *decimal.Decimal:
		*dst, err = parseDecimalBytes(text)
	case **decimal.Decimal:
		var d decimal.Decimal
		if d, err = parseDecimalBytes(text); err == nil {
			*decimals = append(*decimals, d)
			*dst = &(*decimals)[len(*decimals)-1]
		}
	case *int64:
		*dst, err = parseTimeBytes(text)
	case *bool:
		*dst, err = parseFlag(string(text))
	case **bool:
		var on bool
		if on, err = parseFlag(string(text)); err == nil {
			*dst = &on
		}
	default:
		panic("a column of no kind the reader knows")
	}
	return err
}

// parseFlag reads a flag sent as 0/1 (number or string) or true/false.
func parseFlag(s string) (bool, error) {
	switch strings.ToLower(s) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	d, err := decimal.Decimal{}, errors.New("too long")
	if len(s) <= maxNumberText {
		d, err = decimal.NewFromString(s)
	}
	if err != nil {
		return false, fmt.Errorf("invalid flag %q", truncateForError(s))
	}
	return !d.IsZero(), nil
}
