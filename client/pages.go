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

// MaxPageSize is the largest page the exchange serves on list endpoints.
const MaxPageSize = 1000

// maxPages stops a list that never ends from spending the budget forever.
const maxPages = 10000

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

// DefaultPageSize is the exchange's documented default: a page shorter is the last.
const DefaultPageSize = 25

// paginate fetches pages 1, 2, ... of size rows, fetch returning each row's
// identity, until a page is empty, brings no row new to the page before (an
// exchange may serve the last page again), is clearly the last, or maxPages
// were fetched. Only the previous page is remembered, as a slice: a poll
// waiting for its next request holds no map.
//
// A page is clearly the last when shorter than the exchange is known to
// serve: DefaultPageSize, or served, the most rows it has put on a page. A
// page shorter than asked is not enough: an exchange may cap pages silently
// and understate meta.total, and stopping there would lose records for
// good. paginate returns served, raised by what it saw.
func paginate[K comparable](size, served int, fetch func(page, size int) (identities []K, err error)) (int, error) {
	var previous []K
	for page := 1; page <= maxPages; page++ {
		ids, err := fetch(page, size)
		if err != nil {
			return served, err
		}
		if !anyNew(ids, previous) {
			return served, nil
		}
		last := len(ids) < min(size, max(DefaultPageSize, served))
		served = max(served, len(ids))
		if last {
			return served, nil
		}
		previous = ids
	}
	return served, &Error{Op: "paginate", Kind: KindBadResponse, Err: fmt.Errorf("more than %d pages", maxPages)}
}

// anyNew reports whether ids holds an identity previous does not.
func anyNew[K comparable](ids, previous []K) bool {
	seen := make(map[K]struct{}, len(previous))
	for _, id := range previous {
		seen[id] = struct{}{}
	}
	for _, id := range ids {
		if _, ok := seen[id]; !ok {
			return true
		}
	}
	return false
}

type param struct{ key, value string }

// pageParams adds the paging parameters to params.
func pageParams(params []param, page, size int) []param {
	return append(slices.Clip(params), param{"page", strconv.Itoa(page)}, param{"size", strconv.Itoa(size)})
}

// encodeQuery builds the raw query, sent and signed as returned, with the
// parameters sorted by name (as the legacy API signed them): accepted
// whether the exchange verifies the query as sent or sorted.
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

// listRequest is one list endpoint as getPages reads it: P is its decoded
// page, K what identifies one of its rows; name is for errors.
type listRequest[P any, K comparable] struct {
	name, endpoint string
	params         []param
	size           int
	decode         func(data json.RawMessage, serverTimeMs int64, page int) (P, error)
	identities     func(P) []K
}

// getPages hands each page of a signed list endpoint to fn, until paginate ends the list or fn fails.
func getPages[P any, K comparable](ctx context.Context, c *Client, r listRequest[P, K], fn func(P) error) error {
	served, err := paginate(r.size, c.servedRows(r.endpoint, 0), func(page, size int) ([]K, error) {
		var p P
		err := c.get(ctx, request{op: fmt.Sprintf("get %s page %d", r.name, page), endpoint: r.endpoint,
			query: encodeQuery(pageParams(r.params, page, size)), signed: true,
			decode: func(data json.RawMessage, serverTimeMs int64) (err error) {
				p, err = r.decode(data, serverTimeMs, page)
				return err
			}})
		if err != nil {
			return nil, err
		}
		if err := fn(p); err != nil {
			return nil, err
		}
		return r.identities(p), nil
	})
	c.servedRows(r.endpoint, served)
	return err
}

// servedRows raises to n the most rows the exchange has put on a page of endpoint, and returns it.
func (c *Client) servedRows(endpoint string, n int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.served[endpoint] = max(c.served[endpoint], n)
	return c.served[endpoint]
}

// getList reads every page of a signed list endpoint: each row once by key,
// only those keep holds (nil keeps all), and each rejected row once.
func getList[T any](ctx context.Context, c *Client, r listRequest[list[T], string], decode func(json.RawMessage) (list[T], error),
	key func(T) string, keep func(T) bool) ([]T, []RejectedRow, error) {
	all := newPagedList[T]()
	r.size = MaxPageSize
	r.decode = func(data json.RawMessage, _ int64, page int) (list[T], error) {
		l, err := decode(data)
		l.rejected = c.onPage(l.rejected, page)
		return l, err
	}
	r.identities = func(l list[T]) []string { return l.keys(key) }
	err := getPages(ctx, c, r, func(l list[T]) error {
		all.add(l, key, keep)
		return nil
	})
	return all.rows, all.rejected, err
}

// getMetaList reads a signed list endpoint, each request with the query
// base: the first without a page, as an endpoint that documents no
// parameters is asked none (an exchange refusing unknown ones, -1004, would
// fail every poll). Only a meta counting more rows than read brings page=2,
// 3, ... Each row comes once by key; on an error, those read before.
func getMetaList[T any](ctx context.Context, c *Client, op, name string, base []param, decode func(json.RawMessage) (list[T], *PageMeta, error),
	key func(T) string) ([]T, []RejectedRow, error) {
	all := newPagedList[T]()
	for page := 1; page <= maxPages; page++ {
		r := request{op: op, endpoint: name, signed: true}
		if len(base) > 0 {
			r.query = encodeQuery(base)
		}
		if page > 1 {
			r.query, r.op = encodeQuery(append(slices.Clip(base), param{"page", strconv.Itoa(page)})), fmt.Sprintf("%s page %d", op, page)
		}
		var l list[T]
		var meta *PageMeta
		r.decode = func(data json.RawMessage, _ int64) (err error) {
			l, meta, err = decode(data)
			return err
		}
		if err := c.get(ctx, r); err != nil {
			return all.rows, all.rejected, err
		}
		l.rejected = c.onPage(l.rejected, page)
		// No meta, a total reached, or a page of nothing new ends the list.
		if fresh := all.add(l, key, nil); meta == nil || len(all.rows)+len(all.rejected) >= meta.Total || fresh == 0 {
			return all.rows, all.rejected, nil
		}
	}
	return all.rows, all.rejected, &Error{Op: op, Kind: KindBadResponse, Err: fmt.Errorf("more than %d pages", maxPages)}
}
