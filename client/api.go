package client

import (
	"context"
	"time"
)

// Endpoint names, used as the `endpoint` label and as budget keys.
const (
	EndpointTokenNetwork = "token_network"
	EndpointCredentials  = "credentials"
	EndpointTokenHistory = "token_history"
)

// Exchange paths of the endpoints the exporter polls.
const (
	PathTokenNetwork = "/v3/public/tokenNetwork"
	PathCredentials  = "/v3/account/credentials"
	PathTokenHistory = "/v3/asset/token/history"
)

// MaxPageSize is the largest page the exchange serves on list endpoints.
const MaxPageSize = 1000

// TokenNetworks returns every token network. The endpoint is public.
func (c *Client) TokenNetworks(ctx context.Context) ([]TokenNetwork, error) {
	panic("not implemented")
}

// Credentials returns every API key of the account, all pages.
func (c *Client) Credentials(ctx context.Context) ([]Credential, error) {
	panic("not implemented")
}

// TokenHistory returns every record matching q, all pages, in the order the
// exchange sent them. Records may repeat across pages if the exchange's
// result set shifts while paging; callers deduplicate by ID.
func (c *Client) TokenHistory(ctx context.Context, q HistoryQuery) ([]HistoryRecord, error) {
	panic("not implemented")
}

// TokenHistoryPages calls fn for each page of records matching q, in order,
// so a caller can process a large backlog page by page. It stops at the
// first error, from the exchange or from fn.
func (c *Client) TokenHistoryPages(ctx context.Context, q HistoryQuery, fn func(HistoryPage) error) error {
	panic("not implemented")
}

// ServerNow is the local clock corrected by the latest observed offset to the
// exchange's clock.
func (c *Client) ServerNow() time.Time {
	panic("not implemented")
}
