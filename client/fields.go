package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
)

// fields is a JSON object read by field name whatever its spelling: keys are
// compared without case and underscores, so the v3 camelCase
// ("marginRatio", "pnl24H") and the v1 snake_case ("margin_ratio",
// "pnl_24h") of one field are the same field. The account health endpoints
// are read this way; their shapes are known only from public clients. Its
// members are slices of the object read: a few dozen members are searched
// faster than a map is built.
type fields []member

// fieldKey is the spelling-free form of a field name.
func fieldKey(name string) string {
	return strings.ToLower(strings.ReplaceAll(name, "_", ""))
}

// decodeFields reads one JSON object. Two spellings of one field with
// different values are an error: which one the exchange meant is unknown.
func decodeFields(raw json.RawMessage) (fields, error) {
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '{' && !json.Valid(raw) {
		var m map[string]json.RawMessage
		return nil, json.Unmarshal(raw, &m)
	}
	return readFields(nil, raw)
}

// readFields is decodeFields of raw already known to be valid JSON (data
// checkData passed, or a part of it), which is not checked again:
// objectMembers walks it unchecked. The fields are made in buf's storage,
// for a caller that reads many objects one after the other.
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
		var merr error
		f, index, merr = f.addMember(index, name, v)
		if err == nil {
			err = merr
		}
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}

// membersGuess is how many members to make room for in the object obj: a
// flat object has a member per colon; one with objects or arrays inside
// (the data beside its rows) has few, and grows as it must.
func membersGuess(obj []byte) int {
	if bytes.ContainsAny(obj[1:], "{[") {
		return 4
	}
	return min(bytes.Count(obj, []byte{':'}), maxScanned)
}

// fieldError is what is wrong with one field: a row that has one is left
// out naming the field (see decodeList).
type fieldError struct {
	field string
	err   error
}

func (e *fieldError) Error() string { return e.field + ": " + e.err.Error() }
func (e *fieldError) Unwrap() error { return e.err }

// fieldErr is a fieldError of field, its message made as fmt.Errorf does.
func fieldErr(field, format string, args ...any) error {
	return &fieldError{field: field, err: fmt.Errorf(format, args...)}
}

// errMissing is a field the row cannot do without that is absent, null or
// "".
var errMissing = errors.New("missing")

// disagreeError is two spellings of one field with different values.
type disagreeError struct{ a, b string }

func (e *disagreeError) Error() string { return fmt.Sprintf("fields %q and %q disagree", e.a, e.b) }

// text returns a string or number field as text; absent, null and "" are
// not present.
func (f fields) text(name string) (string, bool, error) {
	b, present, err := f.textBytes(name)
	if !present {
		return "", false, err
	}
	return string(b), true, nil
}

// textBytes is text as a slice of the object where it can be, for text
// that is read, not kept.
func (f fields) textBytes(name string) ([]byte, bool, error) {
	b, present, err := fieldBytes(f.get(name))
	if err != nil {
		return nil, false, &fieldError{name, err}
	}
	return b, present, nil
}

// requiredText is text for a field the row cannot do without.
func (f fields) requiredText(name string) (string, error) {
	s, present, err := f.text(name)
	if err == nil && !present {
		err = &fieldError{name, errMissing}
	}
	return s, err
}

// firstText is text of the first of several names for one field that is
// present (the v1 and v3 names differ for some fields).
func (f fields) firstText(names ...string) (string, bool, error) {
	for _, n := range names {
		if s, present, err := f.text(n); err != nil || present {
			return s, present, err
		}
	}
	return "", false, nil
}

// decimal returns an exact decimal field; nil when absent, null or "".
func (f fields) decimal(name string) (*decimal.Decimal, error) {
	d, present, err := f.decimalValue(name)
	if err != nil || !present {
		return nil, err
	}
	return &d, nil
}

