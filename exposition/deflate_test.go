package exposition

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// exposition is n bytes of text like a family's metrics.
func exposition(n int) []byte {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "woox_token_history_amount_total{account=\"acct-%03d\",token=\"TOK%04d\",type=\"DEPOSIT\"} %d.%d\n", i%17, i%9, i*7919, i%10)
	}
	return []byte(b.String()[:n])
}

// Every body, in every size the window and the match lengths care about,
// reads back as itself, alone and as one of several members.
func TestFixedMemberReadsBack(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rnd.UintN(256))
		}
		return b
	}
	bodies := [][]byte{nil, {'x'}, []byte("abc"), []byte("abcd"), bytes.Repeat([]byte{'a'}, 1000),
		bytes.Repeat([]byte("0123456789"), 100), random(300), random(70_000)}
	for _, n := range []int{100, 1000, 5000, 40_000, 200_000} {
		bodies = append(bodies, exposition(n))
	}
	var e fixedEncoder
	var all, want []byte
	for _, b := range bodies {
		z := e.member(nil, b)
		if got := gunzip(t, z); !bytes.Equal(got, b) {
			t.Errorf("%d bytes read back as %d bytes, different", len(b), len(got))
		}
		all, want = append(all, z...), append(want, b...)
	}
	if got := gunzip(t, all); !bytes.Equal(got, want) {
		t.Errorf("the members together read back as %d bytes, want %d", len(got), len(want))
	}
	if z := e.member(nil, exposition(5000)); len(z) > 5000/4 {
		t.Errorf("5,000 bytes of exposition compressed to %d bytes, want at most a quarter", len(z))
	}
}

// A table whose positions near the limit of int32 starts over, and old
// positions never match.
func TestFixedEncoderStartsOverBeforeOverflow(t *testing.T) {
	e := fixedEncoder{base: 1<<31 - 1 - 1000}
	b := exposition(3000)
	if got := gunzip(t, e.member(nil, b)); !bytes.Equal(got, b) {
		t.Error("the body after the start over reads back different")
	}
	if e.base > 1<<20 {
		t.Errorf("base %d after the start over", e.base)
	}
}

func FuzzFixedMember(f *testing.F) {
	f.Add([]byte("woox_poll_success{account=\"a\",endpoint=\"balances\"} 1\n"), []byte("aaaaaaaaaaaaaaaa"))
	var e fixedEncoder
	f.Fuzz(func(t *testing.T, a, b []byte) {
		z := e.member(e.member(nil, a), b)
		if got := gunzip(t, z); !bytes.Equal(got, append(append([]byte{}, a...), b...)) {
			t.Errorf("%q then %q read back as %q", a, b, got)
		}
	})
}

func BenchmarkMember(b *testing.B) {
	for _, n := range []int{100, 1000, 5000, 40_000} {
		body := exposition(n)
		b.Run(fmt.Sprintf("fixed/%d", n), func(b *testing.B) {
			var e fixedEncoder
			var z []byte
			for b.Loop() {
				z = e.member(z[:0], body)
			}
			b.ReportMetric(float64(len(z)), "bytes")
		})
		b.Run(fmt.Sprintf("flate/%d", n), func(b *testing.B) {
			var z []byte
			for b.Loop() {
				z = compressFlate(body)
			}
			b.ReportMetric(float64(len(z)), "bytes")
		})
	}
}
