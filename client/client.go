// Package client is the only code that speaks HTTP to the WOO X v3 REST API:
// typed requests and answers, request signing, per-endpoint request budgets,
// retries and one error type.
package client

import (
	"net/http"
	"time"

	"github.com/go-kit/log"
)

// Config configures a Client for one account (or for public endpoints only,
// when APIKey is empty).
type Config struct {
	// BaseURL is the exchange address, e.g. https://api.woox.io.
	BaseURL string
	// Account is the label of the account in metrics and logs.
	Account   string
	APIKey    string
	APISecret string
	// RateLimit is the exchange's published limit for each private endpoint.
	RateLimit RateLimit
	// Budget is the fraction of RateLimit the client may use, in (0, 1].
	Budget float64
	// HTTPClient defaults to a client with a 30 s timeout.
	HTTPClient *http.Client
	// MaxRetries bounds retries of one request after transient errors and 429s.
	MaxRetries int
	// MaxBodyBytes caps the answer size; larger answers are a bad response.
	MaxBodyBytes int64
	Metrics      *Metrics
	Logger       log.Logger
}

// RateLimit is a number of requests per window.
type RateLimit struct {
	Requests int
	Window   time.Duration
}

// Client talks to the exchange on behalf of one account.
type Client struct {
	cfg Config
}
