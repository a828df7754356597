package client

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// TokenHistoryPages calls fn for each page of records matching q, in order
// (see paginate), so that a large backlog is processed page by page. It
// stops at the first error, from the exchange or from fn.
func (c *Client) TokenHistoryPages(ctx context.Context, q HistoryQuery, fn func(HistoryPage) error) error {
	params, err := q.params()
	if err != nil {
		return &Error{Op: "get token history", Kind: KindOther, Err: err}
	}
	size := q.PageSize
	if size <= 0 || size > MaxPageSize {
		size = MaxPageSize
	}
	return getPages(ctx, c, listRequest[HistoryPage, rowIdentity]{
		name: "token history", endpoint: endpoint.TokenHistory, params: params, size: size,
		decode: func(data json.RawMessage, serverTimeMs int64, _ int) (HistoryPage, error) {
			p, err := decodeHistory(data)
			p.ServerTimeMs = serverTimeMs
			return p, err
		},
		identities: historyIdentities,
	}, fn)
}

// params checks q and returns its filters as query parameters.
func (q HistoryQuery) params() ([]param, error) {
	var params []param
	if q.Type != "" {
		params = append(params, param{"type", q.Type})
	}
	for _, t := range []struct {
		name string
		ms   int64
	}{{"startTime", q.StartTime}, {"endTime", q.EndTime}} {
		if t.ms == 0 {
			continue
		}
		if t.ms < 1e12 || t.ms >= 1e13 {
			return nil, fmt.Errorf("%s %d: want 13 digits of Unix milliseconds", t.name, t.ms)
		}
		params = append(params, param{t.name, strconv.FormatInt(t.ms, 10)})
	}
	if q.StartTime != 0 && q.EndTime != 0 && q.StartTime > q.EndTime {
		return nil, fmt.Errorf("startTime %d is after endTime %d", q.StartTime, q.EndTime)
	}
	return params, nil
}

// rowIdentity identifies a token history row within one paging: the id and
// a hash of token and type (the legs of a trade may share an id), or a hash
// of a malformed row's key. Small and without pointers for long catch-ups;
// a collision could end paging only if every row of a page collided.
type rowIdentity struct {
	id     int64
	hash   uint64
	broken bool
}

func historyIdentities(p HistoryPage) []rowIdentity {
	ids := make([]rowIdentity, 0, len(p.Records)+len(p.Malformed))
	for _, r := range p.Records {
		ids = append(ids, rowIdentity{id: r.ID, hash: fnv1a(fnv1a(fnvOffset, r.Token, true), r.Type, false)})
	}
	for _, m := range p.Malformed {
		ids = append(ids, rowIdentity{hash: fnv1a(fnvOffset, m.Key, false), broken: true})
	}
	return ids
}

// HistoryRecord is one row of GET /v3/asset/token/history: one balance change.
type HistoryRecord struct {
	ID        int64
	Type      string
	Token     string
	Amount    decimal.Decimal
	Timestamp int64 // Unix milliseconds
}

// HistoryQuery selects token history records. Zero fields are not sent.
type HistoryQuery struct {
	Type string // e.g. "DEPOSIT"
	// StartTime and EndTime bound the record times in Unix milliseconds, of
	// 13 digits: seconds or microseconds would be a unit mistake.
	StartTime int64
	EndTime   int64
	PageSize  int // rows per page; 0 or above MaxPageSize means MaxPageSize
}

// HistoryPage is one page of token history.
type HistoryPage struct {
	Records []HistoryRecord
	// Malformed are the rows that could not be read, in page order: the
	// caller decides whether one fails the poll.
	Malformed []MalformedRow
	Meta      PageMeta
	// ServerTimeMs is the answer's server time in Unix milliseconds, 0 when
	// unreadable: records stamped after it may not be listed yet.
	ServerTimeMs int64
}

// MalformedRow is a token history row not read, still a row for paging.
type MalformedRow struct {
	ID string // as sent, "" when not a number or string or over maxIDText
	// Key identifies the row across polls: "id:"+ID, or without ID "sha256:"
	// and 16 hex digits of the SHA-256 of the row as sent.
	Key       string
	Timestamp int64  // Unix milliseconds, 0 when unreadable
	Err       string // names each bad field, quoting at most 64 characters of a value
}

type historyData struct {
	Rows []json.RawMessage `json:"rows"` // one by one: a bad row does not cost the page
	Meta *pageMeta         `json:"meta"`
}

// historyFields are a history row's fields, read apart to name each bad one.
type historyFields struct {
	ID        json.RawMessage `json:"id"`
	Type      json.RawMessage `json:"type"`
	Token     json.RawMessage `json:"token"`
	Amount    json.RawMessage `json:"amount"`
	Timestamp json.RawMessage `json:"timestamp"`
}

