package client

import "time"

// PublishedLimit is the rate limit the exchange publishes for one endpoint:
// per account for a signed endpoint (every key of the account shares it),
// per client IP for a public one.
type PublishedLimit struct {
	Endpoint string
	Limit    RateLimit
	// PerIP limits are the public endpoints' limits per client IP; the
	// others are per account.
	PerIP bool
	// Page is the developer.woox.io page that publishes the limit, under
	// api-reference/endpoint/; empty where no page gives one.
	Page string
}

// PublishedLimits are the exchange's published limits of the endpoints the
// exporter polls. The flags' defaults, the interval check at start, the
// budget limiter and the fake exchange all read this one table.
var PublishedLimits = []PublishedLimit{
	// No page publishes a limit for the two public endpoints; the other
	// public pages say 10 per second per IP.
	{Endpoint: EndpointTokenNetwork, Limit: RateLimit{10, time.Second}, PerIP: true},
	{Endpoint: EndpointSystemInfo, Limit: RateLimit{10, time.Second}, PerIP: true},
	{Endpoint: EndpointCredentials, Limit: RateLimit{10, time.Minute}, Page: "account/credentials"},
	{Endpoint: EndpointTokenHistory, Limit: RateLimit{10, time.Minute}, Page: "assets/token_history"},
	{Endpoint: EndpointAccountInfo, Limit: RateLimit{10, time.Minute}, Page: "account/get_account_info"},
	{Endpoint: EndpointBalances, Limit: RateLimit{10, time.Second}, Page: "assets/get_balances"},
	{Endpoint: EndpointWallet, Limit: RateLimit{10, time.Minute}, Page: "assets/get_wallet_history"},
	{Endpoint: EndpointSubAccounts, Limit: RateLimit{10, time.Minute}, Page: "account/sub_accounts"},
	{Endpoint: EndpointPositions, Limit: RateLimit{30, 10 * time.Second}, Page: "futures/get_positions"},
}

// PublishedLimitOf is the published limit of endpoint; ok is false for an
// endpoint the table lacks.
func PublishedLimitOf(endpoint string) (limit PublishedLimit, ok bool) {
	for _, l := range PublishedLimits {
		if l.Endpoint == endpoint {
			return l, true
		}
	}
	return PublishedLimit{}, false
}

// Scope says whom the limit is shared by, for messages and docs.
func (l PublishedLimit) Scope() string {
	if l.PerIP {
		return "per IP"
	}
	return "per account"
}
