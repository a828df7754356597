package client

import "github.com/woox-exporter/woox_exporter/endpoint"

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
// client reads, from the endpoint table (endpoint.All). The flags'
// defaults, the interval check at start, the budget limiter and the fake
// exchange all read them.
var PublishedLimits = func() []PublishedLimit {
	out := make([]PublishedLimit, 0, len(endpoint.All))
	for _, ep := range endpoint.All {
		out = append(out, PublishedLimit{Endpoint: ep.Name, Limit: RateLimit(ep.Limit), PerIP: !ep.PerAccount, Page: ep.Page})
	}
	return out
}()

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