// readHistoryData is decodeData of data into historyData, the rows left as
// slices of data; a page not the plain case goes through json.Unmarshal.
func readHistoryData(data json.RawMessage) (historyData, error) {
	var d historyData
	var v [2][]byte
	if checkData(data) == nil && exactMembers(bytes.TrimSpace(data), []string{"rows", "meta"}, v[:]) {
		rows, meta := v[0], v[1]
		ok := rows == nil || string(rows) == "null" || rows[0] == '['
		if ok && rows != nil && rows[0] == '[' {
			d.Rows = arrayElements(rows)
		}
		if ok && meta != nil && string(meta) != "null" {
			d.Meta = new(pageMeta)
			ok = d.Meta.decode(meta) == nil
		}
		if ok {
			return d, nil
		}
	}
	d = historyData{}
	err := decodeData(data, &d)
	return d, err
}

// readHistoryFields reads a row, valid JSON, as json.Unmarshal reads it
// into historyFields; ok is false when the row needs json.Unmarshal.
func readHistoryFields(raw json.RawMessage) (f historyFields, ok bool) {
	var v [5][]byte
	if len(raw) == 0 || !exactMembers(raw, []string{"id", "type", "token", "amount", "timestamp"}, v[:]) {
		return f, false
	}
	return historyFields{ID: v[0], Type: v[1], Token: v[2], Amount: v[3], Timestamp: v[4]}, true
}

// maxIDText is the longest id a MalformedRow keeps (a valid one has 20
// characters at most), so that its key stays bounded.
const maxIDText = 100

// decodeHistory decodes one page of GET /v3/asset/token/history. Rows that
// cannot be read become MalformedRows; only data not an object with rows
// fails the page.
func decodeHistory(data json.RawMessage) (HistoryPage, error) {
	d, err := readHistoryData(data)
	if err != nil {
		return HistoryPage{}, err
	}
	p := HistoryPage{Records: make([]HistoryRecord, 0, len(d.Rows))}
	if m := metaOf(d.Meta); m != nil {
		p.Meta = *m
	}
	for _, raw := range d.Rows {
		rec, bad := decodeHistoryRow(raw)
		if bad != nil {
			p.Malformed = append(p.Malformed, *bad)
			continue
		}
		p.Records = append(p.Records, rec)
	}
	return p, nil
}

// decodeHistoryRow reads one row. Id, timestamp and amount are required:
// without one a record cannot be counted exactly once.
func decodeHistoryRow(raw json.RawMessage) (HistoryRecord, *MalformedRow) {
	f, ok := readHistoryFields(raw)
	if !ok {
		f = historyFields{}
		if err := json.Unmarshal(raw, &f); err != nil {
			return HistoryRecord{}, malformedRow(raw, "", 0, []string{"row is not a JSON object"})
		}
	}
	var rec HistoryRecord
	var problems []string
	var id []byte
	if b, err := requiredBytes(f.ID); err != nil {
		problems = append(problems, "id: "+err.Error())
	} else {
		if len(b) <= maxIDText {
			id = b
		}
		if v, ok := parseInt64Bytes(b); ok {
			rec.ID = v
		} else {
			problems = append(problems, fmt.Sprintf("id: invalid integer %q (not an integer within int64)", truncateForError(string(b))))
		}
	}
	if b, err := requiredBytes(f.Timestamp); err != nil {
		problems = append(problems, "timestamp: "+err.Error())
	} else if rec.Timestamp, err = parseTimeBytes(b); err != nil {
		problems = append(problems, "timestamp: "+err.Error())
	}
	if b, err := requiredBytes(f.Amount); err != nil {
		problems = append(problems, "amount: "+err.Error())
	} else if rec.Amount, err = parseDecimalBytes(b); err != nil {
		problems = append(problems, "amount: "+err.Error())
	}
	var err error
	if rec.Type, err = optionalString(f.Type); err != nil {
		problems = append(problems, "type: "+err.Error())
	}
	if rec.Token, err = optionalString(f.Token); err != nil {
		problems = append(problems, "token: "+err.Error())
	}
	if len(problems) > 0 {
		return HistoryRecord{}, malformedRow(raw, string(id), rec.Timestamp, problems)
	}
	return rec, nil
}

func malformedRow(raw json.RawMessage, id string, timestampMs int64, problems []string) *MalformedRow {
	key := "id:" + id
	if id == "" {
		sum := sha256.Sum256(raw)
		key = "sha256:" + hex.EncodeToString(sum[:8])
	}
	return &MalformedRow{ID: id, Key: key, Timestamp: timestampMs, Err: strings.Join(problems, "; ")}
}

// requiredBytes is fieldBytes for a field the row cannot do without.
func requiredBytes(raw json.RawMessage) ([]byte, error) {
	b, present, err := fieldBytes(raw)
	if err == nil && !present {
		err = errMissing
	}
	return b, err
}

// optionalString reads a JSON string field; absent and null are "".
func optionalString(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return "", nil
	}
	if inner, ok := plainString(raw); ok {
		return string(inner), nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("expected a string, got %s", truncateForError(string(raw)))
	}
	return s, nil
}
