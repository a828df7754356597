package fakeexchange

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"time"
)

// MaxPageSize is the largest page served; a larger size is refused (-1005), not
// capped, so a client learns it asked too much.
const MaxPageSize = 1000

// DefaultPageSize is the page size when the request gives none.
const DefaultPageSize = 25

// Values of Scenario.RowTimeUnit.
const (
	RowTimeMillis          = "ms"
	RowTimeSeconds         = "s"
	RowTimeSecondsFraction = "s_fraction"
)

// number renders decimal text as a string, or a JSON number if the scenario
// says.
func (e *Exchange) number(text string) any {
	if e.s.NumbersAsJSONNumbers {
		return json.Number(text)
	}
	return text
}

// integer renders an int as a JSON number, or a string when every number is.
func (e *Exchange) integer(n int64) any {
	if e.s.NumbersAsStrings {
		return strconv.FormatInt(n, 10)
	}
	return n
}

// meta is a list answer's meta, in snake_case or camelCase, totalled as the
// scenario says.
func (e *Exchange) meta(snake bool, total, page, size int) any {
	total = max(0, total-e.s.UnderstateTotal) + e.s.OverstateTotal
	perPage, current := "recordsPerPage", "currentPage"
	if snake {
		perPage, current = snakeCase(perPage), snakeCase(current)
	}
	return wireObject{{"total", e.integer(int64(total))}, {perPage, e.integer(int64(size))}, {current, e.integer(int64(page))}}
}

// pageRange is the rows of n that page serves and the page meta reports, under
// the scenario's cap and clamping.
func (e *Exchange) pageRange(n, page, size int) (from, to, served int) {
	per := size
	if e.s.PageCap > 0 {
		per = min(per, e.s.PageCap)
	}
	served = page
	if e.s.ClampPages {
		served = min(page, max(1, (n+per-1)/per))
	}
	if served-1 > n/per { // also keeps (served-1)*per from overflowing
		return n, n, served
	}
	from = min((served-1)*per, n)
	return from, min(from+per, n), served
}

// parseQuery decodes the raw query strictly: unknown names are -1004, repeated
// names and bad escapes -1005.
func parseQuery(rawQuery string, allowed ...string) (map[string]string, *apiError) {
	vals, err := url.ParseQuery(rawQuery)
	if err != nil {
		return nil, errInvalidParam("malformed query string")
	}
	q := map[string]string{}
	for name, vs := range vals {
		if !slices.Contains(allowed, name) {
			return nil, &apiError{status: http.StatusBadRequest, code: -1004, message: "unknown parameter: " + name}
		}
		if len(vs) != 1 {
			return nil, errInvalidParam("parameter %s given more than once", name)
		}
		q[name] = vs[0]
	}
	return q, nil
}

// timeWindow is a request's startTime and endTime, optional and inclusive.
type timeWindow [2]*int64

// readTimeWindow reads startTime and endTime: 13 digits of Unix ms, since
// seconds or microseconds are a unit mistake the client must hear about.
func readTimeWindow(q map[string]string) (timeWindow, *apiError) {
	var w timeWindow
	for i, name := range []string{"startTime", "endTime"} {
		if v, ok := q[name]; ok {
			if !millisText.MatchString(v) {
				return w, errInvalidParam("invalid %s: %q: want 13 digits of Unix milliseconds", name, v)
			}
			n, _ := strconv.ParseInt(v, 10, 64) // 13 digits always parse
			w[i] = &n
		}
	}
	if w[0] != nil && w[1] != nil && *w[0] > *w[1] {
		return w, errInvalidParam("startTime is after endTime")
	}
	return w, nil
}

// contains reports whether ms is within the query window.
func (w timeWindow) contains(ms int64) bool {
	return (w[0] == nil || ms >= *w[0]) && (w[1] == nil || ms <= *w[1])
}

var millisText = regexp.MustCompile(`^[0-9]{13}$`)

// historyQuery is a paged endpoint's query read: parameters, page and query window.
type historyQuery struct {
	params     map[string]string
	page, size int
	window     timeWindow
}

