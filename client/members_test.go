package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// mapFields is decodeFields of a valid object as a map by fieldKey: how
// fields were read before they were a list, the reference the list is held
// to.
func mapFields(raw []byte) (map[string]json.RawMessage, error) {
	f, spelled := map[string]json.RawMessage{}, map[string]string{}
	var err error
	objectMembers(bytes.TrimSpace(raw), func(k, v []byte) {
		name, key := string(k), fieldKey(string(k))
		if prev, dup := f[key]; err == nil && dup && spelled[key] != name && !bytes.Equal(prev, v) {
			a, b := spelled[key], name
			if b < a {
				a, b = b, a
			}
			err = &disagreeError{a, b}
		}
		f[key], spelled[key] = v, name
	})
	return f, err
}

// The list finds every field the map did, in every spelling, with the same
// value, and fails the same objects with the same error.
func FuzzFieldsMatchMap(f *testing.F) {
	for _, s := range []string{
		`{"marginRatio":"1","margin_ratio":"1","MARGINRATIO":"1"}`, `{"marginRatio":"1","margin_ratio":"2"}`,
		`{"a_b":1,"aB":1,"a_b":2}`, `{"a":1,"a":2}`, `{"\u212aey":1,"key":2}`, "{\"\u212aey\":1,\"key\":1}", `{"\u0130d":"x","id":"y"}`,
		`{"t\u006fken":"x","token":"x"}`, "{\"\xff\":1,\"\xfe\":2}", `{"_":1,"":2,"__":1}`, `{}`,
		manyFields(40, false), manyFields(40, true),
	} {
		f.Add([]byte(s), "ab")
	}
	f.Fuzz(func(t *testing.T, raw []byte, probe string) {
		if !json.Valid(raw) || bytes.TrimSpace(raw)[0] != '{' {
			return
		}
		want, wantErr := mapFields(raw)
		got, err := decodeFields(raw)
		if fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Fatalf("error %v, the map has %v", err, wantErr)
		}
		if err != nil {
			return
		}
		if len(got) != len(want) {
			t.Fatalf("%d fields, the map has %d", len(got), len(want))
		}
		names := []string{probe, strings.ToUpper(probe), "x_" + probe}
		objectMembers(bytes.TrimSpace(raw), func(k, _ []byte) { names = append(names, string(k), strings.ToUpper(string(k))) })
		for _, n := range names {
			if g, w := got.get(n), want[fieldKey(n)]; !bytes.Equal(g, w) || (g == nil) != (w == nil) {
				t.Fatalf("field %q is %q, the map has %q", n, g, w)
			}
		}
	})
}

// manyFields is an object of n fields and, with twice, each again in
// snake case: past maxScanned, members are found through an index.
func manyFields(n int, twice bool) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		fmt.Fprintf(&b, `"fieldNo%d":%d,`, i, i)
		if twice {
			fmt.Fprintf(&b, `"field_no%d":%d,`, i, i)
		}
	}
	b.WriteString(`"last":"x"}`)
	return b.String()
}

func TestFieldsOfAHugeObjectDisagree(t *testing.T) {
	raw := strings.Replace(manyFields(100, true), `"field_no70":70`, `"field_no70":71`, 1)
	if _, err := decodeFields([]byte(raw)); err == nil || err.Error() != `fields "fieldNo70" and "field_no70" disagree` {
		t.Fatalf("got %v", err)
	}
	f, err := decodeFields([]byte(manyFields(100, true)))
	if err != nil || len(f) != 101 || string(f.get("FIELD_NO_99")) != "99" {
		t.Fatalf("got %d fields, FIELD_NO_99 %s, %v", len(f), f.get("FIELD_NO_99"), err)
	}
}

// decodeFields is readFields of any object: JSON that is not valid fails
// with encoding/json's error.
func decodeFields(raw json.RawMessage) (fields, error) {
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '{' && !json.Valid(raw) {
		var m map[string]json.RawMessage
		return nil, json.Unmarshal(raw, &m)
	}
	return readFields(nil, raw)
}
