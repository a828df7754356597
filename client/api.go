package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
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

// maxPages stops paging through an answer that never ends, so a misbehaving
// exchange cannot keep a poll spending the budget forever.
const maxPages = 10000

// TokenNetworks returns every token network. The endpoint is public.
func (c *Client) TokenNetworks(ctx context.Context) ([]TokenNetwork, error) {
	var rows []TokenNetwork
	err := c.get(ctx, request{op: "get token networks", endpoint: EndpointTokenNetwork, path: PathTokenNetwork,
		decode: func(data json.RawMessage, _ int64) (err error) {
			rows, err = decodeTokenNetworks(data)
			return err
		}})
	return rows, err
}

// Credentials returns every API key of the account, all pages, each key
// once even if pages repeat it.
func (c *Client) Credentials(ctx context.Context) ([]Credential, error) {
	var all []Credential
	seen := map[string]bool{}
	err := paginate(MaxPageSize, func(page, size int) ([]string, error) {
		var rows []Credential
		err := c.get(ctx, request{op: fmt.Sprintf("get credentials page %d", page), endpoint: EndpointCredentials,
			path: PathCredentials, query: encodeQuery(pageParams(nil, page, size)), signed: true,
			decode: func(data json.RawMessage, _ int64) (err error) {
				rows, _, err = decodeCredentials(data)
				return err
			}})
		if err != nil {
			return nil, err
		}
		keys := make([]string, len(rows))
		for i, r := range rows {
			keys[i] = r.APIKey
			if !seen[r.APIKey] {
				seen[r.APIKey] = true
				all = append(all, r)
			}
		}
		return keys, nil
	})
	return all, err
}

// TokenHistory returns every record matching q, all pages, in the order the
// exchange sent them, and the rows that could not be read. Records may
// repeat across pages if the exchange's result set shifts while paging;
// callers deduplicate by ID.
func (c *Client) TokenHistory(ctx context.Context, q HistoryQuery) ([]HistoryRecord, []MalformedRow, error) {
	var all []HistoryRecord
	var malformed []MalformedRow
	err := c.TokenHistoryPages(ctx, q, func(p HistoryPage) error {
		all = append(all, p.Records...)
		malformed = append(malformed, p.Malformed...)
		return nil
	})
	return all, malformed, err
}

// TokenHistoryPages calls fn for each page of records matching q, in order,
// so a caller can process a large backlog page by page. The last page is
// empty or brings only rows already seen (see paginate). It stops at the first error, from the exchange or from fn.
func (c *Client) TokenHistoryPages(ctx context.Context, q HistoryQuery, fn func(HistoryPage) error) error {
	params, err := q.params()
	if err != nil {
		return &Error{Op: "get token history", Kind: KindOther, Err: err}
	}
	size := q.PageSize
	if size <= 0 || size > MaxPageSize {
		size = MaxPageSize
	}
	return paginate(size, func(page, size int) ([]rowIdentity, error) {
		var p HistoryPage
		err := c.get(ctx, request{op: fmt.Sprintf("get token history page %d", page), endpoint: EndpointTokenHistory,
			path: PathTokenHistory, query: encodeQuery(pageParams(params, page, size)), signed: true,
			decode: func(data json.RawMessage, serverTimeMs int64) (err error) {
				p, err = decodeHistory(data)
				p.ServerTimeMs = serverTimeMs
				return err
			}})
		if err != nil {
			return nil, err
		}
		if err := fn(p); err != nil {
			return nil, err
		}
		return historyIdentities(p), nil
	})
}

