package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/valyala/fastjson"
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
	// Page metas as encoding/json reads them, values or errors.
	for _, m := range []string{`{"total":"46","records_per_page":"1","current_page":"1"}`, `{"total":1,"total":null,"recordsPerPage":25}`,
		`{"Total":1}`, `{"total":"x"}`, `{"total":1.5,"currentPage":1e2}`, `[1]`, `null`, `"x"`, `{"current_page":2,"currentPage":3,"other":{}}`} {
		f.Add([]byte(`{"rows":[],"meta":` + m + `}`))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want historyData
		wantErr := decodeData(data, &want)
		parsed := false
		_ = parseJSON(data, func(v *fastjson.Value) error {
			parsed = true
			rows, meta, err := readHistoryData(v)
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("error %v, encoding/json has %v", err, wantErr)
			}
			if err != nil {
				return nil
			}
			if wantMeta := metaOf(want.Meta); !reflect.DeepEqual(meta, wantMeta) || len(rows) != len(want.Rows) {
				t.Fatalf("meta %+v and %d rows, encoding/json has %+v and %d", meta, len(rows), wantMeta, len(want.Rows))
			}
			for i, row := range rows {
				raw := row.MarshalTo(nil)
				if !bytes.Equal(raw, compact(want.Rows[i])) {
					t.Fatalf("row %d is %s, encoding/json has %s", i, raw, want.Rows[i])
				}
				f, _, ok := readHistoryFields(row, nil)
				if !ok {
					continue
				}
				var wf historyFields
				if err := json.Unmarshal(raw, &wf); err != nil {
					t.Fatalf("row %s read, encoding/json has %v", raw, err)
				}
				g, w := reflect.ValueOf(f), reflect.ValueOf(wf)
				for j := range g.NumField() {
					a, b := g.Field(j).Bytes(), compact(w.Field(j).Bytes())
					if !bytes.Equal(a, b) || (a == nil) != (b == nil) {
						t.Fatalf("row %s: field %d is %q, encoding/json has %q", raw, j, a, b)
					}
				}
			}
			return nil
		})
		if !parsed && wantErr == nil {
			t.Fatalf("%q refused, encoding/json reads it", data)
		}
	})
}

// compact is raw without the spaces between its tokens; nil stays nil.
func compact(raw []byte) []byte {
	if raw == nil {
		return nil
	}
	var b bytes.Buffer
	_ = json.Compact(&b, raw)
	return b.Bytes()
}

func metaOf(m *pageMeta) *PageMeta {
	if m == nil {
		return nil
	}
	out := m.toMeta()
	return &out
}
