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
	// SigningWindow is how far x-api-timestamp may be from the exchange's
	// clock before the exchange rejects the signature.
	SigningWindow = 300 * time.Second
	// maxBackoff bounds the wait between retries of transient failures.
	maxBackoff = 30 * time.Second
)

// LongestRequest is the longest one call of a method may spend on one page
// with DefaultMaxRetries while doing nothing wrong: a window waiting for a
// full budget, then per retry a window plus jitter after a 429 (or a shorter
// back-off), and the request timeout per attempt; and three requests more,
// each of which may wait a window for its budget: the system info request
// that learns the exchange's time and the signed attempt after it, and the
// system info request after a -1011. Callers that cancel stalled work must
// wait longer than this.
func LongestRequest(limit RateLimit, timeout time.Duration) time.Duration {
	perRetry := max(jitterMax(limit.Window), jitterMax(maxBackoff))
	return limit.Window + DefaultMaxRetries*perRetry + (DefaultMaxRetries+1)*timeout + 3*(limit.Window+timeout)
}

// DefaultRateLimit is the limit of an endpoint the endpoint table lacks: 10
// requests per 60 s, the lowest the exchange publishes for a private one.
var DefaultRateLimit = RateLimit{Requests: 10, Window: 60 * time.Second}

// Config configures a Client for one account, or for the public endpoints
// only when APIKey is empty.
type Config struct {
	// BaseURL is the exchange address, e.g. https://api.woox.io.
	BaseURL string
	// Account is the label of the account in metrics and logs.
	Account   string
	APIKey    string
	APISecret string
	// RateLimits are the limits of single endpoints. An endpoint not in it
	// has RateLimit when that is set, else its published limit (its
	// entry's Limit in endpoint.All).
	RateLimits map[string]RateLimit
	RateLimit  RateLimit
	// Budget is the fraction of each endpoint's limit the client may use,
	// in (0, 1].
	Budget float64
	// HTTPClient defaults to a client with a 30 s timeout. The client uses a
	// copy that never follows redirects, whatever its CheckRedirect says.
	HTTPClient *http.Client
	// MaxRetries bounds retries of one request after transient errors and
	// 429s; negative means none.
	MaxRetries int
	// MaxBodyBytes caps the answer size; larger answers are a bad response.
	MaxBodyBytes int64
	// RateCap, when set, is shared by every client of the process: each
	// request, after its endpoint's budget, waits its turn under it.
	RateCap *RateCap
	// Metrics, when set, instruments every request.
	Metrics *Metrics
	Logger  log.Logger
	// Clock, when set, is shared with the other clients of the exchange, so
	// that an offset any of them learned signs the requests of all. New
	// makes one over Now when it is nil.
	Clock *Clock
	// Endpoints are the names of the endpoints this client will call, so
	// that their code="429" series exist from the start (the exporter sets
	// them with endpoint.Names). Empty means token network without an
	// API key, and credentials and token history with.
	Endpoints []string
	// Public, when set, is the client of the public endpoints: this
	// client asks the system status (after a -1011, or to learn the
	// exchange's time) through it, so that every account shares one
	// budget of the per-IP public limit. Its Clock should be this one's.
	Public *Client
	// Now and Sleep replace the clock in tests. Now times budgets and
	// requests; the offset is measured with Clock's own local clock.
	Now   func() time.Time
	Sleep func(context.Context, time.Duration) error
}

// NewHTTPClient returns the HTTP client the exporter should use, one for
// every account: connections are kept alive and shared, so that a request
// costs no dial (against the exchange, no TLS handshake either). Two things
// keep every request counted by the budget. net/http resends a GET whose
// reused connection the server closed before answering, and the exchange
// may have counted the first; send gives each request an empty body, which
// net/http never resends once it may have written it (it still retries a
// request it wrote nothing of). HTTP/2, whose retries and empty bodies
// differ, is not offered. Idle connections are closed after
// idleConnTimeout, below the usual idle timeouts of servers and load
// balancers (60 s), so that a server seldom closes one as it is reused.
// Redirects are not followed: net/http would resend x-api-key and
// x-api-signature to whatever host the Location names, and the extra request
// would bypass the budget.
func NewHTTPClient(timeout time.Duration) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.ForceAttemptHTTP2 = false
	t.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
	t.MaxIdleConns, t.MaxIdleConnsPerHost = maxIdleConns, maxIdleConns
	t.IdleConnTimeout = idleConnTimeout
	return &http.Client{Timeout: timeout, Transport: t, CheckRedirect: noRedirects}
}

// A thousand accounts at the default intervals send some 520 requests a
// second; at a round trip of 0.1 to 0.25 s to the exchange, that is 50 to
// 130 in flight, each on a connection of its own.
const (
	maxIdleConns    = 128
	idleConnTimeout = 30 * time.Second
)

