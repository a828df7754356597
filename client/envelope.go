package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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
	// must not cost the answer it came with.
	Timestamp json.RawMessage `json:"timestamp"`
	Data      json.RawMessage `json:"data"`
}

// decodeEnvelope reads an answer's envelope as json.Unmarshal does, but
// leaves its data and timestamp as slices of body: they are read once more
// by the decoders, not copied. An envelope that is not the plain case (a
// name in another case, a value of a wrong type) goes through
// json.Unmarshal, which words the error.
func decodeEnvelope(body []byte) (envelope, error) {
	var env envelope
	if i := skipSpace(body, 0); i < len(body) && body[i] == '{' && json.Valid(body) && env.readMembers(body[i:]) {
		return env, nil
	}
	env = envelope{}
	err := json.Unmarshal(body, &env)
	return env, err
}

// readMembers reads the members of the valid JSON object obj, each as
// encoding/json does, in order; false when one needs encoding/json.
func (e *envelope) readMembers(obj []byte) bool {
	ok := true
	objectMembers(obj, func(name, v []byte) {
		ok = ok && e.member(name, v)
	})
	return ok
}

func (e *envelope) member(name, v []byte) bool {
	switch string(name) {
	case "success":
		switch string(v) {
		case "true", "false":
			b := v[0] == 't'
			e.Success = &b
		case "null":
			e.Success = nil
		default:
			return false
		}
	case "code":
		return e.Code.UnmarshalJSON(v) == nil
	case "message":
		switch {
		case v[0] == '"':
			e.Message = string(unquoteKey(v))
		case string(v) != "null":
			return false
		}
	case "timestamp":
		e.Timestamp = v
	case "data":
		e.Data = v
	default:
		return !foldsTo(name, "success", "code", "message", "timestamp", "data")
	}
	return true
}

// serverTimeMs is the envelope's server time in Unix milliseconds, 0 when
// absent or unreadable.
func (e *envelope) serverTimeMs() int64 {
	b, present, err := fieldBytes(e.Timestamp)
	if err != nil || !present {
		return 0
	}
	ms, err := parseTimeBytes(b)
	if err != nil {
		return 0
	}
	return ms
}

// pageMeta accepts both spellings seen in the wild.
type pageMeta struct {
	Total               flexInt `json:"total"`
	RecordsPerPage      flexInt `json:"recordsPerPage"`
	RecordsPerPageSnake flexInt `json:"records_per_page"`
	CurrentPage         flexInt `json:"currentPage"`
	CurrentPageSnake    flexInt `json:"current_page"`
}

// decode is json.Unmarshal of raw, valid JSON, into m, read member by
// member in the plain case.
func (m *pageMeta) decode(raw []byte) error {
	if raw[0] == '{' && m.readMembers(raw) {
		return nil
	}
	*m = pageMeta{}
	return json.Unmarshal(raw, m)
}

// readMembers reads the members of the valid JSON object obj as
// encoding/json does; false when one needs encoding/json.
func (m *pageMeta) readMembers(obj []byte) bool {
	ok := true
	objectMembers(obj, func(name, v []byte) {
		var n *flexInt
		switch string(name) {
		case "total":
			n = &m.Total
		case "recordsPerPage":
			n = &m.RecordsPerPage
		case "records_per_page":
			n = &m.RecordsPerPageSnake
		case "currentPage":
			n = &m.CurrentPage
		case "current_page":
			n = &m.CurrentPageSnake
		default:
			ok = ok && !foldsTo(name, "total", "recordsPerPage", "records_per_page", "currentPage", "current_page")
			return
		}
		ok = ok && n.UnmarshalJSON(v) == nil
	})
	return ok
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

func decodeData(data json.RawMessage, v any) error {
	if len(bytes.TrimSpace(data)) == 0 || bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return errors.New("answer has no data")
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("decode data: %w", err)
	}
	return nil
}

// checkData is decodeData's checks without a copy of the data.
func checkData(data json.RawMessage) error {
	if json.Valid(data) && !isNull(data) {
		return nil
	}
	return decodeData(data, new(json.RawMessage))
}

func metaOf(m *pageMeta) *PageMeta {
	if m == nil {
		return nil
	}
	out := m.toMeta()
	return &out
}

// meta reads the pagination block beside a list's rows; nil when absent.
// what names the answer in errors.
func (f fields) meta(what string) (*PageMeta, error) {
	m := f.get("meta")
	if isNull(m) {
		return nil, nil
	}
	var pm pageMeta
	if err := pm.decode(m); err != nil {
		return nil, fmt.Errorf("%s: meta: %w", what, err)
	}
	return metaOf(&pm), nil
}
