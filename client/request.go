package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/go-kit/log/level"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// request is one call to the exchange.
type request struct {
	op       string // for errors: "get token history page 2"
	endpoint string // budget key, metric label and path (endpoint.All)
	query    string // raw query, sent and signed as is
	signed   bool
	probe    bool // the client's own system info request: one attempt, no probe of its own
	// decode reads the envelope's data, given the answer's server time in
	// Unix ms (0 when none); its error makes a bad response.
	decode func(data json.RawMessage, serverTimeMs int64) error
}

// systemState is what the system status said in a -1011 episode.
type systemState int

const (
	systemUnasked systemState = iota
	systemNormal              // or unreadable: -1011 is then transient
	systemMaintenance
)

// get sends r, retrying transient failures and 429s within the budget. A
// signed request rejected with no recent offset to the exchange's clock is
// tried once more after learning it; a -1011 is maintenance only if the
// system status says so.
func (c *Client) get(ctx context.Context, r request) error {
	if r.signed && c.cfg.APIKey == "" {
		return &Error{Op: r.op, Kind: KindAuth, Message: "no API key configured"}
	}
	b := c.budgetFor(r.endpoint)
	backoff := time.Second
	calibrated := false
	for retries := 0; ; {
		release, err := b.Acquire(ctx)
		if err != nil {
			return &Error{Op: r.op, Kind: KindTransient, Err: err}
		}
		if err := c.waitTurn(ctx); err != nil {
			release(false)
			return &Error{Op: r.op, Kind: KindTransient, Err: err}
		}
		_, offsetKnown := c.clock.Offset()
		err = c.send(ctx, r)
		release(true)
		if err == nil {
			if !r.probe {
				c.endEpisode()
			}
			return nil
		}
		if r.signed && !calibrated && rejectedSignature(err) && ctx.Err() == nil && (!offsetKnown || !c.clock.freshWithin(staleOffset)) {
			calibrated = true
			if c.calibrate(ctx, r.op, offsetKnown) {
				continue
			}
		}
		var e *Error
		if errors.As(err, &e) && e.Code == CodeMaintenance && r.endpoint != endpoint.SystemInfo && c.systemState(ctx, r.op) == systemMaintenance {
			e.Kind = KindMaintenance
		}
		kind, _ := kindOf(err)
		if kind == KindRateLimited {
			// Someone (the user's own bots?) used the budget: stay away a limit window.
			b.Block(jitter(c.LimitOf(r.endpoint).Window))
		}
		if r.probe || retries >= c.cfg.MaxRetries || (kind != KindRateLimited && kind != KindTransient) || ctx.Err() != nil {
			return err
		}
		retries++
		level.Debug(c.cfg.Logger).Log("msg", "retrying exchange request", "op", r.op, "account", c.cfg.Account, "err", err)
		if kind == KindTransient {
			if err := c.cfg.Sleep(ctx, jitter(backoff)); err != nil {
				return &Error{Op: r.op, Kind: KindTransient, Err: err}
			}
			backoff = min(2*backoff, maxBackoff)
		}
	}
}

// getData sends r and reads its answer's data with decode.
func getData[T any](ctx context.Context, c *Client, r request, decode func(json.RawMessage) (T, error)) (T, error) {
	var out T
	r.decode = func(data json.RawMessage, _ int64) (err error) {
		out, err = decode(data)
		return err
	}
	err := c.get(ctx, r)
	return out, err
}

// rejectedSignature reports whether err refuses a signature or timestamp.
func rejectedSignature(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Kind == KindAuth && (e.Code == CodeInvalidSignature || e.StatusCode == http.StatusUnauthorized)
}

// staleOffset is how old a known offset must be before a refused signature
// asks the exchange's time again: the public pollers refresh it each minute,
// and a wrong key must not cost the public budget a request each time.
const staleOffset = 5 * time.Minute

