package client

import (
	"github.com/shopspring/decimal"
)

// TokenNetwork is one row of GET /v3/public/tokenNetwork: one network a token
// can be deposited and withdrawn on.
type TokenNetwork struct {
	Token             string
	Network           string
	Protocol          string
	Name              string
	MinimumWithdrawal decimal.Decimal
	WithdrawalFee     decimal.Decimal
	AllowDeposit      bool
	AllowWithdraw     bool
}

// Credential is one row of GET /v3/account/credentials: one API key of the
// account and what it may do.
type Credential struct {
	AccountName string
	UserID      string
	APIKey      string
	Permissions []string
	// AllowedIPs is empty when the key has no IP restriction (the exchange
	// omits the field, sends null or sends an empty list).
	AllowedIPs []string
}

// HistoryRecord is one row of GET /v3/asset/token/history: one balance change.
type HistoryRecord struct {
	ID     int64
	Type   string
	Token  string
	Amount decimal.Decimal
	// Timestamp is the record time in Unix milliseconds.
	Timestamp int64
}

// PageMeta is the pagination block of list answers.
type PageMeta struct {
	Total          int
	RecordsPerPage int
	CurrentPage    int
}

// HistoryQuery selects token history records. Zero fields are not sent.
type HistoryQuery struct {
	// Type filters by transaction type, e.g. "DEPOSIT".
	Type string
	// StartTime and EndTime bound the record timestamps, in Unix
	// milliseconds. They must have 13 digits: a time in seconds or
	// microseconds is a unit mistake that the exchange would refuse or
	// match against nothing.
	StartTime int64
	EndTime   int64
	// PageSize is the number of rows per page; 0 means the maximum (1000),
	// and so does anything above it.
	PageSize int
}

// HistoryPage is one page of token history.
type HistoryPage struct {
	// Records are the rows of the page that could be read.
	Records []HistoryRecord
	// Malformed are the rows that could not be read, in page order; the
	// caller decides whether one fails the poll or is skipped.
	Malformed []MalformedRow
	Meta      PageMeta
	// ServerTimeMs is the exchange's time in the answer that carried the
	// page, in Unix milliseconds, 0 when the answer had none (or none that
	// could be read). Records stamped after it may not be listed yet.
	ServerTimeMs int64
}

// MalformedRow is a token history row that could not be read: a field is
// missing or not what it should be. It still counts as a row for paging.
type MalformedRow struct {
	// ID is the id as sent (the text of the JSON number or string), "" when
	// absent or not a number or string, or longer than 100 characters.
	ID string
	// Key identifies the row across polls: "id:"+ID when ID is not empty,
	// else "sha256:" and the first 16 hex digits of the SHA-256 of the
	// row's bytes as sent.
	Key string
	// Timestamp is the row's time in Unix milliseconds, 0 when it could
	// not be read.
	Timestamp int64
	// Err says what is wrong, naming each bad field; it quotes at most 64
	// characters of a value.
	Err string
}
