package client

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
)

// The list decoders' fuzz targets hold every answer to two rules: a row is
// read or rejected, never lost, and rows are independent, so that one row
// the exchange breaks costs that row only.

// readIndexes checks that every one of n rows is read or rejected once, and
// returns the row index of each row read, in order.
func readIndexes[T any](t *testing.T, l list[T], n int) []int {
	t.Helper()
	if len(l.rows)+len(l.rejected) != n {
		t.Fatalf("%d rows read and %d rejected of %d", len(l.rows), len(l.rejected), n)
	}
	rejected := map[int]bool{}
	for _, r := range l.rejected {
		if r.Index < 0 || r.Index >= n || rejected[r.Index] || r.Err == "" || len(r.Err) > 5*maxQuotedError {
			t.Fatalf("rejected row %+v of %d rows", r, n)
		}
		rejected[r.Index] = true
	}
	var read []int
	for i := range n {
		if !rejected[i] {
			read = append(read, i)
		}
	}
	return read
}

// unreadableRow is what checkOneRowCorrupted puts in place of a row: an
// object without any field a list row needs.
const unreadableRow = `{"unreadable":true}`

// checkOneRowCorrupted decodes raw, the rows of a list under field, once as
// they are and once with row pick%len(raw) made unreadable, and fails unless
// that row is rejected and every other row is read, or rejected, exactly as
// before. An answer that fails as a whole (a token listed twice) is not
// compared, but taking a row away must not make one fail.
func checkOneRowCorrupted[T any](t *testing.T, field string, raw []json.RawMessage, pick int, decode func(json.RawMessage) (list[T], error)) {
	t.Helper()
	if len(raw) == 0 {
		return
	}
	k := pick % len(raw)
	build := func(rows []json.RawMessage) json.RawMessage {
		b, err := json.Marshal(map[string][]json.RawMessage{field: rows})
		if err != nil {
			t.Fatalf("rows encoding/json read do not encode: %v", err)
		}
		return b
	}
	before, err := decode(build(raw))
	if err != nil {
		return
	}
	corrupt := slices.Clone(raw)
	corrupt[k] = json.RawMessage(unreadableRow)
	after, err := decode(build(corrupt))
	if err != nil {
		t.Fatalf("making row %d unreadable failed the answer: %v", k, err)
	}
	was, now := outcomes(t, before, len(raw)), outcomes(t, after, len(raw))
	if _, rejected := now[k].(RejectedRow); !rejected {
		t.Fatalf("row %d made unreadable was read: %+v", k, now[k])
	}
	for i := range raw {
		if i != k && !reflect.DeepEqual(was[i], now[i]) {
			t.Fatalf("making row %d unreadable changed row %d from %+v to %+v", k, i, was[i], now[i])
		}
	}
}

// outcomes is what became of each of n rows: its value, or its rejection.
func outcomes[T any](t *testing.T, l list[T], n int) []any {
	t.Helper()
	out := make([]any, n)
	for j, i := range readIndexes(t, l, n) {
		out[i] = l.rows[j]
	}
	for _, r := range l.rejected {
		out[r.Index] = r
	}
	return out
}
