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

	"github.com/shopspring/decimal"
)

// The exchange sends numbers sometimes as JSON numbers and sometimes as JSON
// strings ("10.00000000", "1", "-1011"); these types accept both and never go
// through float64.

// flexInt is an integer that arrives as a JSON number or string.
type flexInt struct {
	Value int64
	set   bool
}

func (n *flexInt) UnmarshalJSON(b []byte) error {
	if t, _, ok := scalarBytes(b); ok {
		if v, exp, ok := smallDecimal(t); ok && exp == 0 {
			n.Value, n.set = v, true
			return nil
		}
	}
	s, isNull, err := scalarText(b)
	if err != nil || isNull {
		return err
	}
	if s == "" {
		return nil
	}
	v, ok := parseInt64(s)
	if !ok {
		// An UnmarshalTypeError, because encoding/json adds the field's
		// name to it and to no other error.
		return &json.UnmarshalTypeError{Value: fmt.Sprintf("invalid integer %q (not an integer within int64)", truncateForError(s)), Type: reflect.TypeFor[int64]()}
	}
	n.Value, n.set = v, true
	return nil
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

// scalarText returns the text of a JSON string or number.
func scalarText(b []byte) (s string, isNull bool, err error) {
	if t, isNull, ok := scalarBytes(b); ok {
		return string(t), isNull, nil
	}
	return unquoteScalar(b)
}

// unquoteScalar is scalarText for any value, through encoding/json.
func unquoteScalar(b []byte) (s string, isNull bool, err error) {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0:
		return "", false, errors.New("empty value")
	case bytes.Equal(b, []byte("null")):
		return "", true, nil
	case b[0] == '"':
		if err := json.Unmarshal(b, &s); err != nil {
			return "", false, err
		}
		return strings.TrimSpace(s), false, nil
	case b[0] == '-' || (b[0] >= '0' && b[0] <= '9'):
		return string(b), false, nil
	case bytes.Equal(b, []byte("true")) || bytes.Equal(b, []byte("false")):
		return string(b), false, nil
	default:
		return "", false, fmt.Errorf("expected a number or string, got %s", truncateForError(string(b)))
	}
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
