package client

import (
	"bytes"
	"encoding/json"
	"testing"
)

// The splitter agrees with encoding/json on every valid object and array:
// the same members (the last of a name twice), the same elements, byte for
// byte once compacted.
func FuzzSplitMatchesEncodingJSON(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, ` { "a" : 1 , "b":[1,{"c":"]}\"{"}], "d":null,"e":true,"f":-1.5e3 } `,
		`{"a":1,"a":2}`, `{"\u0074oken":"x","t\"k":"y"}`, "{\"\xff\":1}",
		`[ "a,b" , [ ] , { } , 0 , "\\" ]`, `[[[["x"]]],{"]":"["}]`, `{"rows":[{"token":"BTC","holding":"1.5"},{"token":"ETH"}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if !json.Valid(b) {
			return
		}
		t.Logf("%q", b)
		switch bytes.TrimSpace(b)[0] {
		case '{':
			var want map[string]json.RawMessage
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatal(err)
			}
			got := map[string]json.RawMessage{}
			objectMembers(bytes.TrimSpace(b), func(k, v []byte) { got[string(k)] = v })
			sameRaw(t, got, want)
		case '[':
			var want []json.RawMessage
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatal(err)
			}
			got := arrayElements(bytes.TrimSpace(b))
			if len(got) != len(want) {
				t.Fatalf("%d elements, encoding/json has %d", len(got), len(want))
			}
			for i := range got {
				sameRaw(t, map[string]json.RawMessage{"": got[i]}, map[string]json.RawMessage{"": want[i]})
			}
		}
	})
}

func sameRaw(t *testing.T, got, want map[string]json.RawMessage) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d members, encoding/json has %d: %q vs %q", len(got), len(want), got, want)
	}
	for k, w := range want {
		var a, b bytes.Buffer
		if err := json.Compact(&a, got[k]); err != nil {
			t.Fatalf("member %q: %q is not JSON: %v", k, got[k], err)
		}
		_ = json.Compact(&b, w)
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Fatalf("member %q: %q, encoding/json has %q", k, got[k], w)
		}
	}
}

// Splitting a row of the answer copies nothing: its fields are slices of
// the answer.
func TestDecodeFieldsKeepsSlicesOfTheAnswer(t *testing.T) {
	raw := []byte(`{"token":"BTC","holding":"1.5"}`)
	f, err := decodeFields(raw)
	if err != nil {
		t.Fatal(err)
	}
	raw[11] = 'X'
	if got := string(f.get("token")); got != `"BXC"` {
		t.Errorf(`token = %s after the answer changed, want "BXC" (a slice of it)`, got)
	}
}