// calibrate learns the offset to the exchange's clock from system info,
// unless a client sharing the clock just did, and reports whether one is
// known (with recheck, fresher than staleOffset).
func (c *Client) calibrate(ctx context.Context, op string, recheck bool) bool {
	if recheck && c.clock.freshWithin(staleOffset) {
		return true
	}
	if _, ok := c.clock.Offset(); ok && !recheck {
		return true
	}
	level.Debug(c.cfg.Logger).Log("msg", "signed request rejected with no recent measure of the exchange's time; asking it", "op", op, "account", c.cfg.Account)
	if _, err := c.systemInfo(ctx, true); err != nil {
		level.Debug(c.cfg.Logger).Log("msg", "could not learn the exchange's time", "op", op, "account", c.cfg.Account, "err", err)
	}
	if recheck {
		return c.clock.freshWithin(staleOffset)
	}
	_, ok := c.clock.Offset()
	return ok
}

// systemStatusFresh is how long a system status holds, so a long episode notices a change.
const systemStatusFresh = time.Minute

// systemState is the system status after a -1011 answer to op, asked once an episode.
func (c *Client) systemState(ctx context.Context, op string) systemState {
	select {
	case c.episode.ask <- struct{}{}:
		defer func() { <-c.episode.ask }()
	case <-ctx.Done():
		return systemNormal
	}
	ep := &c.episode
	ep.mu.Lock()
	state, asked := ep.state, ep.asked
	ep.mu.Unlock()
	if state != systemUnasked && c.cfg.Now().Sub(asked) < systemStatusFresh {
		return state
	}
	state = systemNormal
	info, err := c.systemInfo(ctx, true)
	switch {
	case err != nil:
		level.Debug(c.cfg.Logger).Log("msg", "could not read the system status after -1011; treating it as transient", "op", op, "account", c.cfg.Account, "err", err)
	case info.Maintenance():
		state = systemMaintenance
	}
	ep.mu.Lock()
	ep.state, ep.asked = state, c.cfg.Now()
	ep.mu.Unlock()
	return state
}

// endEpisode ends the -1011 episode: an answer succeeded.
func (c *Client) endEpisode() {
	c.episode.mu.Lock()
	c.episode.state = systemUnasked
	c.episode.mu.Unlock()
}

// send makes one HTTP request and decodes the answer.
func (c *Client) send(ctx context.Context, r request) error {
	path := endpoint.PathOf(r.endpoint)
	pathAndQuery := path
	if r.query != "" {
		pathAndQuery += "?" + r.query
	}
	u := *c.baseURL
	u.Path = c.baseURL.Path + path
	u.RawQuery = r.query
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return &Error{Op: r.op, Kind: KindOther, Err: err}
	}
	req.Body = emptyBody{} // never resent by net/http: see NewHTTPClient
	req.Header.Set("Accept", "application/json")
	if r.signed {
		c.signRequest(req, pathAndQuery)
	}

	start, sent := c.cfg.Now(), c.clock.now()
	resp, err := c.cfg.HTTPClient.Do(req)
	if err != nil {
		c.observe(r.endpoint, "error", start)
		return &Error{Op: r.op, Kind: transportKind(err), Err: redactURLError(err)}
	}
	defer resp.Body.Close()
	buf, readErr := readBody(resp.Body, c.cfg.MaxBodyBytes)
	defer releaseBody(buf) // decoders copy what they keep
	body := buf.Bytes()
	received := c.clock.now()
	c.observe(r.endpoint, strconv.Itoa(resp.StatusCode), start)
	if readErr != nil {
		return &Error{Op: r.op, Kind: KindTransient, StatusCode: resp.StatusCode, Err: fmt.Errorf("read answer: %w", redactURLError(readErr))}
	}
	if int64(len(body)) > c.cfg.MaxBodyBytes {
		return &Error{Op: r.op, Kind: KindBadResponse, StatusCode: resp.StatusCode, Err: fmt.Errorf("answer exceeds %d bytes", c.cfg.MaxBodyBytes)}
	}
	if resp.StatusCode >= 300 && resp.StatusCode <= 399 {
		// The API never redirects. The Location is left out: its query may carry anything.
		return &Error{Op: r.op, Kind: KindBadResponse, StatusCode: resp.StatusCode, Err: errors.New("answer is a redirect, which is never followed")}
	}
	return c.decodeAnswer(r, resp.StatusCode, body, sent, received)
}