// emptyBody is the body of every request: see NewHTTPClient.
type emptyBody struct{}

func (emptyBody) Read([]byte) (int, error) { return 0, io.EOF }
func (emptyBody) Close() error             { return nil }

// noRedirects makes net/http return a 3xx answer as it is; send turns it
// into a bad response.
func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// Client talks to the exchange on behalf of one account. It is safe for
// concurrent use; all callers share its request budgets.
type Client struct {
	cfg     Config // APISecret cleared: the secret lives only inside creds
	baseURL *url.URL
	// creds are the API key and what signs with the secret; replaced
	// whole when the key is rotated (SetCredentials).
	creds atomic.Pointer[credentials]
	// signatures are the latest ones sent, redacted from what the
	// exchange answers.
	signatures signatureRing

	clock *Clock
	// metrics are the account's request counters, nil without Metrics.
	metrics *AccountMetrics

	mu      sync.Mutex
	budgets map[string]*ratelimit.Window
	// served is, per endpoint, the most rows the exchange has put on one
	// page: a page shorter is the last (see paginate).
	served map[string]int

	// episode is what the system status said in the current -1011 episode:
	// from the first -1011 until an answer succeeds.
	episode episode
}

// episode remembers the system status of one -1011 episode, so that a run of
// -1011 answers asks it once and not once per request. ask is a one-slot
// lock held while asking, so concurrent requests wait for one answer.
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
	// Every endpoint path starts at the host: a path, query or fragment
	// here would be accepted and then every request would miss (404).
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
		// A copy, so the caller's client keeps its own redirect policy
		// for other uses.
		hc := *cfg.HTTPClient
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
	c := &Client{cfg: cfg, baseURL: u, clock: cfg.Clock, budgets: map[string]*ratelimit.Window{}, served: map[string]int{}, episode: episode{ask: make(chan struct{}, 1)}}
	c.creds.Store(newCredentials(cfg.APIKey, secret))
	cfg.RateCap.Join(cfg.Account)
	if m := cfg.Metrics; m != nil {
		c.metrics = m.account(cfg.Account)
		for _, endpoint := range c.endpoints() {
			// A counter that appears on its first 429 starts at 1, and
			// increase() never sees that first 429: the WooxRateLimited
			// alert needs the series to exist at 0 before.
			c.metrics.expect(endpoint, "429")
		}
	}
	return c, nil
}

// credentials are an account's API key and what signs with its secret.
type credentials struct {
	key string
	// sign signs a request string with the secret. A closure, so that no
	// formatting or reflection of the Client can reach the secret.
	sign func(timestampMs, method, pathAndQuery, body string) string
}

func newCredentials(key, secret string) *credentials {
	return &credentials{key: key, sign: func(ts, method, pathAndQuery, body string) string {
		return Sign(secret, ts, method, pathAndQuery, body)
	}}
}

// SetCredentials replaces the account's API key and secret, as when the key
// is rotated: the next request signs with them, and the budgets, the clock
// and the request counters carry on.
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

// AccountMetrics are the client's account's request counters, for the
// exporter to serve; nil when the client has no Metrics.
func (c *Client) AccountMetrics() *AccountMetrics { return c.metrics }

// endpoints are the endpoints the client is meant to call: Config.Endpoints
// or its default; and system info, which any client asks after a -1011 and
// a signed one to learn the exchange's time.
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

// ServerNow is the local clock corrected by the latest trusted offset to
// the exchange's clock (see Clock.ServerNow).
func (c *Client) ServerNow() time.Time { return c.clock.ServerNow() }

// ClockOffset is the exchange clock minus the local clock from the latest
// trusted answer; ok is false before the first one (see Clock.Offset).
func (c *Client) ClockOffset() (offset time.Duration, ok bool) { return c.clock.Offset() }

// Clock is the clock the client signs with, shared or its own.
func (c *Client) Clock() *Clock { return c.clock }

// checkLimits refuses a limit that is not positive, or that the budget
// leaves no request of.
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

// LimitOf is the rate limit the client keeps to on endpoint: its own in
// Config.RateLimits, else Config.RateLimit, else the published one.
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

func (c *Client) budgetFor(endpoint string) *ratelimit.Window {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.budgets[endpoint]
	if !ok {
		limit := c.LimitOf(endpoint)
		b = ratelimit.NewWindow(limit.Allowed(c.cfg.Budget), limit.Window, c.cfg.Now, c.cfg.Sleep)
		c.budgets[endpoint] = b
	}
	return b
}

// RateLimit is a number of requests per window.
type RateLimit = ratelimit.Limit

// ParseRateLimit parses a limit written as "REQUESTS/WINDOW", e.g. "10/60s".
func ParseRateLimit(s string) (RateLimit, error) { return ratelimit.Parse(s) }
