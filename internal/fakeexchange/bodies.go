package fakeexchange

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
)

// snakeCase spells a camelCase name in snake_case: marginRatio is
// margin_ratio.
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

// decimalField renders decimal text in the scenario's number mode; empty
// text stays empty, so set leaves the field out.
func (e *Exchange) decimalField(text string) any {
	if text == "" {
		return ""
	}
	return e.number(text)
}

// numberField renders decimal text the live answer sends as a JSON number
// (account info's leverage): a number, or a string when the scenario sends
// every number as one.
func (e *Exchange) numberField(text string) any {
	if text == "" {
		return ""
	}
	if e.s.NumbersAsStrings {
		return text
	}
	return json.Number(text)
}

// rowTime renders a Unix millisecond time in the scenario's row time unit
// (token history and balances).
func (e *Exchange) rowTime(ms int64) any { return e.timeIn(e.s.RowTimeUnit, ms) }

// walletTime renders a Unix millisecond time in the unit of wallet and
// sub-account rows.
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

// formatSecondsFraction writes ms as seconds with three decimals, as
// sibling v3 endpoints send times: "1579399877.041".
func formatSecondsFraction(ms int64) string {
	return fmt.Sprintf("%d.%03d", ms/1000, ms%1000)
}

// stamped is an answer read at server time ms: its envelope carries ms as
// its timestamp, rather than the time the answer is sent.
type stamped struct {
	data any
	ms   int64
}

// successBody is the success envelope of data, stamped with the server
// time now unless data is stamped.
func (e *Exchange) successBody(data any) []byte {
	ms := e.now().UnixMilli()
	if s, ok := data.(stamped); ok {
		data, ms = s.data, s.ms
	}
	return mustJSON(envelope{Success: true, Data: data, Timestamp: e.integer(ms)})
}
