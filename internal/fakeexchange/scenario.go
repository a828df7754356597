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

// Scenario is what the fake holds and how it behaves, from YAML or Go.
type Scenario struct {
	// ServerTimeOffset moves the fake's clock ahead of (or behind) the real one.
	ServerTimeOffset time.Duration `yaml:"server_time_offset"`
	// RateLimits are per-account limits of private endpoints by name, "N/window"
	// ("0/0s": none); others have RateLimit, else their published limit.
	RateLimits map[string]string `yaml:"rate_limits"`
	RateLimit  string            `yaml:"rate_limit"`
	// PublicRateLimit is the public endpoints' per-IP limit; empty is 10/1s.
	PublicRateLimit string `yaml:"public_rate_limit"`
	// NumbersAsJSONNumbers sends decimals and flags as JSON numbers.
	NumbersAsJSONNumbers bool `yaml:"numbers_as_json_numbers"`
	// SnakeCaseMeta spells meta records_per_page/current_page.
	SnakeCaseMeta bool `yaml:"snake_case_meta"`
	// NumbersAsStrings sends every number as a JSON string, as captured answers
	// do, with meta in snake_case; it excludes NumbersAsJSONNumbers.
	NumbersAsStrings bool `yaml:"numbers_as_strings"`
	// SignatureQuery is what the signature covers: "" or "exact" the query as
	// sent; "sorted" its parameters sorted by name, as the legacy API required.
	SignatureQuery string `yaml:"signature_query"`
	// RowTimeUnit is how history, balances and funding fee rows carry times: ""
	// or "ms", "s", "s_fraction" ("1579399877.041"); filters still take ms.
	RowTimeUnit string `yaml:"row_time_unit"`
	// MalformedIDs are history ids served with the amount "1.2.3" (unreadable).
	MalformedIDs []int64 `yaml:"malformed_ids"`
	// UnreadableRows are how many rows no client can read each list endpoint
	// (UnreadableEndpoints) serves after its first good row, in meta.total.
	UnreadableRows map[string]int `yaml:"unreadable_rows"`
	// LateListing keeps a share of history records unlisted until a while
	// after their timestamp, as a deposit listed after confirmations.
	LateListing *LateListing `yaml:"late_listing"`
	// UnstableTieOrder turns ties of timestamp on each history request, as
	// offset paging without a tiebreaker does in SQL.
	UnstableTieOrder bool `yaml:"unstable_tie_order"`
	// PageCap serves at most this many rows a page without saying so:
	// meta.recordsPerPage still echoes the size asked.
	PageCap int `yaml:"page_cap"`
	// UnderstateTotal and OverstateTotal move meta.total below or above the count.
	UnderstateTotal int `yaml:"understate_total"`
	OverstateTotal  int `yaml:"overstate_total"`
	// ClampPages answers a page beyond the last with the last, not an empty one.
	ClampPages bool `yaml:"clamp_pages"`
	// UndocumentedTypes are token history types the exchange may start to send.
	UndocumentedTypes []string `yaml:"undocumented_types"`
	// SharedIDs lets the legs of one trade share an id (token or type differ).
	SharedIDs bool `yaml:"shared_ids"`
	// ErrorTimestamp gives every error answer a wrong top-level timestamp.
	ErrorTimestamp *ErrorTimestamp `yaml:"error_timestamp"`
	// SystemStatus is what system info reports at first; nil: as captured.
	SystemStatus       *SystemStatus       `yaml:"system_status"`
	MaintenanceWindows []MaintenanceWindow `yaml:"maintenance_windows"`
	// SnakeCaseBodies spells answers in the v1 snake_case (margin_ratio, ...).
	SnakeCaseBodies bool `yaml:"snake_case_bodies"`
	// WalletTimeUnit is how wallet, sub-account and transfer rows carry times:
	// "" or "s_fraction" as captured, "ms" as guessed before, "s".
	WalletTimeUnit string `yaml:"wallet_time_unit"`
	// CamelCaseWalletMeta spells the wallet's meta in camelCase, not snake_case.
	CamelCaseWalletMeta bool `yaml:"camel_case_wallet_meta"`
	// PagedSubAccounts pages sub-accounts, as guessed before real answers were captured.
	PagedSubAccounts bool `yaml:"paged_sub_accounts"`
	// WalletIgnoresTimeFilter takes the wallet's time filters but serves every
	// transfer: a client must filter locally.
	WalletIgnoresTimeFilter bool `yaml:"wallet_ignores_time_filter"`

	Accounts      []Account         `yaml:"accounts"`
	TokenNetworks []TokenNetworkRow `yaml:"token_networks"`
	Events        []Event           `yaml:"events"`
	// Venue holds the sections of the public market lists (endpoints.go).
	Venue `yaml:",inline"`
}

// ErrorTimestamp is server time plus Offset, in Unit.
type ErrorTimestamp struct {
	Offset time.Duration `yaml:"offset"`
	// Unit is "ms" (the default) or "us".
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
	// Share is the fraction listed late, 0 to 1, chosen by a hash of the id.
	Share float64 `yaml:"share"`
	// Delay is how long after its timestamp a late record is first listed.
	Delay time.Duration `yaml:"delay"`
}

// Selects reports whether the records of id are listed late.
func (l *LateListing) Selects(id int64) bool {
	if l == nil {
		return false
	}
	return float64(mix64(uint64(id))>>11)/(1<<53) < l.Share
}

// mix64 is the SplitMix64 finalizer: consecutive ids are chosen independently.
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
	// Permissions: READ is needed to call the private endpoints.
	Permissions []string `yaml:"permissions"`
	// AllowedIPs restricts the key to these addresses; empty: unrestricted.
	AllowedIPs []string `yaml:"allowed_ips"`
}

// LoadScenario reads and validates a YAML scenario; unknown fields are errors.
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
