package statefile

import (
	"bytes"
	"reflect"
	"testing"
)

// FuzzDecode feeds arbitrary bytes to the state file decoder: it must never
// panic, and whatever it accepts must survive a round trip unchanged.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"version":1,"accounts":{}}`))
	f.Add([]byte(`{"version":1,"accounts":{"main":{"version":1,"start_ms":1700000000000,"last_record_ms":1700000100000,"seen":[{"id":7,"timestamp_ms":1700000100000}],"totals":[{"token":"USDT","type":"DEPOSIT","records":1,"inflow":"0.123456789012345678901234567890","outflow":"0"}]}}}`))
	f.Add([]byte(`{"version":1,"accounts":{},"tallies":{"main":{"cursor_ms":2,"horizon_ms":1,"seen":[{"id":"7","latest_ms":1}],"totals":[]}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		doc, err := DecodeDocument(b, testSections...)
		if err != nil {
			return
		}
		again, err := EncodeDocument(doc, testSections...)
		if err != nil {
			t.Fatalf("encode what decode accepted: %v", err)
		}
		back, err := DecodeDocument(again, testSections...)
		if err != nil {
			t.Fatalf("decode what encode wrote: %v\n%s", err, again)
		}
		if !reflect.DeepEqual(back.Sections, doc.Sections) {
			t.Fatalf("round trip changed the state:\n%+v\n%+v", doc.Sections, back.Sections)
		}
		if twice, err := EncodeDocument(back, testSections...); err != nil || !bytes.Equal(twice, again) {
			t.Fatalf("round trip changed the sections (%v):\n%s\n%s", err, again, twice)
		}
	})
}
