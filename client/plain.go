package client

import (
	"bytes"
	"math"
	"unicode/utf8"

	"github.com/shopspring/decimal"
)

// Nearly every number an answer holds is plain: a JSON string or number of
// at most 18 digits, maybe a sign and a fraction, no escapes. The functions
// here read those from the answer's bytes, without the string, the
// encoding/json call and the big.Int arithmetic a general read costs; what
// they do not take goes the general way, which also words every error.

// scalarBytes is scalarText without a copy: the text of a JSON number,
// string or boolean as a slice of b. ok is false when b needs scalarText
// (escapes, non-ASCII text, anything that is no scalar).
func scalarBytes(b []byte) (text []byte, isNull, ok bool) {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0:
		return nil, false, false
	case string(b) == "null":
		return nil, true, true
	case b[0] == '"':
		inner, ok := plainString(b)
		return bytes.TrimSpace(inner), false, ok
	case b[0] == '-' || (b[0] >= '0' && b[0] <= '9'), string(b) == "true", string(b) == "false":
		return b, false, true
	}
	return nil, false, false
}

// plainString is what the JSON string b holds when b is ASCII without
// escapes, as a slice of b.
func plainString(b []byte) (inner []byte, ok bool) {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return nil, false
	}
	inner = b[1 : len(b)-1]
	for _, c := range inner {
		if c < ' ' || c >= utf8.RuneSelf || c == '"' || c == '\\' {
			return nil, false
		}
	}
	return inner, true
}

// parseInt64Bytes is parseInt64 of b's text.
func parseInt64Bytes(b []byte) (int64, bool) {
	if v, exp, ok := smallDecimal(b); ok && exp == 0 {
		return v, true
	}
	return parseInt64(string(b))
}

// fieldBytes is fieldText as a slice of raw where it can be: the text of a
// field that holds a JSON number or string; present is false when the
// field is absent, null or "".
func fieldBytes(raw []byte) (text []byte, present bool, err error) {
	if len(raw) == 0 {
		return nil, false, nil
	}
	if t, isNull, ok := scalarBytes(raw); ok {
		return t, !isNull && len(t) > 0, nil
	}
	s, present, err := fieldText(raw)
	return []byte(s), present, err
}

// maxPlainDigits is the most digits smallDecimal reads: any 18 digits fit
// an int64.
const maxPlainDigits = 18

// smallDecimal reads b when it is digits, maybe after a minus and with a
// fraction: the decimal coef × 10^exp. ok is false for anything else and
// for more than maxPlainDigits digits.
func smallDecimal[T ~string | ~[]byte](b T) (coef int64, exp int32, ok bool) {
	i := 0
	if len(b) > 0 && b[0] == '-' {
		i = 1
	}
	start, point, digits := i, -1, 0
	for ; i < len(b); i++ {
		switch c := b[i]; {
		case c >= '0' && c <= '9':
			coef = coef*10 + int64(c-'0')
			digits++
		case c == '.' && point < 0 && i > start && i < len(b)-1:
			point = i
		default:
			return 0, 0, false
		}
		if digits > maxPlainDigits {
			return 0, 0, false
		}
	}
	if digits == 0 {
		return 0, 0, false
	}
	if point >= 0 {
		exp = int32(point - len(b) + 1)
	}
	if start == 1 {
		coef = -coef
	}
	return coef, exp, true
}

// zeros are 0 at each exponent smallDecimal gives, 0 to -maxPlainDigits,
// and smallInts the integers 1 to 100 (leverages, ranks, a stablecoin's
// price): a decimal is never changed once made, so one can stand for every
// such value read.
var zeros, smallInts = func() (z [maxPlainDigits + 1]decimal.Decimal, n [101]decimal.Decimal) {
	for k := range z {
		z[k] = decimal.New(0, int32(-k))
	}
	for v := range n {
		n[v] = decimal.New(int64(v), 0)
	}
	return z, n
}()

// parseDecimalBytes is parseDecimal of b's text.
func parseDecimalBytes(b []byte) (decimal.Decimal, error) {
	if coef, exp, ok := smallDecimal(b); ok && abs64(coef) <= amountBound().within[-exp] {
		switch {
		case coef == 0:
			return zeros[-exp], nil
		case exp == 0 && coef > 0 && coef < int64(len(smallInts)):
			return smallInts[coef], nil
		}
		return decimal.New(coef, exp), nil
	}
	return parseDecimal(string(b))
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// bound is MaxAmount and what a plain decimal is held to: within[k] is
// the largest coefficient c for which c × 10^-k is within max, at most
// math.MaxInt64.
type bound struct {
	max    decimal.Decimal
	within [maxPlainDigits + 1]int64
}

func newBound(m decimal.Decimal) *bound {
	b := &bound{max: m}
	limit := decimal.New(math.MaxInt64, 0)
	for k := range b.within {
		if c := m.Shift(int32(k)).Floor(); c.LessThan(limit) {
			b.within[k] = c.IntPart()
		} else {
			b.within[k] = math.MaxInt64
		}
	}
	return b
}
