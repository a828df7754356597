package client

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"testing"
)

// digitBombs are answers, each under the 8 MiB cap, with one number of n
// digits where the exporter reads a number: the envelope's code,
// meta.total, a history id and amount, and a balance.
func digitBombs(n int) map[string][]byte {
	d := strings.Repeat("9", n)
	row := func(id, amount string) string {
		return `{"id":` + id + `,"type":"DEPOSIT","token":"USDT","amount":` + amount + `,"timestamp":1721295317627}`
	}
	history := func(code, total, id, amount string) []byte {
		return []byte(`{"success":true,"code":` + code + `,"data":{"rows":[` + row(id, amount) + `],"meta":{"total":` + total +
			`,"recordsPerPage":25,"currentPage":1}},"timestamp":1721295317627}`)
	}
	return map[string][]byte{
		"code":           history(d, "1", "1", `"1"`),
		"meta.total":     history("0", d, "1", `"1"`),
		"history id":     history("0", "1", d, `"1"`),
		"history amount": history("0", "1", "1", d),
		"balance":        []byte(`{"success":true,"data":{"holding":[{"token":"USDT","holding":"` + d + `"}]},"timestamp":1721295317627}`),
	}
}

// decodeBomb reads an answer as the client does: the envelope, then the
// data as token history and as balances, every error rendered.
func decodeBomb(body []byte) (refused int) {
	var env envelope
	if err := json.Unmarshal(body, &env); err != nil {
		_ = err.Error()
		return 1
	}
	p, err := decodeHistory(env.Data)
	if err != nil {
		_ = err.Error()
		refused++
	}
	l, _ := decodeBalances(env.Data)
	return refused + len(p.Malformed) + len(l.rejected)
}

// Every number of a bomb is refused, whichever field holds it.
func TestDigitBombsAreRefused(t *testing.T) {
	for name, body := range digitBombs(3_000_000) {
		if decodeBomb(body) == 0 {
			t.Errorf("%s: a 3,000,000-digit number was read", name)
		}
	}
}

// BenchmarkDigitBomb decodes each bomb at two lengths: a cost linear in
// the length triples from 1,000,000 to 3,000,000 digits (a quadratic one
// grows ninefold).
func BenchmarkDigitBomb(b *testing.B) {
	for _, n := range []int{1_000_000, 3_000_000} {
		for name, body := range digitBombs(n) {
			b.Run(fmt.Sprintf("%s/%d", strings.ReplaceAll(name, " ", "_"), n), func(b *testing.B) {
				b.SetBytes(int64(len(body)))
				for b.Loop() {
					decodeBomb(body)
				}
			})
		}
	}
}

// FuzzNumberText: whatever the text, an integer read is within int64 and
// the number written, a decimal read is at most maxNumberText long, within
// MaxAmount and the number written; longer text, repeated from the input,
// is refused.
func FuzzNumberText(f *testing.F) {
	for _, s := range []string{"1", "-0", "1.0", "1e3", "9223372036854775807", "9223372036854775808", "1e400", "1e15", "1000000000000000.1", "1e-400", "0x10", "9.9e14"} {
		f.Add(s, uint16(1))
	}
	f.Fuzz(func(t *testing.T, s string, repeat uint16) {
		if repeat > 1 && len(s)*int(repeat) <= 1<<20 {
			s = strings.Repeat(s, int(repeat))
		}
		if v, ok := parseInt64(s); ok {
			r, rok := new(big.Rat).SetString(s)
			if !rok || !r.IsInt() || r.Num().Cmp(big.NewInt(v)) != 0 {
				t.Fatalf("parseInt64(%.80q) = %d", s, v)
			}
		}
		d, err := parseDecimal(s)
		if err != nil {
			return
		}
		if len(s) > maxNumberText {
			t.Fatalf("parseDecimal read %d characters", len(s))
		}
		if d.Abs().GreaterThan(MaxAmount()) {
			t.Fatalf("parseDecimal(%q) = %s, beyond %s", s, d, MaxAmount())
		}
		if r, ok := new(big.Rat).SetString(s); !ok || r.Cmp(d.Rat()) != 0 {
			t.Fatalf("parseDecimal(%q) = %s", s, d)
		}
	})
}
