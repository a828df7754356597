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

// The scalar values of an answer. Numbers come as JSON numbers or strings
// ("10.00000000", "-1011"), never read through float64. A plain value (no
// escapes, at most 18 digits) is read from the answer's bytes, without the
// copy, encoding/json or big.Int arithmetic a general read costs.

// scalarText is the text of a JSON number, string (unquoted, trimmed) or
// boolean, a slice of b unless the string had escapes; isNull for null.
func scalarText(b []byte) (text []byte, isNull bool, err error) {
	b = trimJSONSpace(b)
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

// trimJSONSpace drops JSON's whitespace (space, tab, CR, LF) from both ends;
// any other space character is not JSON and stays for the parser to refuse.
func trimJSONSpace(b []byte) []byte {
	b = b[skipSpace(b, 0):]
	for len(b) > 0 && skipSpace(b[len(b)-1:], 0) == 1 {
		b = b[:len(b)-1]
	}
	return b
}

// plainString is the JSON string b's text, a slice of b, when ASCII without escapes.
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
		// An UnmarshalTypeError: encoding/json adds the field's name to no other.
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

// parseInt64 reads an integer, maybe written with a fraction or exponent
// ("1.0", 1e3), refusing anything outside int64 rather than wrapping, and
// digits ParseInt refuses without an arbitrary-precision parse.
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
	// More integer digits than int64 holds fail before building 10^exponent.
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

// maxNumberText is the longest number read: far beyond any real value, and
// parsed in microseconds (the cost grows with the square of the length).
const maxNumberText = 400

// maxPlainDigits is the most digits smallDecimal reads: 18 fit an int64.
const maxPlainDigits = 18

// smallDecimal reads b when it is digits, maybe signed and with a fraction,
// as coef × 10^exp; ok is false otherwise or beyond maxPlainDigits digits.
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

// zeros are 0 at each exponent smallDecimal gives, smallInts 1 to 100
// (leverages, ranks, a stablecoin's price): a decimal never changes, so one
// stands for every such value read.
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

// bound is MaxAmount and, in within[k], the largest coefficient c (at most
// math.MaxInt64) for which c × 10^-k is within it.
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

// DefaultMaxAmount is the default of SetMaxAmount: past 1e15, a float64
// counter no longer shows a 0.1 deposit.
var DefaultMaxAmount = decimal.New(1, 15)

var maxAmount, defaultBound atomic.Pointer[bound]

// SetMaxAmount sets, for the process, the largest magnitude of a decimal
// read from an answer: a row with a larger one is unreadable, so that no
// exported value is beyond what a float64 carries. Set it once at start;
// zero restores DefaultMaxAmount.
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

// parseDecimal reads a decimal of at most maxNumberText characters and MaxAmount.
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

// truncateForError cuts text from the exchange to quote in an error, its
// hex runs redacted before the cut could hide one: only in a prefix, which
// the quote lies well within, as the regexp over megabytes costs seconds.
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
