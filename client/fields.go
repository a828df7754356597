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
// are read this way; their shapes are known only from public clients.
type fields map[string]json.RawMessage

// fieldKey is the spelling-free form of a field name.
func fieldKey(name string) string {
	return strings.ToLower(strings.ReplaceAll(name, "_", ""))
}

// decodeFields reads one JSON object. Two spellings of one field with
// different values are an error: which one the exchange meant is unknown.
func decodeFields(raw json.RawMessage) (fields, error) {
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return nil, fmt.Errorf("expected an object, got %s", truncateForError(string(t)))
	}
	if !json.Valid(raw) {
		var m map[string]json.RawMessage
		return nil, json.Unmarshal(raw, &m)
	}
	f := fields{}
	spelled := map[string]string{}
	var err error
	objectMembers(bytes.TrimSpace(raw), func(name string, v []byte) {
		k := fieldKey(name)
		// The same name twice: the last one counts, as encoding/json has it.
		if prev, dup := f[k]; err == nil && dup && spelled[k] != name && !bytes.Equal(prev, v) {
			a, b := spelled[k], name
			if b < a {
				a, b = b, a
			}
			err = fmt.Errorf("fields %q and %q disagree", a, b)
		}
		f[k], spelled[k] = v, name
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}

// text returns a string or number field as text; absent, null and "" are
// not present.
func (f fields) text(name string) (string, bool, error) {
	s, present, err := fieldText(f[fieldKey(name)])
	if err != nil {
		return "", false, fmt.Errorf("%s: %w", name, err)
	}
	return s, present, nil
}

// requiredText is text for a field the row cannot do without.
func (f fields) requiredText(name string) (string, error) {
	s, present, err := f.text(name)
	if err == nil && !present {
		err = fmt.Errorf("%s: missing", name)
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
	s, present, err := f.text(name)
	if err != nil || !present {
		return nil, err
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return nil, fmt.Errorf("%s: invalid decimal %q", name, truncateForError(s))
	}
	return &d, nil
}

// requiredDecimal is decimal for a field the row cannot do without.
func (f fields) requiredDecimal(name string) (decimal.Decimal, error) {
	d, err := f.decimal(name)
	if err == nil && d == nil {
		err = fmt.Errorf("%s: missing", name)
	}
	if err != nil {
		return decimal.Decimal{}, err
	}
	return *d, nil
}

// requiredFlag reads a flag sent as 0/1 (number or string) or true/false;
// absent, null and "" are an error: a flag nobody sent is neither on nor
// off.
func (f fields) requiredFlag(name string) (bool, error) {
	s, present, err := f.text(name)
	if err == nil && !present {
		err = fmt.Errorf("%s: missing", name)
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
	d, err := decimal.NewFromString(s)
	if err != nil {
		return false, fmt.Errorf("%s: invalid flag %q", name, truncateForError(s))
	}
	return !d.IsZero(), nil
}

// time returns a time field in Unix milliseconds, read by ParseTime; 0 and
// false when absent.
func (f fields) time(name string) (int64, bool, error) {
	s, present, err := f.text(name)
	if err != nil || !present {
		return 0, false, err
	}
	ms, err := ParseTime(s)
	if err != nil {
		return 0, false, fmt.Errorf("%s: %w", name, err)
	}
	return ms, true, nil
}

// decodeRows splits a JSON array of rows; each row is read with rowFields
// as the caller gets to it, so an answer's rows are never all held as
// field maps at once (ten times the answer's size).
func decodeRows(raw json.RawMessage, field string) ([]json.RawMessage, error) {
	if isNull(raw) {
		return nil, nil
	}
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '[' && json.Valid(t) {
		return arrayElements(t), nil
	}
	var rows []json.RawMessage
	if err := json.Unmarshal(raw, &rows); err != nil {
		return nil, fmt.Errorf("%s: %w", field, err)
	}
	return rows, nil
}

// rowFields reads row i of the array field, naming it in any error.
func rowFields(field string, i int, raw json.RawMessage) (fields, error) {
	f, err := decodeFields(raw)
	if err != nil {
		return nil, fmt.Errorf("%s row %d: %w", field, i, err)
	}
	return f, nil
}

// decodeDataRows reads the envelope's data as an object and splits the rows
// of its array field (read each with rowFields); what names the answer in
// errors. The object's fields are returned too, for what sits beside the
// rows (meta).
func decodeDataRows(data json.RawMessage, what, field string) (fields, []json.RawMessage, error) {
	if err := checkData(data); err != nil {
		return nil, nil, err
	}
	f, err := decodeFields(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", what, err)
	}
	raw, ok := f[fieldKey(field)]
	if !ok {
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
