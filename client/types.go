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
	// StartTime and EndTime bound the record timestamps, in Unix milliseconds.
	StartTime int64
	EndTime   int64
	// PageSize is the number of rows per page; 0 means the maximum (1000).
	PageSize int
}

// HistoryPage is one page of token history.
type HistoryPage struct {
	Records []HistoryRecord
	Meta    PageMeta
}
