package fakeexchange

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
)

// MaxPageSize is the largest page the list endpoints serve; a larger size is
// rejected with -1005 rather than capped, so a client that asks for more
// than the documented maximum learns so instead of silently paging short.
const MaxPageSize = 1000

// DefaultPageSize is the page size when the request gives none.
const DefaultPageSize = 25

// Values of Scenario.RowTimeUnit.
const (
	RowTimeMillis          = "ms"
	RowTimeSeconds         = "s"
	RowTimeSecondsFraction = "s_fraction"
)

// malformedAmount is what a row named in Scenario.MalformedIDs carries.
const malformedAmount = "1.2.3"

type tokenNetworkJSON struct {
	Protocol          string `json:"protocol"`
	Network           string `json:"network"`
	Token             string `json:"token"`
	Name              string `json:"name"`
	MinimumWithdrawal any    `json:"minimumWithdrawal"`
	WithdrawalFee     any    `json:"withdrawalFee"`
	AllowDeposit      any    `json:"allowDeposit"`
	AllowWithdraw     any    `json:"allowWithdraw"`
}

type credentialJSON struct {
	AccountName string   `json:"accountName"`
	UserID      any      `json:"userId"`
	APIKey      string   `json:"apiKey"`
	Permissions []string `json:"permissions"`
	AllowedIPs  []string `json:"allowedIPs,omitempty"`
}

type historyJSON struct {
	ID        any    `json:"id"`
	Type      string `json:"type"`
	Token     string `json:"token"`
	Amount    any    `json:"amount"`
	Timestamp any    `json:"timestamp"`
}

type rowsData struct {
	Rows any `json:"rows"`
}

type pageData struct {
	Rows any `json:"rows"`
	Meta any `json:"meta"`
}

type camelMeta struct {
	Total          any `json:"total"`
	RecordsPerPage any `json:"recordsPerPage"`
	CurrentPage    any `json:"currentPage"`
}

type snakeMeta struct {
	Total          any `json:"total"`
	RecordsPerPage any `json:"records_per_page"`
	CurrentPage    any `json:"current_page"`
}

func (e *Exchange) serveTokenNetwork(rawQuery string) (any, *apiError) {
	if _, aerr := parseQuery(rawQuery); aerr != nil {
		return nil, aerr
	}
	e.mu.Lock()
	rows := make([]tokenNetworkJSON, 0, len(e.networks))
	for _, n := range e.networks {
		rows = append(rows, tokenNetworkJSON{
			Protocol: n.Protocol, Network: n.Network, Token: n.Token, Name: n.Name,
			MinimumWithdrawal: e.number(n.MinimumWithdrawal),
			WithdrawalFee:     e.number(n.WithdrawalFee),
			AllowDeposit:      e.number(strconv.Itoa(n.AllowDeposit)),
			AllowWithdraw:     e.number(strconv.Itoa(n.AllowWithdraw)),
		})
	}
	e.mu.Unlock()
	return rowsData{Rows: rows}, nil
}

