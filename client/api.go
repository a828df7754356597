package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
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

// maxPages stops paging through an answer whose meta never says "done", so a
// misbehaving exchange cannot keep a poll spending the budget forever.
const maxPages = 10000

// TokenNetworks returns every token network. The endpoint is public.
func (c *Client) TokenNetworks(ctx context.Context) ([]TokenNetwork, error) {
	var rows []TokenNetwork
	err := c.get(ctx, request{op: "get token networks", endpoint: EndpointTokenNetwork, path: PathTokenNetwork,
		decode: func(data json.RawMessage) (err error) {
			rows, err = decodeTokenNetworks(data)
			return err
		}})
	return rows, err
}

// Credentials returns every API key of the account, all pages.
func (c *Client) Credentials(ctx context.Context) ([]Credential, error) {
	var all []Credential
	err := c.paginate(ctx, MaxPageSize, func(page, size int) (int, *PageMeta, error) {
		var rows []Credential
		var meta *PageMeta
		err := c.get(ctx, request{op: fmt.Sprintf("get credentials page %d", page), endpoint: EndpointCredentials,
			path: PathCredentials, query: pageQuery(nil, page, size), signed: true,
			decode: func(data json.RawMessage) (err error) {
				rows, meta, err = decodeCredentials(data)
				return err
			}})
		if err != nil {
			return 0, nil, err
		}
		all = append(all, rows...)
		return len(rows), meta, nil
	})
	return all, err
}

// TokenHistory returns every record matching q, all pages, in the order the
// exchange sent them. Records may repeat across pages if the exchange's
// result set shifts while paging; callers deduplicate by ID.
func (c *Client) TokenHistory(ctx context.Context, q HistoryQuery) ([]HistoryRecord, error) {
	var all []HistoryRecord
	err := c.TokenHistoryPages(ctx, q, func(p HistoryPage) error {
		all = append(all, p.Records...)
		return nil
	})
	return all, err
}

// TokenHistoryPages calls fn for each page of records matching q, in order,
// so a caller can process a large backlog page by page. It stops at the
// first error, from the exchange or from fn.
func (c *Client) TokenHistoryPages(ctx context.Context, q HistoryQuery, fn func(HistoryPage) error) error {
	size := q.PageSize
	if size <= 0 || size > MaxPageSize {
		size = MaxPageSize
	}
	var params []param
	if q.Type != "" {
		params = append(params, param{"type", q.Type})
	}
	if q.StartTime != 0 {
		params = append(params, param{"startTime", strconv.FormatInt(q.StartTime, 10)})
	}
	if q.EndTime != 0 {
		params = append(params, param{"endTime", strconv.FormatInt(q.EndTime, 10)})
	}
	return c.paginate(ctx, size, func(page, size int) (int, *PageMeta, error) {
		var rows []HistoryRecord
		var meta *PageMeta
		err := c.get(ctx, request{op: fmt.Sprintf("get token history page %d", page), endpoint: EndpointTokenHistory,
			path: PathTokenHistory, query: pageQuery(params, page, size), signed: true,
			decode: func(data json.RawMessage) (err error) {
				rows, meta, err = decodeHistory(data)
				return err
			}})
		if err != nil {
			return 0, nil, err
		}
		p := HistoryPage{Records: rows}
		if meta != nil {
			p.Meta = *meta
		}
		if err := fn(p); err != nil {
			return 0, nil, err
		}
		return len(rows), meta, nil
	})
}

// paginate fetches pages 1, 2, ... until a page comes back empty, or short
// (fewer rows than the page size, which is the size asked for or, when
// meta.recordsPerPage says the exchange serves smaller pages, that) with
// meta.total reached. A full page always leads to the next one, whatever
// meta.total says: an exchange that understates the total would otherwise
// lose the records beyond it for good. A total that is an exact multiple of
// the page size, or one that overstates the rows, costs one empty page more.
func (c *Client) paginate(ctx context.Context, size int, fetch func(page, size int) (rows int, meta *PageMeta, err error)) error {
	seen := 0
	for page := 1; page <= maxPages; page++ {
		n, meta, err := fetch(page, size)
		if err != nil {
			return err
		}
		served := size
		if meta != nil && meta.RecordsPerPage > 0 && meta.RecordsPerPage < size {
			served = meta.RecordsPerPage
		}
		if n == 0 {
			return nil
		}
		// A short page ends the list unless meta.total says rows remain: an
		// exchange may cap pages below the size asked for without saying
		// so in recordsPerPage. If the total merely overstates, the next
		// page comes back empty.
		seen += n
		if n < served && (meta == nil || seen >= meta.Total) {
			return nil
		}
	}
	return &Error{Op: "paginate", Kind: KindBadResponse, Err: fmt.Errorf("more than %d pages", maxPages)}
}

type param struct{ key, value string }

// pageQuery builds the raw query string in a fixed order; it is sent and
// signed byte for byte as returned.
func pageQuery(params []param, page, size int) string {
	var q []byte
	add := func(k, v string) {
		if len(q) > 0 {
			q = append(q, '&')
		}
		q = append(q, url.QueryEscape(k)...)
		q = append(q, '=')
		q = append(q, url.QueryEscape(v)...)
	}
	for _, p := range params {
		add(p.key, p.value)
	}
	add("page", strconv.Itoa(page))
	add("size", strconv.Itoa(size))
	return string(q)
}
