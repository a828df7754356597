package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/shopspring/decimal"
)

// The scalar values of an answer: text, integers and decimals. The exchange
// sends numbers sometimes as JSON numbers and sometimes as JSON strings
// ("10.00000000", "1", "-1011"); both are read, never through float64.
// Nearly every value is plain: a string without escapes, a number of at most
// 18 digits. Those are read from the answer's bytes, without the copy, the
// encoding/json call or the big.Int arithmetic a general read costs.

// scalarText is the text of a JSON number, string (unquoted, trimmed) or
// boolean, a slice of b unless the string had escapes; isNull for null.
func scalarText(b []byte) (text []byte, isNull bool, err error) {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0:
		return nil, false, errors.New("empty value")
	case string(b) == "null":
		return nil, true, nil
	case b[0] == '"':
		if inner, ok := plainString(b); ok {
			return bytes.TrimSpace(inner), false, nil
		}
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return nil, false, err
		}
		return []byte(strings.TrimSpace(s)), false, nil
	case b[0] == '-' || (b[0] >= '0' && b[0] <= '9'), string(b) == "true", string(b) == "false":
		return b, false, nil
	}
	return nil, false, fmt.Errorf("expected a number or string, got %s", truncateForError(string(b)))
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

// fieldBytes is the text of a field that holds a JSON number or string;
// present is false when the field is absent, null or "".
func fieldBytes(raw []byte) (text []byte, present bool, err error) {
	if len(raw) == 0 {
		return nil, false, nil
	}
	text, isNull, err := scalarText(raw)
	return text, err == nil && !isNull && len(text) > 0, err
}

// flexInt is an integer that arrives as a JSON number or string.
type flexInt struct {
	Value int64
	set   bool
}

func (n *flexInt) UnmarshalJSON(b []byte) error {
	t, isNull, err := scalarText(b)
	if err != nil || isNull || len(t) == 0 {
		return err
	}
	v, ok := parseInt64Bytes(t)
	if !ok {
		// An UnmarshalTypeError, because encoding/json adds the field's
		// name to it and to no other error.
		return &json.UnmarshalTypeError{Value: fmt.Sprintf("invalid integer %q (not an integer within int64)", truncateForError(string(t))), Type: reflect.TypeFor[int64]()}
	}
	n.Value, n.set = v, true
	return nil
}

// parseInt64Bytes is parseInt64 of b's text.
func parseInt64Bytes(b []byte) (int64, bool) {
	if v, exp, ok := smallDecimal(b); ok && exp == 0 {
		return v, true
	}
	return parseInt64(string(b))
}

// parseInt64 reads an integer that may be written with a fraction or an
// exponent ("1.0", 1e3), and refuses anything outside int64 rather than
// letting it wrap. Plain digits that ParseInt refuses are refused without an
// arbitrary-precision parse, whose cost grows with the square of the length.
func parseInt64(s string) (int64, bool) {
	v, err := strconv.ParseInt(s, 10, 64)
	switch {
	case err == nil:
		return v, true
	case errors.Is(err, strconv.ErrRange), len(s) > maxNumberText:
		return 0, false
	}
	d, err := decimal.NewFromString(s)
	if err != nil || !d.IsInteger() {
		return 0, false
	}
	if d.IsZero() {
		return 0, true
	}
	// Integer digits beyond int64's 19 fail without building 10^exponent
	// for the comparison (the decimal package allows exponents to 10000).
	if int64(len(d.Coefficient().String()))+int64(d.Exponent()) > 20 {
		return 0, false
	}
	if d.LessThan(minInt64) || d.GreaterThan(maxInt64) {
		return 0, false
	}
	return d.IntPart(), true
}

var (
	minInt64 = decimal.NewFromInt(math.MinInt64)
	maxInt64 = decimal.NewFromInt(math.MaxInt64)
)

// maxNumberText is the longest number text read from an answer: far beyond
// any real value, and short enough that a decimal parse of it costs
// microseconds (its cost grows with the square of the length).
const maxNumberText = 400

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

// DefaultMaxAmount is the default of SetMaxAmount: float64 keeps about 15
// significant digits, so a counter past 1e15 token units no longer shows a
// 0.1 deposit.
var DefaultMaxAmount = decimal.New(1, 15)

var maxAmount, defaultBound atomic.Pointer[bound]

// SetMaxAmount sets, for the whole process, the largest magnitude of a
// decimal read from an answer (an amount, a balance, a price): a row with a
// larger one is unreadable, so that no exported value or counter is beyond
// what a float64 carries meaningfully. Set it once at start, as
// decimal.MaxDecodeExponent. Zero restores DefaultMaxAmount.
func SetMaxAmount(d decimal.Decimal) {
	if d.IsZero() {
		d = DefaultMaxAmount
	}
	maxAmount.Store(newBound(d.Abs()))
}

// MaxAmount is the bound SetMaxAmount set, DefaultMaxAmount before.
func MaxAmount() decimal.Decimal {
	if p := maxAmount.Load(); p != nil {
		return p.max
	}
	return DefaultMaxAmount
}

// amountBound is MaxAmount with what plain decimals are held to.
func amountBound() *bound {
	if p := maxAmount.Load(); p != nil {
		return p
	}
	b := defaultBound.Load()
	if b == nil || !b.max.Equal(DefaultMaxAmount) {
		b = newBound(DefaultMaxAmount)
		defaultBound.Store(b)
	}
	return b
}

// parseDecimal reads a decimal from an answer: at most maxNumberText
// characters, its magnitude at most MaxAmount.
func parseDecimal(s string) (decimal.Decimal, error) {
	if len(s) > maxNumberText {
		return decimal.Decimal{}, fmt.Errorf("invalid decimal %q: longer than %d characters", truncateForError(s), maxNumberText)
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Decimal{}, fmt.Errorf("invalid decimal %q", truncateForError(s))
	}
	if m := MaxAmount(); d.Abs().GreaterThan(m) {
		return decimal.Decimal{}, fmt.Errorf("decimal %q beyond %s in magnitude, more than a counter or gauge carries exactly", truncateForError(s), m)
	}
	return d, nil
}

// truncateForError cuts text from the exchange to quote in an error. Its
// long hex runs are redacted before the cut, which could shorten one below
// the length that is recognised; only a prefix is redacted, as the regexp's
// cost over millions of digits is seconds, and redaction shrinks a run to
// no less than a third, so the quote lies well within the prefix.
func truncateForError(s string) string {
	const redactPrefix = 4096
	if len(s) > redactPrefix {
		s = s[:redactPrefix]
	}
	s = redactHex(s)
	const maxLen = 64
	if len(s) > maxLen {
		return s[:maxLen] + "..."
	}
	return s
}
