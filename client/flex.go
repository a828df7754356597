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
// letting it wrap.
func parseInt64(s string) (int64, bool) {
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		return v, true
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

// scalarText returns the text of a JSON string or number.
func scalarText(b []byte) (s string, isNull bool, err error) {
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
// the length that is recognised.
func truncateForError(s string) string {
	s = redactHex(s)
	const maxLen = 64
	if len(s) > maxLen {
		return s[:maxLen] + "..."
	}
	return s
}
