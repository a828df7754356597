package endpoint

import (
	"fmt"
	"time"
)

// Limit is a rate limit: at most Requests within any span of Window.
type Limit struct {
	Requests int
	Window   time.Duration
}

// Endpoint is one exchange endpoint the exporter reads.
type Endpoint struct {
	// Name is the value of the endpoint label, the budget key and, with
	// dashes for underscores, the stem of its flags.
	Name string
	// Path is the request path under the API's base URL.
	Path string
	// Limit is the limit the exchange publishes: per account for a
	// signed endpoint (every key of the account shares it), per client IP
	// for a public one.
	Limit Limit
	// Page is the developer.woox.io page that publishes Limit, under
	// api-reference/endpoint/; empty where no page gives one.
	Page string
	// PerAccount endpoints are signed and read for each account with its
	// key; the others are public, read once per exporter without one.
	PerAccount bool
	// Paged endpoints read a list page by page. A quiet poll still sends
	// one request: its one page is clearly the last.
	Paged bool
	// DefaultInterval is the poll interval unless a flag sets another.
	DefaultInterval time.Duration
	// OffByDefault endpoints are polled only when their --collector.NAME
	// flag turns them on.
	OffByDefault bool
	// Description says what is read, for the flags' help.
	Description string
}

// Scope says whom Limit is shared by, for messages and docs.
func (ep Endpoint) Scope() string {
	if ep.PerAccount {
		return "per account"
	}
	return "per IP"
}

// Of is the endpoint called name; ok is false for a name not in All.
func Of(name string) (ep Endpoint, ok bool) {
	for _, ep := range All {
		if ep.Name == name {
			return ep, true
		}
	}
	return Endpoint{}, false
}

// PathOf is the path of the endpoint called name. A name not in All is a
// programming error: it panics.
func PathOf(name string) string {
	ep, ok := Of(name)
	if !ok {
		panic(fmt.Sprintf("endpoint: no endpoint %q", name))
	}
	return ep.Path
}
