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
	for _, m := range jsonMembers(raw) {
		name, key := m.name, fieldKey(m.name)
		if prev, dup := f[key]; err == nil && dup && spelled[key] != name && !bytes.Equal(prev, m.value) {
			a, b := spelled[key], name
			if b < a {
				a, b = b, a
			}
			err = &disagreeError{a, b}
		}
		f[key], spelled[key] = m.value, name
	}
	return f, err
}

// jsonMembers are the members of the valid JSON object raw as
// encoding/json reads them, in order, each value compacted.
func jsonMembers(raw []byte) []struct {
	name  string
	value json.RawMessage
} {
	var out []struct {
		name  string
		value json.RawMessage
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	_, _ = dec.Token() // {
	for dec.More() {
		k, _ := dec.Token()
		var v json.RawMessage
		_ = dec.Decode(&v)
		var c bytes.Buffer
		_ = json.Compact(&c, v)
		out = append(out, struct {
			name  string
			value json.RawMessage
		}{k.(string), c.Bytes()})
	}
	return out
}

// The list finds every field the map did, in every spelling, with the same
// value, and fails the same objects with the same error.
func FuzzFieldsMatchMap(f *testing.F) {
	for _, s := range []string{
		`{"marginRatio":"1","margin_ratio":"1","MARGINRATIO":"1"}`, `{"marginRatio":"1","margin_ratio":"2"}`,
		`{"a_b":1,"aB":1,"a_b":2}`, `{"a":1,"a":2}`, `{"\u212aey":1,"key":2}`, "{\"\u212aey\":1,\"key\":1}", `{"\u0130d":"x","id":"y"}`,
		`{"t\u006fken":"x","token":"x"}`, "{\"\xff\":1,\"\xfe\":2}", `{"_":1,"":2,"__":1}`, `{}`,
		` { "a" : 1 , "b":[1,{"c":"]}\"{"}], "d":null,"e":true,"f":-1.5e3 } `, `{"a":1,"a":2}`, `{"\u0074oken":"x","t\"k":"y"}`,
		`{"rows":[{"token":"BTC","holding":"1.5"},{"token":"ETH"}]}`,
		`{"a":"\u0001","b":"\ud800","c":"\ud800\u0041","d":"a\"b","e":["\ud800"]}`,
		`{"a":[ "a,b" , [ ] , { } , 0 , "\\" ],"b":[[[["x"]]],{"]":"["}]}`,
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
		if len(got.members) != len(want) {
			t.Fatalf("%d fields, the map has %d", len(got.members), len(want))
		}
		names := []string{probe, strings.ToUpper(probe), "x_" + probe}
		for _, m := range jsonMembers(raw) {
			names = append(names, m.name, strings.ToUpper(m.name))
		}
		for _, n := range names {
			var g json.RawMessage
			if m := got.get(n); m != nil {
				g = m.raw()
			}
			if w := want[fieldKey(n)]; !bytes.Equal(g, w) || (g == nil) != (w == nil) {
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
	if err != nil || len(f.members) != 101 || string(f.get("FIELD_NO_99").raw()) != "99" {
		t.Fatalf("got %d fields, FIELD_NO_99 %v, %v", len(f.members), f.get("FIELD_NO_99"), err)
	}
}
