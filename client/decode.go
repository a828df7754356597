package client

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
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

// flexDecimal is a decimal that arrives as a JSON number or string.
type flexDecimal struct {
	decimal.Decimal
	set bool
}

func (d *flexDecimal) UnmarshalJSON(b []byte) error {
	s, isNull, err := scalarText(b)
	if err != nil || isNull {
		return err
	}
	if s == "" {
		return nil
	}
	v, err := decimal.NewFromString(s)
	if err != nil {
		return fmt.Errorf("invalid decimal %q", truncateForError(s))
	}
	d.Decimal, d.set = v, true
	return nil
}

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

// flexBool is a flag that arrives as 0/1 (number or string) or true/false.
type flexBool bool

func (f *flexBool) UnmarshalJSON(b []byte) error {
	s, isNull, err := scalarText(b)
	if err != nil || isNull {
		return err
	}
	switch strings.ToLower(s) {
	case "true":
		*f = true
		return nil
	case "false", "":
		*f = false
		return nil
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return fmt.Errorf("invalid flag %q", truncateForError(s))
	}
	*f = flexBool(!d.IsZero())
	return nil
}

// flexString is a string that may arrive as a JSON number (user ids).
type flexString string

func (f *flexString) UnmarshalJSON(b []byte) error {
	s, isNull, err := scalarText(b)
	if err != nil || isNull {
		return err
	}
	*f = flexString(s)
	return nil
}

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

