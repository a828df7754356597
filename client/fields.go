package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/shopspring/decimal"
	"github.com/valyala/fastjson"
)

// fields is a JSON object read by field name whatever its spelling: keys are
// compared without case and underscores, so the v3 camelCase
// ("marginRatio", "pnl24H") and the v1 snake_case ("margin_ratio",
// "pnl_24h") of one field are the same field. The account health endpoints
// are read this way; their shapes are known only from public clients. A
// few dozen members are searched faster than a map is built.
type fields struct {
	members []member
	// texts holds the text of the members' scalar values.
	texts []byte
}

// fieldKey is the spelling-free form of a field name.
func fieldKey(name string) string {
	return strings.ToLower(strings.ReplaceAll(name, "_", ""))
}

// readFields reads the object v into f, reusing f's storage: a caller that
// reads many objects one after the other keeps one. Two spellings of one
// field with different values are an error: which one the exchange meant
// is unknown.
func readFields(f *fields, v *fastjson.Value) error {
	o := v.GetObject()
	if o == nil {
		return fmt.Errorf("expected an object, got %s", truncateForError(string(v.MarshalTo(nil))))
	}
	if n := o.Len(); cap(f.members) < n {
		// Room for every member, and for keys and texts of a typical
		// length.
		f.members, f.texts = make([]member, 0, n), make([]byte, 0, 32*n)
	}
	f.members, f.texts = f.members[:0], f.texts[:0]
	var index map[string]int
	var err error
	o.Visit(func(name []byte, v *fastjson.Value) {
		var merr error
		if index, merr = f.add(index, name, v); err == nil {
			err = merr
		}
	})
	return err
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
	m := f.get(name)
	if m == nil {
		return nil, false, nil
	}
	b, present, err := fieldBytes(m.raw())
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
	m := f.get(name)
	if m == nil || m.value == jsonNull {
		return nil, nil
	}
	if out, ok := plainStrings(m.value, f.texts[len(f.texts):]); ok {
		return out, nil
	}
	var out []string
	if err := json.Unmarshal(m.raw(), &out); err != nil {
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

// decodeDataRows reads the envelope's data as an object and its array
// field's rows (read them with decodeList); what names the answer in
// errors. The object's fields are returned too, for what sits beside the
// rows (meta).
func decodeDataRows(data *fastjson.Value, what, field string) (fields, []*fastjson.Value, error) {
	var f fields
	if err := readFields(&f, data); err != nil {
		return fields{}, nil, fmt.Errorf("%s: %w", what, err)
	}
	m := f.get(field)
	switch {
	case m == nil:
		return fields{}, nil, fmt.Errorf("%s: %w", what, errNoRows)
	case m.value == jsonNull:
		return f, nil, nil
	}
	rows, ok := array(m.value)
	if !ok {
		var want []json.RawMessage
		return fields{}, nil, fmt.Errorf("%s: %w", field, json.Unmarshal(m.raw(), &want))
	}
	return f, rows, nil
}

// errNoRows is a list answer without its rows field.
var errNoRows = errors.New("answer has no rows")
