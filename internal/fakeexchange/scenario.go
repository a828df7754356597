package fakeexchange

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"go.yaml.in/yaml/v3"
)

// Scenario describes what the fake exchange holds and how it behaves. It is
// loaded from YAML with LoadScenario or built in Go.
type Scenario struct {
	// ServerTimeOffset moves the fake server clock ahead (positive) or
	// behind (negative) the real one.
	ServerTimeOffset time.Duration `yaml:"server_time_offset"`
	// RateLimits are per-account limits of single private endpoints, by
	// endpoint name, as "N/window" (e.g. "30/10s"); "0/0s" is none. An
	// endpoint not named has RateLimit, or else its published limit
	// (the endpoint table's, endpoint.All).
	RateLimits map[string]string `yaml:"rate_limits"`
	// RateLimit, when set, is the per-account limit of every private
	// endpoint that RateLimits does not name.
	RateLimit string `yaml:"rate_limit"`
	// PublicRateLimit is the per-IP limit the public endpoints share; empty
	// means 10/1s, their published one.
	PublicRateLimit string `yaml:"public_rate_limit"`
	// NumbersAsJSONNumbers sends decimal and flag fields (token network
	// numbers and history amounts) as JSON numbers instead of strings.
	NumbersAsJSONNumbers bool `yaml:"numbers_as_json_numbers"`
	// SnakeCaseMeta sends records_per_page/current_page instead of
	// recordsPerPage/currentPage in pagination meta.
	SnakeCaseMeta bool `yaml:"snake_case_meta"`
	// NumbersAsStrings sends every numeric field as a JSON string, as
	// captured live answers do: ids, timestamps (rows and envelope),
	// userId, meta values, error codes, amounts and flags; meta is
	// snake_case. It excludes NumbersAsJSONNumbers.
	NumbersAsStrings bool `yaml:"numbers_as_strings"`
	// SignatureQuery is the query the signature must cover: "" or "exact"
	// (SignatureQueryExact) the query bytes exactly as sent; "sorted"
	// (SignatureQuerySorted) the query with its parameters sorted by name,
	// as the legacy API required, so a client signing the unsorted bytes it
	// sends fails with -1001. Sending sorted parameters passes both.
	SignatureQuery string `yaml:"signature_query"`
	// RowTimeUnit is how token history rows carry their timestamp: "" or
	// "ms" (RowTimeMillis) integer milliseconds; "s" (RowTimeSeconds)
	// integer seconds, truncated; "s_fraction" (RowTimeSecondsFraction) a
	// JSON string of seconds with three decimals, e.g. "1579399877.041", as
	// sibling v3 endpoints send times. startTime and endTime still filter
	// on the records' milliseconds.
	RowTimeUnit string `yaml:"row_time_unit"`
	// MalformedIDs are history ids whose rows are served with the amount
	// "1.2.3" (a JSON string in every number mode, so the rest of the
	// answer stays valid JSON and only that row cannot be read).
	MalformedIDs []int64 `yaml:"malformed_ids"`
	// UnreadableRows are how many rows no client can read each list
	// endpoint serves after the first of its good rows, by the endpoint
	// names UnreadableEndpoints returns; each endpoint's file says what its
	// row gets wrong. Paged lists count them in meta.total.
	UnreadableRows map[string]int `yaml:"unreadable_rows"`
	// LateListing keeps a share of history records out of the history
	// endpoint until a while after their own timestamp, as a deposit
	// stamped when first seen on chain is listed only after
	// confirmations. nil lists every record at once.
	LateListing *LateListing `yaml:"late_listing"`
	// UnstableTieOrder serves history records that share a timestamp in a
	// different order on each history request, as offset paging over ORDER
	// BY timestamp without a tiebreaker does in SQL databases: a client
	// paging through a tie group at a page boundary can miss a record and
	// see another twice.
	UnstableTieOrder bool `yaml:"unstable_tie_order"`
	// PageCap, when positive, serves at most this many rows per page of
	// both list endpoints without saying so: meta.recordsPerPage still
	// echoes the size asked, and page p holds rows [(p-1)*c, p*c) where c
	// is the smaller of the size and the cap.
	PageCap int `yaml:"page_cap"`
	// UnderstateTotal reports meta.total of both list endpoints this much
	// below the true count (never below 0).
	UnderstateTotal int `yaml:"understate_total"`
	// OverstateTotal reports meta.total of both list endpoints this much
	// above the true count: rows promised that no page serves.
	OverstateTotal int `yaml:"overstate_total"`
	// ClampPages answers a page beyond the last with the last page again,
	// and its number in meta.currentPage, instead of an empty page (as
	// "reasonable" paging helpers of Java backends do).
	ClampPages bool `yaml:"clamp_pages"`
	// UndocumentedTypes are token history transaction types beyond the
	// documented ones, as the exchange may start to send any day: records
	// may carry them and the type filter takes them.
	UndocumentedTypes []string `yaml:"undocumented_types"`
	// SharedIDs lets history records of one account share an id when their
	// token or type differ, as the exchange may give the legs of one trade
	// one id; records then count as the same only when id, token and type
	// all match. Without it every id of an account is unique.
	SharedIDs bool `yaml:"shared_ids"`
	// ErrorTimestamp makes every error answer the fake builds (4xx, 5xx and
	// success:false envelopes, 429s and authentication failures included)
	// carry a top-level timestamp that is wrong: a client must not take it
	// as server time. nil sends error answers without a timestamp.
	ErrorTimestamp *ErrorTimestamp `yaml:"error_timestamp"`
	// SystemStatus is what GET /v3/public/systemInfo reports at first; nil
	// means status 0, "System is functioning properly.".
	SystemStatus *SystemStatus `yaml:"system_status"`
	// MaintenanceWindows announce maintenance at set times after Start.
	MaintenanceWindows []MaintenanceWindow `yaml:"maintenance_windows"`
	// SnakeCaseBodies spells the fields of the account info, balances,
	// wallet history, sub-accounts and token network answers in snake_case
	// (the v1 spelling: margin_ratio, available_balance, token_side,
	// allow_withdraw; a sub-account's name as account) instead of
	// camelCase.
	SnakeCaseBodies bool `yaml:"snake_case_bodies"`
	// WalletTimeUnit is how wallet history rows carry createdTime and
	// updatedTime, and sub-account rows createdTime: "" or "s_fraction"
	// (RowTimeSecondsFraction) strings of seconds with three decimals, as
	// the live exchange sends them; "ms" (RowTimeMillis) integer
	// milliseconds, as this project guessed before live answers were
	// captured; "s" (RowTimeSeconds) integer seconds.
	WalletTimeUnit string `yaml:"wallet_time_unit"`
	// CamelCaseWalletMeta spells the wallet history's meta
	// recordsPerPage/currentPage, as the docs spell other endpoints' meta,
	// instead of the live records_per_page/current_page.
	CamelCaseWalletMeta bool `yaml:"camel_case_wallet_meta"`
	// PagedSubAccounts makes the sub-accounts endpoint take page and size
	// and answer with meta, as this project guessed before live answers
	// were captured. Without it the endpoint takes no query parameter
	// (-1004) and sends no meta, as its docs show.
	PagedSubAccounts bool `yaml:"paged_sub_accounts"`
	// WalletIgnoresTimeFilter accepts startTime and endTime on the wallet
	// history but serves every transfer: a client must filter locally.
	WalletIgnoresTimeFilter bool `yaml:"wallet_ignores_time_filter"`

	Accounts      []Account         `yaml:"accounts"`
	TokenNetworks []TokenNetworkRow `yaml:"token_networks"`
	Events        []Event           `yaml:"events"`
	// Venue holds the sections of the public market lists (endpoints.go).
	Venue `yaml:",inline"`
}

