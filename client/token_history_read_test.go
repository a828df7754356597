package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// A page and its rows are read as json.Unmarshal reads them: the same rows,
// meta and fields, or the same error.
func FuzzReadHistoryMatchesEncodingJSON(f *testing.F) {
	for _, s := range []string{
		string(tokenHistoryPage(3)), `{"rows":[{"id":1,"ID":2}],"meta":{"total":1}}`, `{"rows":null,"meta":null}`,
		`{"rows":[],"rows":[{"id":1}]}`, `{"meta":{"total":1},"meta":{"currentPage":2},"rows":[]}`, `{"Rows":[1]}`,
		`{"rows":5}`, `{"rows":[1,null,"x",{"amount":"1","timestamp":null,"symbol":"x"}],"meta":{"total":"x"}}`,
		`{"rows":[{"t\u006fken":"a\u00e9","type":"\u212a"}]}`, `null`, `[]`, ` { "rows" : [ { "id" : "7" } ] } `,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := readHistoryData(data)
		var want historyData
		wantErr := decodeData(data, &want)
		if fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Fatalf("error %v, encoding/json has %v", err, wantErr)
		}
		if err != nil {
			return
		}
		if !reflect.DeepEqual(got.Meta, want.Meta) || len(got.Rows) != len(want.Rows) {
			t.Fatalf("meta %+v and %d rows, encoding/json has %+v and %d", got.Meta, len(got.Rows), want.Meta, len(want.Rows))
		}
		for i := range got.Rows {
			if !bytes.Equal(got.Rows[i], want.Rows[i]) {
				t.Fatalf("row %d is %s, encoding/json has %s", i, got.Rows[i], want.Rows[i])
			}
			f, ok := readHistoryFields(got.Rows[i])
			if !ok {
				continue
			}
			var wf historyFields
			if err := json.Unmarshal(got.Rows[i], &wf); err != nil {
				t.Fatalf("row %s read, encoding/json has %v", got.Rows[i], err)
			}
			g, w := reflect.ValueOf(f), reflect.ValueOf(wf)
			for j := range g.NumField() {
				a, b := g.Field(j).Bytes(), w.Field(j).Bytes()
				if !bytes.Equal(a, b) || (a == nil) != (b == nil) {
					t.Fatalf("row %s: field %d is %q, encoding/json has %q", got.Rows[i], j, a, b)
				}
			}
		}
	})
}
