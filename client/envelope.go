package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/valyala/fastjson"
)

// PageMeta is the pagination block of list answers.
type PageMeta struct {
	Total          int
	RecordsPerPage int
	CurrentPage    int
}

// envelope is the wrapper of every answer.
type envelope struct {
	Success *bool   `json:"success"`
	Code    flexInt `json:"code"`
	Message string  `json:"message"`
	// Timestamp is read apart (serverTimeMs): an unreadable server time
	// must not cost the answer it came with. Data is read by the decoders.
	Timestamp *fastjson.Value `json:"-"`
	Data      *fastjson.Value `json:"-"`
}

// jsonNull, jsonTrue and jsonFalse are the values fastjson gives for
// null, true and false, one each: comparing to them tells a value's type
// without Type, which unescapes a string in place (its text is then no
// longer as sent, which the readers need).
var jsonNull, jsonTrue, jsonFalse = fastjson.MustParse("null"), fastjson.MustParse("true"), fastjson.MustParse("false")

// array is v's elements; ok is false when v is no array. fastjson's Array
// words its error with Type, which unescapes a string in place.
func array(v *fastjson.Value) (elems []*fastjson.Value, ok bool) {
	if a := v.GetArray(); a != nil {
		return a, true
	}
	return nil, v.GetObject() == nil && string(v.MarshalTo(nil)) == "[]"
}

// parsers read the answers: a parser keeps its memory for the next one.
var parsers fastjson.ParserPool

// parseJSON parses b and hands its value to read; the value and all it
// holds live only as long as the call. What encoding/json refuses is
// refused with encoding/json's error.
func parseJSON(b []byte, read func(*fastjson.Value) error) error {
	p := parsers.Get()
	defer func() {
		// A parser keeps what it made: the parse of a rare answer of
		// megabytes is not held on to, as its body is not.
		if len(b) <= maxPooledBody {
			parsers.Put(p)
		}
	}()
	v, err := p.ParseBytes(b)
	if err == nil {
		// The parser passes malformed numbers and strings; its depth
		// limit keeps the validator's recursion short.
		err = fastjson.ValidateBytes(b)
	}
	if err == nil && hasControl(b) && !json.Valid(b) {
		// The validator misses a control character before an escape in
		// a string: encoding/json judges an answer that has one.
		err = errors.New("invalid JSON")
	}
	if err != nil {
		if jerr := json.Unmarshal(b, new(json.RawMessage)); jerr != nil {
			return jerr
		}
		return fmt.Errorf("JSON nested deeper than %d levels", fastjson.MaxDepth)
	}
	return read(v)
}

// hasControl reports whether b holds a control character, a space
// between tokens or a character no string may hold unescaped.
func hasControl(b []byte) bool {
	for _, c := range b {
		if c < ' ' {
			return true
		}
	}
	return false
}

// decodeEnvelope reads the envelope of an answer as json.Unmarshal does,
// with its error, and hands it to read; its data and timestamp are values
// of the parsed answer.
func decodeEnvelope(body []byte, read func(envelope, error) error) error {
	called := false
	err := parseJSON(body, func(root *fastjson.Value) error {
		called = true
		env, err := readEnvelope(body, root)
		return read(env, err)
	})
	if !called {
		return read(envelope{}, err)
	}
	return err
}

func readEnvelope(body []byte, root *fastjson.Value) (envelope, error) {
	var env envelope
	ok := root == jsonNull || root.GetObject() != nil
	root.GetObject().Visit(func(name []byte, v *fastjson.Value) {
		ok = ok && env.member(string(name), v)
	})
	if ok {
		return env, nil
	}
	// A value of a wrong type: encoding/json words the error.
	if err := json.Unmarshal(body, new(envelope)); err != nil {
		return envelope{}, err
	}
	return envelope{}, errors.New("unreadable envelope")
}

// member reads one member of the envelope, its name matched as
// encoding/json matches it; false when its value has a wrong type.
func (e *envelope) member(name string, v *fastjson.Value) bool {
	switch {
	case strings.EqualFold(name, "success"):
		switch v {
		case jsonTrue, jsonFalse:
			b := v == jsonTrue
			e.Success = &b
		case jsonNull:
			e.Success = nil
		default:
			return false
		}
	case strings.EqualFold(name, "code"):
		return e.Code.UnmarshalJSON(v.MarshalTo(nil)) == nil
	case strings.EqualFold(name, "message") && v != jsonNull:
		q := v.MarshalTo(nil)
		if q[0] != '"' {
			return false
		}
		e.Message = unquote(q)
	case strings.EqualFold(name, "timestamp"):
		e.Timestamp = v
	case strings.EqualFold(name, "data"):
		e.Data = v
	}
	return true
}

// unquote is the valid JSON string q as encoding/json reads it, without a
// call to it for a plain string.
func unquote(q []byte) string {
	if inner, ok := plainString(q); ok {
		return string(inner)
	}
	var s string
	_ = json.Unmarshal(q, &s)
	return s
}

// serverTimeMs is the envelope's server time in Unix milliseconds, 0 when
// absent or unreadable.
func (e *envelope) serverTimeMs() int64 {
	if e.Timestamp == nil {
		return 0
	}
	b, present, err := fieldBytes(e.Timestamp.MarshalTo(nil))
	if err != nil || !present {
		return 0
	}
	ms, err := parseTimeBytes(b)
	if err != nil {
		return 0
	}
	return ms
}

// decodeData is json.Unmarshal of raw, an answer's data, into v.
func decodeData(raw []byte, v any) error {
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("decode data: %w", err)
	}
	return nil
}

// errNoData is an answer whose data is absent or null.
var errNoData = errors.New("answer has no data")

// readData hands data, an answer's data, to read, unless absent or null.
func readData(data *fastjson.Value, read func(*fastjson.Value) error) error {
	if data == nil || data == jsonNull {
		return errNoData
	}
	return read(data)
}

// pageMeta accepts both spellings seen in the wild.
type pageMeta struct {
	Total               flexInt `json:"total"`
	RecordsPerPage      flexInt `json:"recordsPerPage"`
	RecordsPerPageSnake flexInt `json:"records_per_page"`
	CurrentPage         flexInt `json:"currentPage"`
	CurrentPageSnake    flexInt `json:"current_page"`
}

func (m *pageMeta) toMeta() PageMeta {
	out := PageMeta{Total: int(m.Total.Value), RecordsPerPage: int(m.RecordsPerPage.Value), CurrentPage: int(m.CurrentPage.Value)}
	if !m.RecordsPerPage.set {
		out.RecordsPerPage = int(m.RecordsPerPageSnake.Value)
	}
	if !m.CurrentPage.set {
		out.CurrentPage = int(m.CurrentPageSnake.Value)
	}
	return out
}

// readMeta reads a pagination block as json.Unmarshal reads it; nil when
// absent or null. what names the answer in errors.
func readMeta(v *fastjson.Value, what string) (*PageMeta, error) {
	if v == nil || v == jsonNull {
		return nil, nil
	}
	var pm pageMeta
	if err := json.Unmarshal(v.MarshalTo(nil), &pm); err != nil {
		return nil, fmt.Errorf("%s: meta: %w", what, err)
	}
	out := pm.toMeta()
	return &out, nil
}

// meta reads the pagination block beside a list's rows; nil when absent.
// what names the answer in errors.
func (f fields) meta(what string) (*PageMeta, error) {
	m := f.get("meta")
	if m == nil {
		return nil, nil
	}
	return readMeta(m.value, what)
}
