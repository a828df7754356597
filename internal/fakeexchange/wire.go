package fakeexchange

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

// A row type says how each field is sent with a wire tag,
// `wire:"camelName,kind,options"`, so that one renderer serves every reading
// of the API and one validator and one patch serve every row.
//
// Kinds: text (the default); decimal (exact text: a string, or a JSON number
// with numbers_as_json_numbers); number (a JSON number, a string only when
// every number is one); integer; flag (a *bool, see flag); wallet_time and
// row_time (Unix ms, sent in the scenario's unit for wallet or history rows).
// Options: key (the row's identity, must be set), required, always (sent
// when empty; otherwise empty fields are left out), snake=NAME (its
// snake_case name, when not derived). A struct field is sent as an object.
type wireField struct {
	index                 int
	name, snake, yaml     string
	kind                  string
	key, required, always bool
}

var wireFieldsByType sync.Map // reflect.Type → []wireField

// wireFieldsOf are the wire-tagged fields of a row type, in their order.
func wireFieldsOf(t reflect.Type) []wireField {
	if fs, ok := wireFieldsByType.Load(t); ok {
		return fs.([]wireField)
	}
	var out []wireField
	for i := range t.NumField() {
		sf := t.Field(i)
		tag, ok := sf.Tag.Lookup("wire")
		if !ok {
			continue
		}
		parts := strings.Split(tag, ",")
		f := wireField{index: i, name: parts[0], snake: snakeCase(parts[0]), yaml: strings.Split(sf.Tag.Get("yaml"), ",")[0]}
		for _, p := range parts[1:] {
			switch {
			case p == "key":
				f.key = true
			case p == "required":
				f.required = true
			case p == "always":
				f.always = true
			case strings.HasPrefix(p, "snake="):
				f.snake = strings.TrimPrefix(p, "snake=")
			default:
				f.kind = p
			}
		}
		out = append(out, f)
	}
	wireFieldsByType.Store(t, out)
	return out
}

// wireObject is a JSON object whose fields keep their order.
type wireObject []wireValue

type wireValue struct {
	name  string
	value any
}

