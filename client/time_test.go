package client

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestParseTimeTellsUnitsApartByMagnitude(t *testing.T) {
	const ms = 1579399877041
	for _, tc := range []struct {
		in   string
		want int64
	}{
		{"1579399877041", ms},                  // milliseconds
		{"1579399877", 1579399877000},          // whole seconds
		{"1579399877.041", ms},                 // seconds with a fraction
		{" 1579399877.041 ", ms},               // as a string may hold it
		{"1579399877.0419", ms},                // finer than a millisecond: cut off
		{"1579399877.5", 1579399877500},        // a fraction of one digit
		{"1579399877041.000", ms},              // milliseconds with a zero fraction
		{"1579399877041999", ms},               // microseconds
		{"1579399877041999999", ms},            // nanoseconds
		{"1.579399877041e12", ms},              // an exponent
		{"1.579399877041E9", ms},               // seconds with an exponent
		{"+1579399877041", ms},                 // a sign
		{"0001579399877041", ms},               // leading zeros do not change the band
		{"99999999999", 99999999999000},        // the last second
		{"100000000000", 100000000000},         // the first millisecond
		{"99999999999999", 99999999999999},     // the last millisecond
		{"100000000000000", 100000000000},      // the first microsecond
		{"9223372036854775807", 9223372036854}, // the last nanosecond in int64
		{"0.001", 1},
	} {
		got, err := ParseTime(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseTime(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"", "not a decimal number"},
		{"abc", "not a decimal number"},
		{"1,5", "not a decimal number"},
		{"0x10", "not a decimal number"},
		{"true", "not a decimal number"},
		{"0", "zero"},
		{"0.000", "zero"},
		{"-1579399877041", "negative"},
		{"0.0009", "less than a millisecond"},
		{"1e-9999999999", "less than a millisecond"},
		{"9223372036854775808", "beyond nanoseconds"},
		{"1e20", "beyond nanoseconds"},
		{"1e9999999999", "beyond nanoseconds"},
		{strings.Repeat("9", 5000), "beyond nanoseconds"},
	} {
		_, err := ParseTime(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) || len(err.Error()) > 120 {
			t.Errorf("ParseTime(%.20q): err = %v, want one naming %q", tc.in, err, tc.want)
		}
	}
}

// Every time a row may carry, as number or string, reads as the same
// millisecond; one that reads as none makes the row malformed.
func TestDecodeHistoryRowTimes(t *testing.T) {
	for _, tc := range []struct {
		name, ts string
		want     int64 // 0: malformed
	}{
		{"milliseconds", `1579399877041`, 1579399877041},
		{"milliseconds as a string", `"1579399877041"`, 1579399877041},
		{"seconds", `1579399877`, 1579399877000},
		{"seconds as a string", `"1579399877"`, 1579399877000},
		{"seconds with a fraction", `1579399877.041`, 1579399877041},
		{"seconds with a fraction as a string", `"1579399877.041"`, 1579399877041},
		{"microseconds", `1579399877041123`, 1579399877041},
		{"microseconds as a string", `"1579399877041123"`, 1579399877041},
		{"nanoseconds", `1579399877041123456`, 1579399877041},
		{"garbage", `"soon"`, 0},
		{"zero", `0`, 0},
		{"negative", `-1579399877041`, 0},
		{"an object", `{"s":1}`, 0},
		{"a bool", `true`, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := decodeHistory(json.RawMessage(`{"rows":[{"id":1,"type":"DEPOSIT","token":"BTC","amount":"1","timestamp":` + tc.ts + `}]}`))
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == 0 {
				if len(p.Malformed) != 1 || !strings.HasPrefix(p.Malformed[0].Err, "timestamp: ") || p.Malformed[0].ID != "1" {
					t.Errorf("page = %+v, want one malformed row naming the timestamp", p)
				}
				return
			}
			if len(p.Records) != 1 || p.Records[0].Timestamp != tc.want {
				t.Errorf("page = %+v, want timestamp %d", p, tc.want)
			}
		})
	}
}

// The envelope's server time goes through the same parser; one that
// reads as none is left out rather than failing the answer.
func TestEnvelopeServerTime(t *testing.T) {
	for in, want := range map[string]int64{
		`1721295317627`:        1721295317627,
		`"1721295317627"`:      1721295317627,
		`"1721295317.627"`:     1721295317627,
		`1721295317`:           1721295317000,
		`1721295317627000`:     1721295317627,
		`"later"`:              0,
		`-1`:                   0,
		`null`:                 0,
		`{"ms":1721295317627}`: 0,
	} {
		var env envelope
		if err := json.Unmarshal([]byte(`{"success":true,"data":{},"timestamp":`+in+`}`), &env); err != nil {
			t.Errorf("%s: envelope refused: %v", in, err)
			continue
		}
		if got := env.serverTimeMs(); got != want {
			t.Errorf("timestamp %s read as %d, want %d", in, got, want)
		}
	}
}

func TestParseTimeTakesPlainTimesAsTheSlowPathDoes(t *testing.T) {
	for _, s := range []string{"100000000000", "1579399877041", "99999999999999", "1732700000000", "123456789012", "12345678901234",
		"99999999999", "1579399877.041", "1579399877", "1711198014.1269"} {
		got, ok := plainTime(s)
		want, werr := parseTimeText(s)
		if !ok || got != want || werr != nil {
			t.Errorf("plainTime(%q) = %d, %v; the full parse gives %d, %v", s, got, ok, want, werr)
		}
	}
	for _, s := range []string{"012345678901", "123456789012345", "+1579399877041", "1579399877041e0", " 1579399877041", "1579399877.", ".5"} {
		if _, ok := plainTime(s); ok {
			t.Errorf("%s taken as a plain time", s)
		}
	}
}