// ErrorTimestamp is the bogus timestamp of error answers: server time plus
// Offset, in Unit.
type ErrorTimestamp struct {
	Offset time.Duration `yaml:"offset"`
	// Unit is "ms" (ErrorTimestampMillis, the default when empty) or "us"
	// (ErrorTimestampMicros).
	Unit string `yaml:"unit"`
}

// Values of ErrorTimestamp.Unit.
const (
	ErrorTimestampMillis = "ms"
	ErrorTimestampMicros = "us"
)

// at is the timestamp an error answer carries at server time now.
func (t *ErrorTimestamp) at(now time.Time) int64 {
	now = now.Add(t.Offset)
	if t.Unit == ErrorTimestampMicros {
		return now.UnixMicro()
	}
	return now.UnixMilli()
}

// LateListing delays the listing of a share of history records.
type LateListing struct {
	// Share is the fraction of records listed late, 0 to 1. Which ones is
	// decided by a hash of the id, so the same records every run.
	Share float64 `yaml:"share"`
	// Delay is how long after its own timestamp, by server time, a late
	// record is first listed.
	Delay time.Duration `yaml:"delay"`
}

// Selects reports whether the records with this id are among the share
// listed late.
func (l *LateListing) Selects(id int64) bool {
	if l == nil {
		return false
	}
	return float64(mix64(uint64(id))>>11)/(1<<53) < l.Share
}

// mix64 is the SplitMix64 finalizer: a cheap hash whose low bits depend on
// every bit of x, so consecutive ids are selected independently.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// Key is one API key of an account.
type Key struct {
	APIKey    string `yaml:"api_key"`
	APISecret string `yaml:"api_secret"`
	// Permissions are e.g. READ, TRADE, WITHDRAWAL; READ is needed to call
	// the private endpoints.
	Permissions []string `yaml:"permissions"`
	// AllowedIPs restricts the key to these client addresses; empty means
	// unrestricted (and the credentials endpoint omits the field).
	AllowedIPs []string `yaml:"allowed_ips"`
}

// LoadScenario reads and validates a YAML scenario file. Unknown fields are
// errors.
func LoadScenario(path string) (*Scenario, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load scenario: %w", err)
	}
	s, err := ParseScenario(b)
	if err != nil {
		return nil, fmt.Errorf("load scenario %s: %w", path, err)
	}
	return s, nil
}

// ParseScenario decodes and validates a YAML scenario.
func ParseScenario(b []byte) (*Scenario, error) {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	var s Scenario
	if err := dec.Decode(&s); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("decode: %w", err)
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &s, nil
}