func truncateForError(s string) string {
	const maxLen = 64
	if len(s) > maxLen {
		return s[:maxLen] + "..."
	}
	return s
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

// serverTimeMs is the envelope's server time in Unix milliseconds, 0 when
// absent or unreadable.
func (e *envelope) serverTimeMs() int64 {
	s, present, err := fieldText(e.Timestamp)
	if err != nil || !present {
		return 0
	}
	ms, err := ParseTime(s)
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

type tokenNetworkData struct {
	Rows []tokenNetworkRow `json:"rows"`
}

type tokenNetworkRow struct {
	Protocol          string      `json:"protocol"`
	Network           string      `json:"network"`
	Token             string      `json:"token"`
	Name              string      `json:"name"`
	MinimumWithdrawal flexDecimal `json:"minimumWithdrawal"`
	WithdrawalFee     flexDecimal `json:"withdrawalFee"`
	AllowDeposit      flexBool    `json:"allowDeposit"`
	AllowWithdraw     flexBool    `json:"allowWithdraw"`
}

type credentialsData struct {
	Rows []credentialRow `json:"rows"`
	Meta *pageMeta       `json:"meta"`
}

type credentialRow struct {
	AccountName string     `json:"accountName"`
	UserID      flexString `json:"userId"`
	APIKey      string     `json:"apiKey"`
	Permissions []string   `json:"permissions"`
	AllowedIPs  []string   `json:"allowedIPs"`
}

type historyData struct {
	// Rows are decoded one by one, so that one bad row does not cost the
	// page.
	Rows []json.RawMessage `json:"rows"`
	Meta *pageMeta         `json:"meta"`
}

// historyFields are the fields of a history row, each read apart so that
// every bad one is named.
type historyFields struct {
	ID        json.RawMessage `json:"id"`
	Type      json.RawMessage `json:"type"`
	Token     json.RawMessage `json:"token"`
	Amount    json.RawMessage `json:"amount"`
	Timestamp json.RawMessage `json:"timestamp"`
}

// maxIDText is the longest id text a MalformedRow keeps: an id is at most 20
// characters when valid, and a longer one must not make the key unbounded.
const maxIDText = 100

// decodeTokenNetworks decodes the data of GET /v3/public/tokenNetwork.
func decodeTokenNetworks(data json.RawMessage) ([]TokenNetwork, error) {
	var d tokenNetworkData
	if err := decodeData(data, &d); err != nil {
		return nil, err
	}
	out := make([]TokenNetwork, 0, len(d.Rows))
	for i, r := range d.Rows {
		if r.Token == "" || r.Network == "" {
			return nil, fmt.Errorf("row %d: missing token or network", i)
		}
		out = append(out, TokenNetwork{
			Token: r.Token, Network: r.Network, Protocol: r.Protocol, Name: r.Name,
			MinimumWithdrawal: r.MinimumWithdrawal.Decimal, WithdrawalFee: r.WithdrawalFee.Decimal,
			AllowDeposit: bool(r.AllowDeposit), AllowWithdraw: bool(r.AllowWithdraw),
		})
	}
	return out, nil
}

// decodeCredentials decodes one page of GET /v3/account/credentials.
func decodeCredentials(data json.RawMessage) ([]Credential, *PageMeta, error) {
	var d credentialsData
	if err := decodeData(data, &d); err != nil {
		return nil, nil, err
	}
	out := make([]Credential, 0, len(d.Rows))
	for i, r := range d.Rows {
		if r.APIKey == "" {
			return nil, nil, fmt.Errorf("row %d: missing apiKey", i)
		}
		out = append(out, Credential{
			AccountName: r.AccountName, UserID: string(r.UserID), APIKey: r.APIKey,
			Permissions: r.Permissions, AllowedIPs: nonEmpty(r.AllowedIPs),
		})
	}
	return out, metaOf(d.Meta), nil
}

// decodeHistory decodes one page of GET /v3/asset/token/history. Rows that
// cannot be read become MalformedRows; only data that is not an object with
// a rows array fails the page.
func decodeHistory(data json.RawMessage) (HistoryPage, error) {
	var d historyData
	if err := decodeData(data, &d); err != nil {
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

// decodeHistoryRow reads one row. A record without id, timestamp or amount
// cannot be counted exactly once, so each is required; type and token are
// not, as before.
func decodeHistoryRow(raw json.RawMessage) (HistoryRecord, *MalformedRow) {
	var f historyFields
	if err := json.Unmarshal(raw, &f); err != nil {
		return HistoryRecord{}, malformedRow(raw, "", 0, []string{"row is not a JSON object"})
	}
	var rec HistoryRecord
	var problems []string
	idText := ""
	if s, err := requiredText(f.ID); err != nil {
		problems = append(problems, "id: "+err.Error())
	} else {
		if len(s) <= maxIDText {
			idText = s
		}
		if v, ok := parseInt64(s); ok {
			rec.ID = v
		} else {
			problems = append(problems, fmt.Sprintf("id: invalid integer %q (not an integer within int64)", truncateForError(s)))
		}
	}
	if s, err := requiredText(f.Timestamp); err != nil {
		problems = append(problems, "timestamp: "+err.Error())
	} else if ms, err := ParseTime(s); err != nil {
		problems = append(problems, "timestamp: "+err.Error())
	} else {
		rec.Timestamp = ms
	}
	if s, err := requiredText(f.Amount); err != nil {
		problems = append(problems, "amount: "+err.Error())
	} else if v, err := decimal.NewFromString(s); err != nil {
		problems = append(problems, fmt.Sprintf("amount: invalid decimal %q", truncateForError(s)))
	} else {
		rec.Amount = v
	}
	var err error
	if rec.Type, err = optionalString(f.Type); err != nil {
		problems = append(problems, "type: "+err.Error())
	}
	if rec.Token, err = optionalString(f.Token); err != nil {
		problems = append(problems, "token: "+err.Error())
	}
	if len(problems) > 0 {
		return HistoryRecord{}, malformedRow(raw, idText, rec.Timestamp, problems)
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

// fieldText is the text of a field that holds a JSON number or string;
// present is false when the field is absent, null or "".
func fieldText(raw json.RawMessage) (s string, present bool, err error) {
	if len(raw) == 0 {
		return "", false, nil
	}
	s, isNull, err := scalarText(raw)
	if err != nil || isNull || s == "" {
		return "", false, err
	}
	return s, true, nil
}

// requiredText is fieldText for a field the row cannot do without.
func requiredText(raw json.RawMessage) (string, error) {
	s, present, err := fieldText(raw)
	if err == nil && !present {
		err = errors.New("missing")
	}
	return s, err
}

// optionalString reads a JSON string field; absent and null are "".
func optionalString(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", fmt.Errorf("expected a string, got %s", truncateForError(string(raw)))
	}
	return s, nil
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

func metaOf(m *pageMeta) *PageMeta {
	if m == nil {
		return nil
	}
	out := m.toMeta()
	return &out
}

func nonEmpty(ips []string) []string {
	out := ips[:0:0]
	for _, ip := range ips {
		if strings.TrimSpace(ip) != "" {
			out = append(out, ip)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