func (e *Exchange) serveCredentials(account, rawQuery string) (any, *apiError) {
	q, aerr := parseQuery(rawQuery, "page", "size")
	if aerr != nil {
		return nil, aerr
	}
	page, size, aerr := paging(q)
	if aerr != nil {
		return nil, aerr
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	a := e.accounts[account]
	all := make([]credentialJSON, 0, len(a.keyOrder))
	for _, k := range a.keyOrder {
		key := e.keys[k].key
		all = append(all, credentialJSON{
			AccountName: a.accountName, UserID: e.integer(a.userID), APIKey: key.APIKey,
			Permissions: append(make([]string, 0, len(key.Permissions)), key.Permissions...),
			AllowedIPs:  slices.Clone(key.AllowedIPs),
		})
	}
	from, to, served := e.pageRange(len(all), page, size)
	return pageData{Rows: all[from:to], Meta: e.meta(len(all), served, size)}, nil
}

func (e *Exchange) serveTokenHistory(account, rawQuery string) (any, *apiError) {
	q, aerr := parseQuery(rawQuery, "type", "startTime", "endTime", "page", "size")
	if aerr != nil {
		return nil, aerr
	}
	page, size, aerr := paging(q)
	if aerr != nil {
		return nil, aerr
	}
	typ, hasType := q["type"]
	if hasType && !historyTypes[typ] {
		return nil, errInvalidParam("invalid type: %q", typ)
	}
	start, hasStart, aerr := timeParam(q, "startTime")
	if aerr != nil {
		return nil, aerr
	}
	end, hasEnd, aerr := timeParam(q, "endTime")
	if aerr != nil {
		return nil, aerr
	}
	if hasStart && hasEnd && start > end {
		return nil, errInvalidParam("startTime is after endTime")
	}

	e.mu.Lock()
	hook := e.beforeHistoryPage
	e.mu.Unlock()
	if hook != nil {
		hook(account, page)
	}

	now := e.now()
	e.mu.Lock()
	defer e.mu.Unlock()
	e.historyServes++
	hist := e.accounts[account].history
	var all []HistoryRecord
	for i := len(hist) - 1; i >= 0; i-- {
		r := hist[i]
		if (hasType && r.Type != typ) || (hasStart && r.Timestamp < start) || (hasEnd && r.Timestamp > end) {
			continue
		}
		if e.lateListing != nil && !e.lateListing.listed(r, now) {
			continue
		}
		all = append(all, r)
	}
	if e.unstableTies {
		rotateTies(all, e.historyServes)
	}
	from, to, served := e.pageRange(len(all), page, size)
	rows := make([]historyJSON, 0, to-from)
	for _, r := range all[from:to] {
		rows = append(rows, e.historyRow(r))
	}
	return pageData{Rows: rows, Meta: e.meta(len(all), served, size)}, nil
}

// rotateTies turns each run of records sharing a timestamp by n places, so
// consecutive requests see each tie group in a different order.
func rotateTies(recs []HistoryRecord, n int) {
	for i := 0; i < len(recs); {
		j := i + 1
		for j < len(recs) && recs[j].Timestamp == recs[i].Timestamp {
			j++
		}
		if k := j - i; k > 1 {
			g := recs[i:j]
			s := n % k
			head := slices.Clone(g[:s])
			copy(g, g[s:])
			copy(g[k-s:], head)
		}
		i = j
	}
}

// historyRow renders one record in the scenario's time unit, with the
// amount spoiled when the scenario names its id.
func (e *Exchange) historyRow(r HistoryRecord) historyJSON {
	amount := e.number(r.Amount)
	if e.malformedIDs[r.ID] {
		amount = malformedAmount
	}
	var ts any
	switch e.rowTimeUnit {
	case RowTimeSeconds:
		ts = e.integer(r.Timestamp / 1000)
	case RowTimeSecondsFraction:
		ts = fmt.Sprintf("%d.%03d", r.Timestamp/1000, r.Timestamp%1000)
	default:
		ts = e.integer(r.Timestamp)
	}
	return historyJSON{ID: e.integer(r.ID), Type: r.Type, Token: r.Token, Amount: amount, Timestamp: ts}
}

// number renders decimal text as a JSON string, or as a JSON number when the
// scenario asks for it.
func (e *Exchange) number(text string) any {
	if e.numbersAsJSON {
		return json.Number(text)
	}
	return text
}

// integer renders an id, timestamp or count as a JSON number, or as a JSON
// string when the scenario sends every number as one.
func (e *Exchange) integer(n int64) any {
	if e.allStrings {
		return strconv.FormatInt(n, 10)
	}
	return n
}

// meta is the pagination meta of a list answer; the scenario may
// understate the total.
func (e *Exchange) meta(total, page, size int) any {
	total = max(0, total-e.understate)
	t, p, s := e.integer(int64(total)), e.integer(int64(page)), e.integer(int64(size))
	if e.snakeMeta {
		return snakeMeta{Total: t, RecordsPerPage: s, CurrentPage: p}
	}
	return camelMeta{Total: t, RecordsPerPage: s, CurrentPage: p}
}

// pageRange is the range of n rows that page serves and the page number
// meta reports. The scenario's cap shrinks every page without saying so;
// clamping serves the last page for any page beyond it.
func (e *Exchange) pageRange(n, page, size int) (from, to, served int) {
	per := size
	if e.pageCap > 0 {
		per = min(per, e.pageCap)
	}
	served = page
	if e.clampPages {
		served = min(page, max(1, (n+per-1)/per))
	}
	if served-1 > n/per { // also keeps (served-1)*per from overflowing
		return n, n, served
	}
	from = min((served-1)*per, n)
	return from, min(from+per, n), served
}

// parseQuery decodes the raw query strictly: unknown names are -1004,
// repeated names and bad escapes -1005.
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

func paging(q map[string]string) (page, size int, aerr *apiError) {
	page, size = 1, DefaultPageSize
	for name, p := range map[string]*int{"page": &page, "size": &size} {
		v, ok := q[name]
		if !ok {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return 0, 0, errInvalidParam("invalid %s: %q", name, v)
		}
		*p = n
	}
	if size > MaxPageSize {
		return 0, 0, errInvalidParam("size %d is above the maximum %d", size, MaxPageSize)
	}
	return page, size, nil
}

// timeParam reads a startTime or endTime, which must be 13 digits of Unix
// milliseconds: a time in seconds (10 digits) or microseconds (16) is a
// unit mistake the client must hear about, not a filter that matches nothing.
func timeParam(q map[string]string, name string) (int64, bool, *apiError) {
	v, ok := q[name]
	if !ok {
		return 0, false, nil
	}
	if !millisText.MatchString(v) {
		return 0, false, errInvalidParam("invalid %s: %q: want 13 digits of Unix milliseconds", name, v)
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, false, errInvalidParam("invalid %s: %q", name, v)
	}
	return n, true, nil
}

var millisText = regexp.MustCompile(`^[0-9]{13}$`)
