package statefile

import (
	"reflect"
	"testing"
)

// FuzzDecode feeds arbitrary bytes to the state file decoder: it must never
// panic, and whatever it accepts must survive a round trip unchanged.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"version":1,"accounts":{}}`))
	f.Add([]byte(`{"version":1,"accounts":{"main":{"version":1,"start_ms":1700000000000,"last_record_ms":1700000100000,"seen":[{"id":7,"timestamp_ms":1700000100000}],"totals":[{"token":"USDT","type":"DEPOSIT","records":1,"inflow":"0.123456789012345678901234567890","outflow":"0"}]}}}`))
	f.Add([]byte(`{"version":1,"accounts":{},"api_keys":{"main":{"` + digest("k") + `":{"allowed_ips_sha256":"` + digest("i") + `","permissions_sha256":"` + digest("p") + `","allowed_ips_changes":2,"permission_changes":0}}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		accounts, err := Decode(b)
		if err != nil {
			return
		}
		again, err := Encode(accounts)
		if err != nil {
			t.Fatalf("encode what decode accepted: %v", err)
		}
		back, err := Decode(again)
		if err != nil {
			t.Fatalf("decode what encode wrote: %v\n%s", err, again)
		}
		if !reflect.DeepEqual(back, accounts) && !(len(back) == 0 && len(accounts) == 0) {
			t.Fatalf("round trip changed the state:\n%+v\n%+v", accounts, back)
		}
	})
}
