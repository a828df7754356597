package fakeexchange

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
)

// snakeCase spells a camelCase name in snake_case.
func snakeCase(camel string) string {
	var b strings.Builder
	for i, r := range camel {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// decimalField renders decimal text in the scenario's number mode; empty stays
// empty.
func (e *Exchange) decimalField(text string) any {
	if text == "" {
		return ""
	}
	return e.number(text)
}

// numberField renders decimal text sent as a JSON number live (leverage), a
// string when every number is one.
func (e *Exchange) numberField(text string) any {
	if text == "" {
		return ""
	}
	if e.s.NumbersAsStrings {
		return text
	}
	return json.Number(text)
}

// rowTime renders Unix ms in the row time unit.
func (e *Exchange) rowTime(ms int64) any { return e.timeIn(e.s.RowTimeUnit, ms) }

// walletTime renders Unix ms in the wallet time unit.
func (e *Exchange) walletTime(ms int64) any { return e.timeIn(e.s.WalletTimeUnit, ms) }

// timeIn renders a Unix millisecond time in unit (RowTimeMillis when "").
func (e *Exchange) timeIn(unit string, ms int64) any {
	switch unit {
	case RowTimeSeconds:
		return e.integer(ms / 1000)
	case RowTimeSecondsFraction:
		return formatSecondsFraction(ms)
	default:
		return e.integer(ms)
	}
}

// formatSecondsFraction writes ms as seconds with three decimals:
// "1579399877.041".
func formatSecondsFraction(ms int64) string {
	return fmt.Sprintf("%d.%03d", ms/1000, ms%1000)
}

// stamped is an answer read at ms, which its envelope carries.
type stamped struct {
	data any
	ms   int64
}

// successBody is the success envelope of data, stamped now unless data is.
func (e *Exchange) successBody(data any) []byte {
	ms := e.now().UnixMilli()
	if s, ok := data.(stamped); ok {
		data, ms = s.data, s.ms
	}
	return mustJSON(wireObject{{"success", true}, {"data", data}, {"timestamp", e.integer(ms)}})
}