// readPageQuery reads a paged endpoint's query: page, size, the filters and,
// for a history, the query window; anything else is refused.
func readPageQuery(rawQuery string, history bool, filters ...string) (historyQuery, *apiError) {
	allowed := append([]string{"page", "size"}, filters...)
	if history {
		allowed = append(allowed, "startTime", "endTime")
	}
	params, aerr := parseQuery(rawQuery, allowed...)
	if aerr != nil {
		return historyQuery{}, aerr
	}
	h := historyQuery{params: params, page: 1, size: DefaultPageSize}
	for name, p := range map[string]*int{"page": &h.page, "size": &h.size} {
		if v, ok := params[name]; ok {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return h, errInvalidParam("invalid %s: %q", name, v)
			}
			*p = n
		}
	}
	if h.size > MaxPageSize {
		return h, errInvalidParam("size %d is above the maximum %d", h.size, MaxPageSize)
	}
	h.window, aerr = readTimeWindow(params)
	return h, aerr
}

// servePage answers a page of the account's rows: a history newest first (then
// by key) within its query window, late rows held back, the filters' rows, with meta
// and unreadable rows.
func (p *rowsEndpoint[R]) servePage(e *Exchange, account, rawQuery string) (any, *apiError) {
	filters := p.filters
	if p.status != nil {
		filters = append(slices.Clip(filters), "status")
	}
	hq, aerr := readPageQuery(rawQuery, p.history != nil, filters...)
	if aerr == nil && p.query != nil {
		aerr = p.query(e, account, &hq)
	}
	if aerr != nil {
		return nil, aerr
	}
	now := e.now()
	e.mu.Lock()
	defer e.mu.Unlock()
	rows := slices.DeleteFunc(p.rowsNow(e, e.accounts[account], now), func(r R) bool {
		unlisted := p.history != nil && (!hq.window.contains(p.history(r)) || p.heldBack(e, r, now))
		return unlisted || !p.matches(r, hq.params)
	})
	if p.history != nil {
		slices.SortFunc(rows, func(x, y R) int {
			if c := cmp.Compare(p.history(y), p.history(x)); c != 0 {
				return c
			}
			return compareKeys(y, x) // by reflection: only for ties
		})
	}
	if p.reorder != nil {
		p.reorder(e, rows)
	}
	total := e.listLength(p.name, len(rows))
	from, to, served := e.pageRange(total, hq.page, hq.size)
	snake := e.s.SnakeCaseMeta || p.snakeMeta != nil && p.snakeMeta(e)
	return wireObject{{"rows", e.listRows(p.name, len(rows), from, to, func(i int) any { return e.render(rows[i]) })},
		{"meta", e.meta(snake, total, served, hq.size)}}, nil
}

// heldBack reports whether late listing holds the row back at now.
func (p *rowsEndpoint[R]) heldBack(e *Exchange, r R, now time.Time) bool {
	l := e.s.LateListing
	return p.late && l.Selects(rowID(r)) && now.Before(time.UnixMilli(p.history(r)).Add(l.Delay))
}

// statusBundles are the status parameter's values that stand for several.
var statusBundles = map[string][]string{"INCOMPLETE": {"NEW", "PARTIAL_FILLED"}, "COMPLETED": {"CANCELLED", "FILLED", "REJECTED"}}

// matches reports whether row holds each filter's value in its field, and
// the status asked, if any.
func (p *rowsEndpoint[R]) matches(row R, q map[string]string) bool {
	if want, ok := q["status"]; ok && p.status != nil {
		if got := p.status(row); got != want && !slices.Contains(statusBundles[want], got) {
			return false
		}
	}
	if !slices.ContainsFunc(p.filters, func(f string) bool { _, ok := q[f]; return ok }) {
		return true // no reflection for a query without a filter
	}
	v := reflect.ValueOf(row)
	for _, f := range wireFieldsOf(v.Type()) {
		if want, ok := q[f.name]; ok && slices.Contains(p.filters, f.name) && fmt.Sprint(v.Field(f.index).Interface()) != want {
			return false
		}
	}
	return true
}