// params checks q and returns its filters as query parameters.
func (q HistoryQuery) params() ([]param, error) {
	var params []param
	if q.Type != "" {
		params = append(params, param{"type", q.Type})
	}
	for _, t := range []struct {
		name string
		ms   int64
	}{{"startTime", q.StartTime}, {"endTime", q.EndTime}} {
		if t.ms == 0 {
			continue
		}
		if t.ms < 1e12 || t.ms >= 1e13 {
			return nil, fmt.Errorf("%s %d: want 13 digits of Unix milliseconds", t.name, t.ms)
		}
		params = append(params, param{t.name, strconv.FormatInt(t.ms, 10)})
	}
	if q.StartTime != 0 && q.EndTime != 0 && q.StartTime > q.EndTime {
		return nil, fmt.Errorf("startTime %d is after endTime %d", q.StartTime, q.EndTime)
	}
	return params, nil
}

// rowIdentity identifies a token history row within one paging: the id with
// a hash of token and type for a record (the legs of one trade may share an
// id), a hash of the key for a malformed row. Small and without pointers, so
// that a 50,000-record catch-up remembers its rows cheaply; a hash collision
// could only end paging if every row of a page collided.
type rowIdentity struct {
	id     int64
	hash   uint64
	broken bool
}

func historyIdentities(p HistoryPage) []rowIdentity {
	ids := make([]rowIdentity, 0, len(p.Records)+len(p.Malformed))
	for _, r := range p.Records {
		ids = append(ids, rowIdentity{id: r.ID, hash: fnv1a(fnv1a(fnvOffset, r.Token, true), r.Type, false)})
	}
	for _, m := range p.Malformed {
		ids = append(ids, rowIdentity{hash: fnv1a(fnvOffset, m.Key, false), broken: true})
	}
	return ids
}

const fnvOffset, fnvPrime = 14695981039346656037, 1099511628211

// fnv1a adds s (and a zero byte after it when sep) to the FNV-1a hash h.
func fnv1a(h uint64, s string, sep bool) uint64 {
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * fnvPrime
	}
	if sep {
		h *= fnvPrime
	}
	return h
}

// paginate fetches pages 1, 2, ... of size rows until a page comes back
// empty or brings no row the page before it did not (an exchange may answer
// a page beyond the last with the last again), or maxPages were fetched.
// fetch returns the identity of each row of its page. Only the previous
// page's rows are remembered, so a long catch-up costs no memory here.
//
// Neither a short page nor meta ends the list: an exchange may cap pages
// below the size asked without saying so in meta.recordsPerPage, and
// understate meta.total, and stopping early would lose the records beyond
// for good. The cost is one empty page per poll.
func paginate[K comparable](size int, fetch func(page, size int) (identities []K, err error)) error {
	previous := map[K]struct{}{}
	for page := 1; page <= maxPages; page++ {
		ids, err := fetch(page, size)
		if err != nil {
			return err
		}
		fresh := false
		current := make(map[K]struct{}, len(ids))
		for _, id := range ids {
			current[id] = struct{}{}
			if _, ok := previous[id]; !ok {
				fresh = true
			}
		}
		if !fresh {
			return nil
		}
		previous = current
	}
	return &Error{Op: "paginate", Kind: KindBadResponse, Err: fmt.Errorf("more than %d pages", maxPages)}
}

type param struct{ key, value string }

// pageParams adds the paging parameters to params.
func pageParams(params []param, page, size int) []param {
	return append(slices.Clip(params), param{"page", strconv.Itoa(page)}, param{"size", strconv.Itoa(size)})
}

// encodeQuery builds the raw query string with the parameters sorted by
// name, as the legacy API required for signing: sorted parameters are
// accepted whether the exchange verifies the signature over the query as
// sent or over the query sorted. The result is sent and signed byte for
// byte as returned.
func encodeQuery(params []param) string {
	sorted := slices.Clone(params)
	slices.SortStableFunc(sorted, func(a, b param) int { return strings.Compare(a.key, b.key) })
	var q []byte
	for _, p := range sorted {
		if len(q) > 0 {
			q = append(q, '&')
		}
		q = append(q, url.QueryEscape(p.key)...)
		q = append(q, '=')
		q = append(q, url.QueryEscape(p.value)...)
	}
	return string(q)
}