// decodeAnswer reads the envelope of an answer and hands its data to r.decode.
func (c *Client) decodeAnswer(r request, status int, body []byte, sent, received time.Time) error {
	env, decodeErr := decodeEnvelope(body)
	if status < 200 || status > 299 {
		e := &Error{Op: r.op, StatusCode: status}
		if decodeErr == nil {
			e.Code, e.Message = int(env.Code.Value), truncateForError(c.redact(env.Message))
		}
		e.Kind = classify(status, e.Code)
		return e
	}
	if decodeErr != nil {
		return &Error{Op: r.op, Kind: KindBadResponse, StatusCode: status, Err: fmt.Errorf("answer is not the JSON envelope: %w", decodeErr)}
	}
	if env.Success == nil || !*env.Success {
		e := &Error{Op: r.op, StatusCode: status, Code: int(env.Code.Value), Message: truncateForError(c.redact(env.Message))}
		e.Kind = classify(status, e.Code)
		if e.Kind == KindOther {
			e.Kind = KindBadResponse
		}
		if env.Success == nil {
			e.Err = errors.New("answer has no success field")
		}
		return e
	}
	// Only a success sets the clock: an error may come from a proxy.
	serverMs := env.serverTimeMs()
	if serverMs != 0 {
		c.recordClock(time.UnixMilli(serverMs), sent, received)
	}
	if err := r.decode(env.Data, serverMs); err != nil {
		return &Error{Op: r.op, Kind: KindBadResponse, StatusCode: status, Err: err}
	}
	return nil
}

// signRequest signs req with the exchange's time and remembers the signature to redact it.
func (c *Client) signRequest(req *http.Request, pathAndQuery string) {
	ts := strconv.FormatInt(c.clock.ServerNow().UnixMilli(), 10)
	creds := c.creds.Load()
	sig := creds.sign(ts, http.MethodGet, c.baseURL.Path+pathAndQuery, "")
	c.signatures.add(sig)
	req.Header.Set("x-api-key", creds.key)
	req.Header.Set("x-api-timestamp", ts)
	req.Header.Set("x-api-signature", sig)
}

func (c *Client) observe(endpoint, code string, start time.Time) {
	if m := c.cfg.Metrics; m != nil {
		c.metrics.request(endpoint, code)
		m.duration.WithLabelValues(endpoint).Observe(c.cfg.Now().Sub(start).Seconds())
	}
}

// recordClock hands an answer's server time to the clock and logs what it made of it.
func (c *Client) recordClock(server, sent, received time.Time) {
	news := c.clock.observe(server, sent, received)
	switch {
	case news.slow:
		level.Debug(c.cfg.Logger).Log("msg", "answer's round trip unfit to measure the exchange's clock by", "account", c.cfg.Account, "round_trip", received.Sub(sent).Round(time.Millisecond))
		return
	case news.implausible:
		level.Warn(c.cfg.Logger).Log("msg", "exchange time is implausibly far from the local clock; ignored", "account", c.cfg.Account, "offset", news.offset.Round(time.Second), "bound", maxClockOffset)
		return
	case !news.trusted:
		return
	}
	if m := c.cfg.Metrics; m != nil {
		m.clockSkew.Set(news.offset.Seconds())
	}
	switch news.skew {
	case skewWarn:
		level.Warn(c.cfg.Logger).Log("msg", "local clock is drifting from the exchange's; requests are signed with the exchange's time, but the host's time sync needs fixing", "account", c.cfg.Account, "offset", news.offset.Round(time.Millisecond))
	case skewRecovered:
		level.Info(c.cfg.Logger).Log("msg", "local clock is back within 60s of the exchange's", "account", c.cfg.Account, "offset", news.offset.Round(time.Millisecond))
	}
}

// redactURLError drops the URL from net/http errors: uniform ones are easier to alert on.
func redactURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// jitter is d plus up to a tenth, so that exporters do not retry in lockstep.
func jitter(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return d + rand.N(d/10+1)
}

// jitterMax is the most jitter(d) returns.
func jitterMax(d time.Duration) time.Duration { return d + d/10 }
