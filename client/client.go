// Package client is the only code that speaks HTTP to the WOO X v3 REST API:
// typed requests and answers, request signing, per-endpoint request budgets,
// retries and one error type.
package client

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-kit/log"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/ratelimit"
)

// Defaults for zero Config fields.
const (
	DefaultBaseURL      = "https://api.woox.io"
	DefaultBudget       = 0.5
	DefaultMaxRetries   = 3
	DefaultMaxBodyBytes = 8 << 20
	DefaultTimeout      = 30 * time.Second
	SigningWindow       = 300 * time.Second // how far x-api-timestamp may be from the exchange's clock
	maxBackoff          = 30 * time.Second  // the longest wait between retries of transient failures
)

// LongestRequest is the longest a healthy call may spend on one page: a
// limit window for a full budget, per retry a jittered limit window (after a
// 429) and a timeout per attempt, and three more requests that may each wait
// a limit window (system info to learn the time, the signed retry, system
// info after a -1011). Callers that cancel stalled work must wait longer.
func LongestRequest(limit RateLimit, timeout time.Duration) time.Duration {
	perRetry := max(jitterMax(limit.Window), jitterMax(maxBackoff))
	return limit.Window + DefaultMaxRetries*perRetry + (DefaultMaxRetries+1)*timeout + 3*(limit.Window+timeout)
}

// DefaultRateLimit is the limit of an endpoint not in the table, the lowest published.
var DefaultRateLimit = RateLimit{Requests: 10, Window: 60 * time.Second}

// Config configures a Client for one account, or without APIKey the public endpoints.
type Config struct {
	BaseURL   string // e.g. https://api.woox.io
	Account   string // the account's label in metrics and logs
	APIKey    string
	APISecret string
	// RateLimits are single endpoints' limits; the others have RateLimit
	// when set, else their published one (endpoint.All).
	RateLimits map[string]RateLimit
	RateLimit  RateLimit
	Budget     float64 // the fraction of each endpoint's limit the client may use, in (0, 1]
	// HTTPClient defaults to NewHTTPClient(DefaultTimeout); the client uses
	// a copy that never follows redirects.
	HTTPClient   *http.Client
	MaxRetries   int   // retries of one request after transient errors and 429s; negative means none
	MaxBodyBytes int64 // larger answers are a bad response
	// RateCap, when set, is shared by every client of the process: each
	// request waits its turn under it after its endpoint's budget.
	RateCap *RateCap
	Metrics *Metrics // when set, instruments every request
	Logger  log.Logger
	// Clock, when set, is shared by the exchange's clients, so that an
	// offset one learned signs the requests of all; New makes one over Now.
	Clock *Clock
	// Endpoints are those this client will call, so that their code="429"
	// series exist from the start. Empty means token network without an
	// API key, and credentials and token history with.
	Endpoints []string
	// Public, when set, is the client through which this one asks the
	// system status, so that every account shares one budget of the
	// per-IP public limit. Its Clock should be this one's.
	Public *Client
	// Now and Sleep replace the clock in tests (the offset is measured
	// with Clock's own).
	Now   func() time.Time
	Sleep func(context.Context, time.Duration) error
}

// NewHTTPClient returns the HTTP client for every account, its connections
// kept alive and shared. Every request stays counted by the budget: send
// gives each an empty body, so net/http never resends a GET the exchange
// may have counted; HTTP/2, whose retries differ, is not offered; and
// redirects, which would resend the signed headers to another host, are not
// followed. Idle connections close below the usual 60 s of servers, so a
// server seldom closes one as it is reused.
func NewHTTPClient(timeout time.Duration) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.ForceAttemptHTTP2 = false
	t.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
	t.MaxIdleConns, t.MaxIdleConnsPerHost = maxIdleConns, maxIdleConns
	t.IdleConnTimeout = idleConnTimeout
	return &http.Client{Timeout: timeout, Transport: t, CheckRedirect: noRedirects}
}

// A thousand accounts send some 520 requests a second: 50 to 130 in flight.
const (
	maxIdleConns    = 128
	idleConnTimeout = 30 * time.Second
)

// emptyBody is the body of every request: see NewHTTPClient.
type emptyBody struct{}

func (emptyBody) Read([]byte) (int, error) { return 0, io.EOF }
func (emptyBody) Close() error             { return nil }

// noRedirects returns a 3xx answer as it is; send makes it a bad response.
func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// Client talks to the exchange for one account, safe for concurrent use.
type Client struct {
	cfg        Config // APISecret cleared: the secret is kept only inside creds
	baseURL    *url.URL
	creds      atomic.Pointer[credentials] // replaced whole by SetCredentials
	signatures signatureRing               // the latest sent, redacted from answers

	clock   *Clock
	metrics *AccountMetrics // nil without Metrics

	mu      sync.Mutex
	budgets map[string]*ratelimit.Budget
	served  map[string]int // per endpoint, the most rows seen on a page (see paginate)

	episode episode
}

// episode is what the system status said from a first -1011 until an answer
// succeeds, so that a run of -1011s asks it once; ask, a channel of one, is a lock
// that makes concurrent requests wait for one answer.
type episode struct {
	ask   chan struct{}
	mu    sync.Mutex
	state systemState
	asked time.Time
}

