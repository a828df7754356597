package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// RejectedRow is a row of a list answer that could not be read. It is left
// out and the rest of the answer kept: the exchange serves the same row on
// every poll, and failing the whole answer for it would hide every good row
// for good.
type RejectedRow struct {
	// Page is the page of the list the row came on, from 1; Index is its
	// position on that page, from 0.
	Page, Index int
	// ID names the row by what identifies it, when that could be read:
	// "token USDT network TRON", "api key +Pxx...xx==" (masked as
	// MaskAPIKey masks), "symbol PERP_BTC_USDT", "id 123". Never a secret.
	ID string
	// Field is the field at fault, "" when the row is not an object.
	Field string
	// Err says what is wrong. It quotes at most 64 characters of a value,
	// and nothing of a credentials row's values.
	Err string
	// hash identifies the row's bytes within one paging.
	hash uint64
}

// list is the rows of one answer that could be read, in order, and the
// rows that could not.
type list[T any] struct {
	rows     []T
	rejected []RejectedRow
}

// decodeList reads rows one by one with decode. A row that is not an
// object, or that decode fails, is rejected naming the field at fault and
// identified by name of what decode read of it before failing (name must
// give "" for a zero T); the other rows are kept. The rows are those
// decodeDataRows gave: valid JSON.
func decodeList[T any](rows []json.RawMessage, decode func(fields) (T, error), name func(T) string) list[T] {
	out := list[T]{rows: make([]T, 0, len(rows))}
	// One row's fields at a time: decode keeps nothing of them.
	var buf fields
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

// decodeDataList reads the rows of the array field of the envelope's data
// (see decodeList); what names the answer in errors.
func decodeDataList[T any](data json.RawMessage, what, field string, decode func(fields) (T, error), name func(T) string) (list[T], error) {
	_, rows, err := decodeDataRows(data, what, field)
	if err != nil {
		return list[T]{}, err
	}
	return decodeList(rows, decode, name), nil
}

// decodeMetaList is decodeDataList of data.rows[] with data.meta, nil when
// none came.
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
// read, and the bytes of each row rejected (a page of rows that cannot be
// read is still a page of rows), after a NUL no key or id is expected to
// hold.
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

// pagedList gathers the pages of a list: each row once by its key, each
// rejected row once by its bytes, as pages may repeat rows when the list
// shifts during paging.
type pagedList[T any] struct {
	rows     []T
	rejected []RejectedRow
	seen     map[string]bool
	seenBad  map[uint64]bool
}

func newPagedList[T any]() *pagedList[T] {
	return &pagedList[T]{seen: map[string]bool{}, seenBad: map[uint64]bool{}}
}

// add keeps the rows of l not seen before for which keep holds (nil keeps
// all), and the rejected rows not seen before; it returns how many rows
// were new.
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

// onPage marks the rows rejected on page of a list as on it, and removes
// from their errors what the client never repeats (its key, its latest
// signatures, long hex runs).
func (c *Client) onPage(rejected []RejectedRow, page int) []RejectedRow {
	for i := range rejected {
		rejected[i].Page = page
		rejected[i].Err = c.redact(rejected[i].Err)
	}
	return rejected
}

// prefixed is prefix and v, or "" when v is: a row's name once its
// identifying field was read.
func prefixed(prefix, v string) string {
	if v == "" {
		return ""
	}
	return prefix + v
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

// readData reads the envelope's data as an object; what, when set, names
// the answer in the errors of its members.
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