// MarshalJSON writes the fields in order.
func (o wireObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		v, err := json.Marshal(f.value)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(mustJSON(f.name))
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// with is o and one more field in the scenario's spelling; empty text left out.
func (e *Exchange) with(o wireObject, camel string, v any) wireObject {
	if s, ok := v.(string); ok && s == "" {
		return o
	}
	if e.s.SnakeCaseBodies {
		camel = snakeCase(camel)
	}
	return append(o, wireValue{camel, v})
}

// render is a row as sent, in its type's field order.
func (e *Exchange) render(row any) wireObject { return e.renderValue(reflect.ValueOf(row)) }

func (e *Exchange) renderValue(v reflect.Value) wireObject {
	o := wireObject{}
	for _, f := range wireFieldsOf(v.Type()) {
		val, ok := e.wireValueOf(f, v.Field(f.index))
		if !ok {
			continue
		}
		name := f.name
		if e.s.SnakeCaseBodies {
			name = f.snake
		}
		o = append(o, wireValue{name, val})
	}
	return o
}

// wireValueOf is a field's value as sent; false for a field left out.
func (e *Exchange) wireValueOf(f wireField, v reflect.Value) (any, bool) {
	switch v.Kind() {
	case reflect.Pointer: // *bool
		if v.IsNil() {
			return nil, f.always
		}
		return e.flag(v.Elem().Bool()), true
	case reflect.Struct:
		return e.renderValue(v), true
	case reflect.Slice:
		return v.Interface(), !v.IsNil()
	case reflect.Int, reflect.Int64:
		n := v.Int()
		if n == 0 && !f.always {
			return nil, false
		}
		switch f.kind {
		case "decimal":
			return e.number(strconv.FormatInt(n, 10)), true
		case "wallet_time":
			return e.timeIn(e.s.WalletTimeUnit, n), true
		case "row_time":
			return e.timeIn(e.s.RowTimeUnit, n), true
		}
		return e.integer(n), true
	}
	s := v.String()
	if s == "" && !f.always {
		return nil, false
	}
	switch f.kind {
	case "decimal":
		return e.decimalField(s), true
	case "number":
		return e.numberField(s), true
	}
	return s, true
}

// flag renders a flag as each reading sends it: true/false (docs), 1/0 (v1 and
// JSON numbers), and as strings when every number is one.
func (e *Exchange) flag(b bool) any {
	n, word := "0", "false"
	if b {
		n, word = "1", "true"
	}
	switch {
	case e.s.NumbersAsStrings && e.s.SnakeCaseBodies:
		return n
	case e.s.NumbersAsStrings:
		return word
	case e.s.SnakeCaseBodies || e.s.NumbersAsJSONNumbers:
		return json.Number(n)
	}
	return b
}

// validateRow checks a row by its tags (keys and required fields set, decimals
// decimal) and its own check; keyOnly, for a removal, checks the keys alone.
func validateRow(row any, keyOnly bool) error {
	v := reflect.ValueOf(row)
	for _, f := range wireFieldsOf(v.Type()) {
		fv := v.Field(f.index)
		if (f.key || f.required && !keyOnly) && fv.IsZero() {
			return fieldErr(f.yaml, "must not be empty")
		}
		if keyOnly || fv.Kind() != reflect.String || fv.String() == "" || f.kind != "decimal" && f.kind != "number" {
			continue
		}
		if !decimalText.MatchString(fv.String()) {
			return fieldErr(f.yaml, "not a decimal: %q", fv.String())
		}
	}
	if c, ok := row.(interface{ check() error }); ok && !keyOnly {
		return c.check()
	}
	return nil
}

// compareKeys orders rows of one type by their key fields.
func compareKeys(x, y any) int {
	vx, vy := reflect.ValueOf(x), reflect.ValueOf(y)
	for _, f := range wireFieldsOf(vx.Type()) {
		a, b := vx.Field(f.index), vy.Field(f.index)
		switch {
		case !f.key:
		case a.CanInt():
			if c := cmp.Compare(a.Int(), b.Int()); c != 0 {
				return c
			}
		default:
			if c := cmp.Compare(a.String(), b.String()); c != 0 {
				return c
			}
		}
	}
	return 0
}

// rowID is the row's id, its first integer key field.
func rowID(row any) int64 {
	v := reflect.ValueOf(row)
	for _, f := range wireFieldsOf(v.Type()) {
		if f.key && v.Field(f.index).CanInt() {
			return v.Field(f.index).Int()
		}
	}
	return 0
}

// rowKey is the row's identity for messages ("symbol X side BOTH").
func rowKey(row any) string {
	v := reflect.ValueOf(row)
	var parts []string
	for _, f := range wireFieldsOf(v.Type()) {
		if f.key {
			parts = append(parts, f.yaml[strings.LastIndex(f.yaml, "_")+1:]+" "+fmt.Sprint(v.Field(f.index).Interface()))
		}
	}
	return strings.Join(parts, " ")
}

// patchRow sets every field of *dst that src sets, copying pointed values.
func patchRow[R any](dst *R, src R) {
	d, s := reflect.ValueOf(dst).Elem(), reflect.ValueOf(src)
	for i := range s.NumField() {
		f := s.Field(i)
		if !d.Field(i).CanSet() || f.IsZero() {
			continue
		}
		if f.Kind() == reflect.Pointer {
			p := reflect.New(f.Type().Elem())
			p.Elem().Set(f.Elem())
			f = p
		}
		d.Field(i).Set(f)
	}
}

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

// decimalField renders decimal text in the number mode; empty stays empty.
func (e *Exchange) decimalField(text string) any {
	if text == "" {
		return ""
	}
	return e.number(text)
}

// numberField renders decimal text sent as a JSON number in real answers (leverage), a
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

// formatSecondsFraction writes ms as seconds, three decimals: "1579399877.041".
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
