package client

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// What the plain readers take, they read as the general ones do: the same
// text, the same decimal (coefficient and exponent), the same time, the
// same integer, the same error.
func FuzzPlainMatchesGeneral(f *testing.F) {
	for _, s := range []string{`"1.50"`, `"-0.00000000"`, `" 7 "`, `"1752495884477"`, `"1711198014.126"`, `-12`, `0`, `"0"`,
		`"999999999999999999"`, `"1000000000000000.1"`, `"-999999999999999.9"`, `"5."`, `".5"`, `"1e3"`, `"\u0031"`, `"é"`,
		`null`, `true`, `""`, `"a\"b"`, `"99999999999999.9"`, `"100000000000000"`, `"01752495884477"`, "\"\"\f", "1\f", "\v7"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		text, isNull, err := scalarText(b)
		if err != nil {
			return
		}
		// The text is what encoding/json reads: a string unquoted, anything
		// else as sent.
		want := strings.Trim(string(b), " \t\r\n") // JSON's whitespace, no other
		wantNull := want == "null"
		if !wantNull && want[0] == '"' {
			var u string
			if err := json.Unmarshal(b, &u); err != nil {
				t.Fatalf("scalarText(%q) read %q, encoding/json refuses it: %v", b, text, err)
			}
			want = strings.TrimSpace(u)
		}
		if wantNull {
			want = ""
		}
		if string(text) != want || isNull != wantNull {
			t.Fatalf("scalarText(%q) = %q %v, encoding/json has %q %v", b, text, isNull, want, wantNull)
		}
		s := string(text)
		d, err := parseDecimalBytes(text)
		gd, gerr := parseDecimal(s)
		if !reflect.DeepEqual(d, gd) || !reflect.DeepEqual(err, gerr) {
			t.Fatalf("decimal %q: %v (%v), parseDecimal has %v (%v)", s, d, err, gd, gerr)
		}
		if ms, ok := plainTime(text); ok {
			if gms, err := parseTimeText(s); err != nil || gms != ms {
				t.Fatalf("time %q: %d, parseTimeText has %d (%v)", s, ms, gms, err)
			}
		}
		if v, exp, ok := smallDecimal(text); ok && exp == 0 {
			if gv, ok := parseInt64(s); !ok || gv != v {
				t.Fatalf("integer %q: %d, parseInt64 has %d (%v)", s, v, gv, ok)
			}
		}
	})
}

// Under any bound SetMaxAmount sets, a plain decimal is refused where
// parseDecimal refuses it.
func TestPlainDecimalsHeldToTheBound(t *testing.T) {
	t.Cleanup(func() { SetMaxAmount(decimal.Decimal{}) })
	for _, max := range []string{"1234.5678", "1e-30", "999999999999999999", "1e40", "-5"} {
		SetMaxAmount(decimal.RequireFromString(max))
		for _, s := range []string{"1234.5678", "1234.56781", "1234.5679", "-1234.5678", "1234", "0.000000000000000001",
			"999999999999999999", "-999999999999999999", "5", "5.000000000000001", "0"} {
			d, err := parseDecimalBytes([]byte(s))
			want, wantErr := parseDecimal(s)
			if !reflect.DeepEqual(d, want) || !reflect.DeepEqual(err, wantErr) {
				t.Errorf("bound %s, %s: %v (%v), parseDecimal has %v (%v)", max, s, d, err, want, wantErr)
			}
		}
	}
}
