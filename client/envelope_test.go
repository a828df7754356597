package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// decodeEnvelope reads every body as json.Unmarshal does: the same fields,
// or the same error.
func FuzzDecodeEnvelopeMatchesEncodingJSON(f *testing.F) {
	addAnswerSeeds(f)
	for _, s := range []string{`{"Success":true,"data":{}}`, `{"success":true,"success":null,"code":1,"code":null,"message":"a","message":null}`,
		`{"success":"true"}`, `{"success":true,"code":"x"}`, `{"success":true,"message":7}`, `{"d\u0061ta":[1],"success":false}`,
		`{"data":1,"data":2,"timestamp":null}`, `null`, `[]`, `{"success":true} x`, "{\"message\":\"\xff\\u00e9\",\"\u212aode\":1}",
		`{"success":true,"code":1.5,"data":{"a":"b"}}`, ` {"success" : true , "data" : [ 1 , 2 ] } `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		got, err := decodeEnvelope(body)
		var want envelope
		wantErr := json.Unmarshal(body, &want)
		if fmt.Sprint(err) != fmt.Sprint(wantErr) {
			t.Fatalf("error %v, encoding/json has %v", err, wantErr)
		}
		if err != nil {
			return
		}
		if (got.Success == nil) != (want.Success == nil) || (got.Success != nil && *got.Success != *want.Success) ||
			got.Code != want.Code || got.Message != want.Message {
			t.Fatalf("envelope %+v, encoding/json has %+v", got, want)
		}
		for _, raw := range [][2]json.RawMessage{{got.Timestamp, want.Timestamp}, {got.Data, want.Data}} {
			if !bytes.Equal(raw[0], raw[1]) || (raw[0] == nil) != (raw[1] == nil) {
				t.Fatalf("raw member %q, encoding/json has %q", raw[0], raw[1])
			}
		}
	})
}

// The envelope's data is a slice of the answer, not a copy.
func TestDecodeEnvelopeKeepsDataInTheAnswer(t *testing.T) {
	body := []byte(`{"success":true,"data":{"token":"BTC"},"timestamp":"1752495884477"}`)
	env, err := decodeEnvelope(body)
	if err != nil {
		t.Fatal(err)
	}
	body[bytes.Index(body, []byte("BTC"))+1] = 'X'
	if string(env.Data) != `{"token":"BXC"}` {
		t.Errorf("data = %s after the answer changed, want a slice of it", env.Data)
	}
}

// A page's meta is read as json.Unmarshal reads it: the same values, or
// the same error.
func FuzzPageMetaMatchesEncodingJSON(f *testing.F) {
	for _, s := range []string{`{"total":"46","records_per_page":"1","current_page":"1"}`, `{"total":1,"total":null,"recordsPerPage":25}`,
		`{"Total":1}`, `{"total":"x"}`, `{"total":1.5,"currentPage":1e2}`, `[1]`, `null`, `"x"`, `{"current_page":2,"currentPage":3,"other":{}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		raw = bytes.TrimSpace(raw)
		if !json.Valid(raw) || len(raw) == 0 {
			return
		}
		var got, want pageMeta
		err := got.decode(raw)
		wantErr := json.Unmarshal(raw, &want)
		if fmt.Sprint(err) != fmt.Sprint(wantErr) || got != want {
			t.Fatalf("%+v (%v), encoding/json has %+v (%v)", got, err, want, wantErr)
		}
	})
}
