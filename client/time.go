package client

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// ParseTime reads a time the exchange sent, the text of a JSON number or
// string, in Unix milliseconds. The endpoints disagree on the unit (token
// history has milliseconds, others seconds with a fraction) and nothing
// documents which a field uses; the magnitude tells, since any time
// between 1973 and 5138 falls in exactly one band:
//
//	0     < v < 1e11  seconds, with or without a fraction
//	1e11 <= v < 1e14  milliseconds
//	1e14 <= v < 1e17  microseconds
//	1e17 <= v < 2^63  nanoseconds (as int64 holds them, to 2262)
//
// Anything else is an error. Digits finer than a millisecond are cut off,
// not rounded, and no value goes through a float.
func ParseTime(text string) (int64, error) { return parseTimeBytes([]byte(text)) }

// parseTimeBytes is ParseTime of b's text.
func parseTimeBytes(b []byte) (int64, error) {
	if ms, ok := plainTime(b); ok {
		return ms, nil
	}
	return parseTimeText(string(b))
}

// plainTime is parseTimeText, without its regular expression, of the times
// answers hold (1 to 14 integer digits, the first not 0, and a fraction).
func plainTime[T ~string | ~[]byte](s T) (ms int64, ok bool) {
	intDigits := 0
	for intDigits < len(s) && s[intDigits] >= '0' && s[intDigits] <= '9' {
		intDigits++
	}
	if intDigits == 0 || intDigits > 14 || s[0] == '0' {
		return 0, false
	}
	if intDigits < len(s) && (s[intDigits] != '.' || intDigits == len(s)-1) {
		return 0, false
	}
	keep := intDigits // digits of the whole milliseconds
	if intDigits <= 11 {
		keep += 3 // seconds
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case i == intDigits: // the point
		case c < '0' || c > '9':
			return 0, false
		case n < keep:
			ms = ms*10 + int64(c-'0')
			n++
		}
	}
	for ; n < keep; n++ {
		ms *= 10
	}
	return ms, true
}

// parseTimeText is ParseTime for any text.
func parseTimeText(text string) (int64, error) {
	s := strings.TrimSpace(text)
	m := timeText.FindStringSubmatch(s)
	if m == nil || m[2]+m[3] == "" {
		return 0, fmt.Errorf("invalid time %q: not a decimal number", truncateForError(s))
	}
	sign, intPart, frac, expText := m[1], m[2], m[3], m[4]
	digits := strings.TrimLeft(intPart+frac, "0")
	if digits == "" {
		return 0, fmt.Errorf("invalid time %q: zero is no time", truncateForError(s))
	}
	if sign == "-" {
		return 0, fmt.Errorf("invalid time %q: negative", truncateForError(s))
	}
	exp := 0
	if expText != "" {
		e, err := strconv.ParseInt(expText, 10, 32)
		switch {
		case err != nil && strings.HasPrefix(expText, "-"):
			return 0, fmt.Errorf("invalid time %q: less than a millisecond after 1970", truncateForError(s))
		case err != nil:
			return 0, fmt.Errorf("invalid time %q: beyond nanoseconds", truncateForError(s))
		}
		exp = int(e)
	}
	// The value is digits × 10^exp; its integer digits pick the band.
	exp -= len(frac)
	intDigits := len(digits) + exp
	var shift int // power of ten that turns the unit into milliseconds
	switch {
	case intDigits <= 11:
		shift = 3
	case intDigits <= 14:
		shift = 0
	case intDigits <= 17:
		shift = -3
	case intDigits < 19 || (intDigits == 19 && padDigits(digits, 19) <= maxInt64Text):
		shift = -6
	default:
		return 0, fmt.Errorf("invalid time %q: beyond nanoseconds", truncateForError(s))
	}
	keep := intDigits + shift // digits of the whole milliseconds
	if keep <= 0 {
		return 0, fmt.Errorf("invalid time %q: less than a millisecond after 1970", truncateForError(s))
	}
	// At most 14 digits (2^63 ns is below 1e13 ms): always within int64.
	v, err := strconv.ParseInt(padDigits(digits, keep), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("invalid time %q: %w", truncateForError(s), err)
	}
	return v, nil
}

// maxInt64Text is math.MaxInt64 in decimal: 19 digits.
const maxInt64Text = "9223372036854775807"

// padDigits is the first n digits of digits, padded with zeros to n.
func padDigits(digits string, n int) string {
	if n <= len(digits) {
		return digits[:n]
	}
	return digits + strings.Repeat("0", n-len(digits))
}

// timeText is a decimal number, leniently: with leading zeros, "+" or a bare ".".
var timeText = regexp.MustCompile(`^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$`)