// New checks cfg and returns a client.
func New(cfg Config) (*Client, error) {
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	u, err := url.Parse(strings.TrimRight(cfg.BaseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("exchange URL %q: want http(s)://host", cfg.BaseURL)
	}
	// Paths start at the host: anything more would make every request 404.
	if u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return nil, fmt.Errorf("exchange URL %q: want http(s)://host[:port] with no path, query, fragment or user", u.Redacted())
	}
	if (cfg.APIKey == "") != (cfg.APISecret == "") {
		return nil, errors.New("account " + cfg.Account + ": API key and secret must be given together")
	}
	if cfg.Budget == 0 {
		cfg.Budget = DefaultBudget
	}
	if cfg.Budget < 0 || cfg.Budget > 1 {
		return nil, fmt.Errorf("budget %v: must be in (0, 1]", cfg.Budget)
	}
	if err := checkLimits(cfg); err != nil {
		return nil, err
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = NewHTTPClient(DefaultTimeout)
	} else {
		hc := *cfg.HTTPClient // the caller's keeps its redirect policy
		hc.CheckRedirect = noRedirects
		cfg.HTTPClient = &hc
	}
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = DefaultMaxRetries
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.Logger == nil {
		cfg.Logger = log.NewNopLogger()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Sleep == nil {
		cfg.Sleep = sleepCtx
	}
	if cfg.Clock == nil {
		cfg.Clock = NewClock(cfg.Now)
	}
	secret := cfg.APISecret
	cfg.APISecret = ""
	c := &Client{cfg: cfg, baseURL: u, clock: cfg.Clock, budgets: map[string]*ratelimit.Budget{}, served: map[string]int{}, episode: episode{ask: make(chan struct{}, 1)}}
	c.creds.Store(newCredentials(cfg.APIKey, secret))
	cfg.RateCap.Join(cfg.Account)
	if m := cfg.Metrics; m != nil {
		c.metrics = m.account(cfg.Account)
		for _, endpoint := range c.endpoints() {
			// WooxRateLimited's increase() needs each 429 series at 0 first.
			c.metrics.expect(endpoint, "429")
		}
	}
	return c, nil
}

// credentials are an account's API key and what signs with its secret: a
// closure, so that no formatting or reflection of the Client reaches it.
type credentials struct {
	key  string
	sign func(timestampMs, method, pathAndQuery, body string) string
}

func newCredentials(key, secret string) *credentials {
	return &credentials{key: key, sign: func(ts, method, pathAndQuery, body string) string {
		return Sign(secret, ts, method, pathAndQuery, body)
	}}
}

// SetCredentials replaces a rotated API key and secret; all else carries on.
func (c *Client) SetCredentials(apiKey, secret string) error {
	switch {
	case c.cfg.APIKey == "":
		return errors.New("the public client has no credentials to replace")
	case apiKey == "" || secret == "":
		return errors.New("account " + c.cfg.Account + ": API key and secret must be given together")
	}
	c.creds.Store(newCredentials(apiKey, secret))
	return nil
}

// AccountMetrics are the account's request counters, nil without Metrics.
func (c *Client) AccountMetrics() *AccountMetrics { return c.metrics }

// endpoints are Config.Endpoints or its default, and system info, which any may ask.
func (c *Client) endpoints() []string {
	names := c.cfg.Endpoints
	switch {
	case len(names) > 0:
	case c.cfg.APIKey == "":
		names = []string{endpoint.TokenNetwork}
	default:
		names = []string{endpoint.Credentials, endpoint.TokenHistory}
	}
	return append(slices.Clip(names), endpoint.SystemInfo)
}

// Account is the account label the client was configured with.
func (c *Client) Account() string { return c.cfg.Account }

// ServerNow is the exchange's time as the client knows it (Clock.ServerNow).
func (c *Client) ServerNow() time.Time { return c.clock.ServerNow() }

// ClockOffset is Clock.Offset.
func (c *Client) ClockOffset() (offset time.Duration, ok bool) { return c.clock.Offset() }

// Clock is the clock the client signs with, shared or its own.
func (c *Client) Clock() *Clock { return c.clock }

// checkLimits refuses a limit not positive, or that the budget leaves no request of.
func checkLimits(cfg Config) error {
	check := func(what string, l RateLimit) error {
		if l.Requests <= 0 || l.Window <= 0 {
			return fmt.Errorf("rate limit %s%s: must be positive", l, what)
		}
		if l.Allowed(cfg.Budget) < 1 {
			return fmt.Errorf("budget %v of %s%s allows no request at all", cfg.Budget, l, what)
		}
		return nil
	}
	if cfg.RateLimit != (RateLimit{}) {
		if err := check("", cfg.RateLimit); err != nil {
			return err
		}
	}
	for endpoint, l := range cfg.RateLimits {
		if err := check(" of "+endpoint, l); err != nil {
			return err
		}
	}
	return nil
}

// LimitOf is the rate limit the client keeps to on endpoint name (Config.RateLimits).
func (c *Client) LimitOf(name string) RateLimit {
	if l, ok := c.cfg.RateLimits[name]; ok {
		return l
	}
	if c.cfg.RateLimit != (RateLimit{}) {
		return c.cfg.RateLimit
	}
	if ep, ok := endpoint.Of(name); ok {
		return RateLimit(ep.Limit)
	}
	return DefaultRateLimit
}

func (c *Client) budgetFor(endpoint string) *ratelimit.Budget {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.budgets[endpoint]
	if !ok {
		limit := c.LimitOf(endpoint)
		b = ratelimit.NewBudget(limit.Allowed(c.cfg.Budget), limit.Window, c.cfg.Now, c.cfg.Sleep)
		c.budgets[endpoint] = b
	}
	return b
}

// RateLimit is a number of requests per limit window.
type RateLimit = ratelimit.Limit

// ParseRateLimit parses a limit written as "REQUESTS/WINDOW", e.g. "10/60s".
func ParseRateLimit(s string) (RateLimit, error) { return ratelimit.Parse(s) }
