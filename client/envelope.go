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
	Success   *bool           `json:"success"`
	Code      flexInt         `json:"code"`
	Message   string          `json:"message"`
	Timestamp json.RawMessage `json:"timestamp"` // read apart: an unreadable one must not cost the answer
	Data      json.RawMessage `json:"data"`
}

// decodeEnvelope reads an answer's envelope as json.Unmarshal does, leaving
// data and timestamp slices of body; one not the plain case goes through
// json.Unmarshal, which words the error.
func decodeEnvelope(body []byte) (envelope, error) {
	var env envelope
	if i := skipSpace(body, 0); i < len(body) && json.Valid(body) && env.readMembers(body[i:]) {
		return env, nil
	}
	env = envelope{}
	err := json.Unmarshal(body, &env)
	return env, err
}

// readMembers reads the valid JSON object obj; false when it needs encoding/json.
func (e *envelope) readMembers(obj []byte) bool {
	var v [5][]byte
	if !exactMembers(obj, []string{"success", "code", "message", "timestamp", "data"}, v[:]) {
		return false
	}
	success, code, message := string(v[0]), v[1], v[2]
	switch {
	case success == "true" || success == "false":
		b := success == "true"
		e.Success = &b
	case success != "" && success != "null":
		return false
	}
	if code != nil && e.Code.UnmarshalJSON(code) != nil {
		return false
	}
	switch {
	case len(message) > 0 && message[0] == '"':
		e.Message = string(unquoteKey(message))
	case message != nil && string(message) != "null":
		return false
	}
	e.Timestamp, e.Data = v[3], v[4]
	return true
}

// serverTimeMs is the envelope's server time in Unix ms, 0 when unreadable.
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

// decode is json.Unmarshal of raw, valid JSON, read member by member when plain.
func (m *pageMeta) decode(raw []byte) error {
	if m.readMembers(raw) {
		return nil
	}
	*m = pageMeta{}
	return json.Unmarshal(raw, m)
}

// readMembers reads the valid JSON object obj; false when it needs encoding/json.
func (m *pageMeta) readMembers(obj []byte) bool {
	var v [5][]byte
	if !exactMembers(obj, []string{"total", "recordsPerPage", "records_per_page", "currentPage", "current_page"}, v[:]) {
		return false
	}
	for i, n := range []*flexInt{&m.Total, &m.RecordsPerPage, &m.RecordsPerPageSnake, &m.CurrentPage, &m.CurrentPageSnake} {
		if v[i] != nil && n.UnmarshalJSON(v[i]) != nil {
			return false
		}
	}
	return true
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

// metaOf is the PageMeta of m, nil when m is, each field in either spelling.
func metaOf(m *pageMeta) *PageMeta {
	if m == nil {
		return nil
	}
	out := PageMeta{Total: int(m.Total.Value), RecordsPerPage: int(m.RecordsPerPage.Value), CurrentPage: int(m.CurrentPage.Value)}
	if !m.RecordsPerPage.set {
		out.RecordsPerPage = int(m.RecordsPerPageSnake.Value)
	}
	if !m.CurrentPage.set {
		out.CurrentPage = int(m.CurrentPageSnake.Value)
	}
	return &out
}

// meta reads the pagination block beside a list's rows, nil when absent.
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