// decimalValue is decimal as a value; present is false when absent, null
// or "".
func (f fields) decimalValue(name string) (decimal.Decimal, bool, error) {
	b, present, err := f.textBytes(name)
	if err != nil || !present {
		return decimal.Decimal{}, false, err
	}
	d, err := parseDecimalBytes(b)
	if err != nil {
		return decimal.Decimal{}, false, &fieldError{name, err}
	}
	return d, true, nil
}

// decimalField is a decimal field of a row and where decimals puts it.
type decimalField struct {
	name string
	dst  **decimal.Decimal
}

// decimals reads each field of ds as decimal does, in order, and stops at
// the first error. The row's decimals are allocated together: they live
// as long as the row.
func (f fields) decimals(ds []decimalField) error {
	vals := make([]decimal.Decimal, len(ds))
	for i, d := range ds {
		v, present, err := f.decimalValue(d.name)
		*d.dst = nil
		if err != nil {
			return err
		}
		if present {
			vals[i] = v
			*d.dst = &vals[i]
		}
	}
	return nil
}

// requiredDecimal is decimal for a field the row cannot do without.
func (f fields) requiredDecimal(name string) (decimal.Decimal, error) {
	d, present, err := f.decimalValue(name)
	if err == nil && !present {
		err = &fieldError{name, errMissing}
	}
	return d, err
}

// requiredFlag reads a flag sent as 0/1 (number or string) or true/false;
// absent, null and "" are an error: a flag nobody sent is neither on nor
// off.
func (f fields) requiredFlag(name string) (bool, error) {
	s, present, err := f.text(name)
	if err == nil && !present {
		err = &fieldError{name, errMissing}
	}
	if err != nil {
		return false, err
	}
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
		return false, fieldErr(name, "invalid flag %q", truncateForError(s))
	}
	return !d.IsZero(), nil
}

// strings reads a list of strings; absent and null are nil. Its error
// quotes no value.
func (f fields) strings(name string) ([]string, error) {
	raw := f.get(name)
	if isNull(raw) {
		return nil, nil
	}
	if out, ok := plainStrings(raw); ok {
		return out, nil
	}
	var out []string
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, &fieldError{name, errors.New("not a list of strings")}
	}
	return out, nil
}

// time returns a time field in Unix milliseconds, read by ParseTime; 0 and
// false when absent.
func (f fields) time(name string) (int64, bool, error) {
	b, present, err := f.textBytes(name)
	if err != nil || !present {
		return 0, false, err
	}
	ms, err := parseTimeBytes(b)
	if err != nil {
		return 0, false, &fieldError{name, err}
	}
	return ms, true, nil
}

// decodeRows splits a JSON array of rows, raw a part of data checkData
// passed; each row is read as the caller gets to it, so an answer's rows
// are never all held as fields at once.
func decodeRows(raw json.RawMessage, field string) ([]json.RawMessage, error) {
	if isNull(raw) {
		return nil, nil
	}
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '[' {
		return arrayElements(t), nil
	}
	var rows []json.RawMessage
	if err := json.Unmarshal(raw, &rows); err != nil {
		return nil, fmt.Errorf("%s: %w", field, err)
	}
	return rows, nil
}

// decodeDataRows reads the envelope's data as an object and splits the rows
// of its array field (read them with decodeList); what names the answer in
// errors. The object's fields are returned too, for what sits beside the
// rows (meta).
func decodeDataRows(data json.RawMessage, what, field string) (fields, []json.RawMessage, error) {
	if err := checkData(data); err != nil {
		return nil, nil, err
	}
	f, err := readFields(nil, data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", what, err)
	}
	raw := f.get(field)
	if raw == nil {
		return nil, nil, fmt.Errorf("%s: %w", what, errNoRows)
	}
	rows, err := decodeRows(raw, field)
	return f, rows, err
}

// isNull reports whether a field is absent or null.
func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || bytes.Equal(t, []byte("null"))
}

// errNoRows is a list answer without its rows field.
var errNoRows = errors.New("answer has no rows")
