package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/valyala/fastjson"
)

// decodeEnvelope reads every body as json.Unmarshal does: the same fields,
// or the same error.
func FuzzDecodeEnvelopeMatchesEncodingJSON(f *testing.F) {
	addAnswerSeeds(f)
	for _, s := range []string{`{"Success":true,"data":{}}`, `{"success":true,"success":null,"code":1,"code":null,"message":"a","message":null}`,
		`{"success":"true"}`, `{"success":true,"code":"x"}`, `{"success":true,"message":7}`, `{"d\u0061ta":[1],"success":false}`,
		`{"data":1,"data":2,"timestamp":null}`, `null`, `[]`, `{"success":true} x`, "{\"message\":\"\xff\\u00e9\",\"\u212aode\":1}",
		`{"success":true,"code":1.5,"data":{"a":"b"}}`, "{\"success\":true,\"data\":[\"\x06\\b\"]}",
		` {"success" : true , "data" : [ 1 , 2 ] } `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var want rawEnvelope
		_ = json.Unmarshal(body, &want)
		wantErr := json.Unmarshal(body, new(envelope))
		_ = decodeEnvelope(body, func(got envelope, err error) error {
			if fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Fatalf("error %v, encoding/json has %v", err, wantErr)
			}
			if err != nil {
				return nil
			}
			if (got.Success == nil) != (want.Success == nil) || (got.Success != nil && *got.Success != *want.Success) ||
				got.Code != want.Code || got.Message != want.Message {
				t.Fatalf("envelope %+v, encoding/json has %+v", got, want)
			}
			for _, m := range []struct {
				got  *fastjson.Value
				want json.RawMessage
			}{{got.Timestamp, want.Timestamp}, {got.Data, want.Data}} {
				if m.got == nil || m.want == nil {
					if m.got != nil || m.want != nil {
						t.Fatalf("member %v, encoding/json has %q", m.got, m.want)
					}
					continue
				}
				var compact bytes.Buffer
				_ = json.Compact(&compact, m.want)
				if got := m.got.MarshalTo(nil); !bytes.Equal(got, compact.Bytes()) {
					t.Fatalf("member %q, encoding/json has %q", got, m.want)
				}
			}
			return nil
		})
	})
}
