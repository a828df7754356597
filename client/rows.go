package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// RejectedRow is a row of a list answer that could not be read, left out
// while the rest is kept: the exchange serves it on every poll, and failing
// the answer for it would hide every good row for good.
type RejectedRow struct {
	Page, Index int // the page from 1, the position on it from 0
	// ID names the row when that could be read, never by a secret: "token
	// USDT network TRON", "api key +Pxx...xx==", "id 123".
	ID    string
	Field string // the field at fault, "" when the row is not an object
	// Err quotes at most 64 characters of a value, none of a credential's.
	Err  string
	hash uint64 // the row's bytes, within one paging
}

// list is the rows of one answer read, in order, and those rejected.
type list[T any] struct {
	rows     []T
	rejected []RejectedRow
}

// decodeList reads rows, valid JSON, one by one with decode. A row not an
// object, or that decode fails, is rejected naming the field at fault and
// named by name of what decode read (name gives "" for a zero T).
func decodeList[T any](rows []json.RawMessage, decode func(fields) (T, error), name func(T) string) list[T] {
	out := list[T]{rows: make([]T, 0, len(rows))}
	var buf fields // one row's at a time: decode keeps nothing of them
	for i, raw := range rows {
		var v T
		var err error
		if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
			// Not quoted: a bare value may be anything, a key included.
			err = errors.New("row is not a JSON object")
		} else if f, ferr := readFields(buf, raw); ferr != nil {
			err = ferr
		} else {
			buf = f
			v, err = decode(f)
		}
		if err == nil {
			out.rows = append(out.rows, v)
			continue
		}
		r := RejectedRow{Index: i, ID: name(v), Err: err.Error(), hash: fnv1a(fnvOffset, string(raw), false)}
		var fe *fieldError
		var de *disagreeError
		switch {
		case errors.As(err, &fe):
			r.Field = fe.field
		case errors.As(err, &de):
			r.Field = de.a
		}
		out.rejected = append(out.rejected, r)
	}
	return out
}

// decodeDataList reads the rows of the data's array field (see decodeList).
func decodeDataList[T any](data json.RawMessage, what, field string, decode func(fields) (T, error), name func(T) string) (list[T], error) {
	_, rows, err := decodeDataRows(data, what, field)
	if err != nil {
		return list[T]{}, err
	}
	return decodeList(rows, decode, name), nil
}

// decodeMetaList is decodeDataList of data.rows[] with data.meta, nil when none came.
func decodeMetaList[T any](data json.RawMessage, what string, decode func(fields) (T, error), name func(T) string) (list[T], *PageMeta, error) {
	f, rows, err := decodeDataRows(data, what, "rows")
	if err != nil {
		return list[T]{}, nil, err
	}
	meta, err := f.meta(what)
	if err != nil {
		return list[T]{}, nil, err
	}
	return decodeList(rows, decode, name), meta, nil
}

// rowsOnly is decode of a decodeMetaList, without the meta.
func rowsOnly[T any](decode func(json.RawMessage) (list[T], *PageMeta, error)) func(json.RawMessage) (list[T], error) {
	return func(data json.RawMessage) (list[T], error) {
		l, _, err := decode(data)
		return l, err
	}
}

// listedOnce is the list l decoded with err, failed when it lists a key
// twice: which of its rows holds the value is unknown. what starts the error.
func listedOnce[T any](l list[T], err error, what string, key func(T) string) (list[T], error) {
	if err != nil {
		return list[T]{}, err
	}
	seen := make(map[string]bool, len(l.rows))
	for _, r := range l.rows {
		k := key(r)
		if seen[k] {
			return list[T]{}, fmt.Errorf("%s %s listed twice", what, k)
		}
		seen[k] = true
	}
	return l, nil
}

// keys are the identities of the list's rows for paging: key of each row
// read, and a NUL and the hash of each rejected (still a row of the page).
func (l list[T]) keys(key func(T) string) []string {
	ids := make([]string, 0, len(l.rows)+len(l.rejected))
	for _, r := range l.rows {
		ids = append(ids, key(r))
	}
	for _, r := range l.rejected {
		ids = append(ids, "\x00"+strconv.FormatUint(r.hash, 16))
	}
	return ids
}

// pagedList gathers the pages of a list, which may repeat rows as the list
// shifts: each row once by key, each rejected row once by its bytes.
type pagedList[T any] struct {
	rows     []T
	rejected []RejectedRow
	seen     map[string]bool
	seenBad  map[uint64]bool
}

func newPagedList[T any]() *pagedList[T] {
	return &pagedList[T]{seen: map[string]bool{}, seenBad: map[uint64]bool{}}
}

// add keeps the rows of l new and for which keep holds (nil keeps all), and
// the rejected rows new; it returns how many were new.
func (p *pagedList[T]) add(l list[T], key func(T) string, keep func(T) bool) int {
	fresh := 0
	for _, r := range l.rows {
		if k := key(r); !p.seen[k] && (keep == nil || keep(r)) {
			p.seen[k] = true
			p.rows = append(p.rows, r)
			fresh++
		}
	}
	for _, r := range l.rejected {
		if !p.seenBad[r.hash] {
			p.seenBad[r.hash] = true
			p.rejected = append(p.rejected, r)
			fresh++
		}
	}
	return fresh
}

// onPage marks the rows rejected on page as on it, redacting their errors.
func (c *Client) onPage(rejected []RejectedRow, page int) []RejectedRow {
	for i := range rejected {
		rejected[i].Page = page
		rejected[i].Err = c.redact(rejected[i].Err)
	}
	return rejected
}

// prefixed is prefix and v, or "" when v is: a row's name once read.
func prefixed(prefix, v string) string {
	if v == "" {
		return ""
	}
	return prefix + v
}

// decodeRows splits a JSON array of rows for the caller to read one by one.
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

// decodeDataRows reads the envelope's data as an object, returned for what
// sits beside the rows (meta), and splits the rows of its array field; what
// names the answer in errors.
func decodeDataRows(data json.RawMessage, what, field string) (fields, []json.RawMessage, error) {
	f, err := readData(data, what)
	if err != nil {
		return nil, nil, err
	}
	raw := f.get(field)
	if raw == nil {
		return nil, nil, fmt.Errorf("%s: %w", what, errNoRows)
	}
	rows, err := decodeRows(raw, field)
	return f, rows, err
}

// readData reads the envelope's data as an object; what names it in errors.
func readData(data json.RawMessage, what string) (fields, error) {
	if err := checkData(data); err != nil {
		return nil, err
	}
	f, err := readFields(nil, data)
	if err != nil && what != "" {
		err = fmt.Errorf("%s: %w", what, err)
	}
	return f, err
}

// isNull reports whether a field is absent or null.
func isNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || bytes.Equal(t, []byte("null"))
}

// errNoRows is a list answer without its rows field.
var errNoRows = errors.New("answer has no rows")
