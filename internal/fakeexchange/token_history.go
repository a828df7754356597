package fakeexchange

import "slices"

// PathTokenHistory lists the balance changes of the account that signs the
// request.
const PathTokenHistory = "/v3/asset/token/history"

// EndpointTokenHistory names the token history endpoint in faults and the
// request log.
const EndpointTokenHistory = "token_history"

var tokenHistoryRoute = route{path: PathTokenHistory, name: EndpointTokenHistory, serve: (*Exchange).serveTokenHistory}

// malformedAmount is what a row named in Scenario.MalformedIDs carries.
const malformedAmount = "1.2.3"

type historyJSON struct {
	ID        any    `json:"id"`
	Type      string `json:"type"`
	Token     string `json:"token"`
	Amount    any    `json:"amount"`
	Timestamp any    `json:"timestamp"`
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
	if hasType && !knownType(typ, e.undocumented) {
		return nil, errInvalidParam("invalid type: %q", typ)
	}
	window, aerr := readTimeWindow(q)
	if aerr != nil {
		return nil, aerr
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
		if (hasType && r.Type != typ) || !window.contains(r.Timestamp) {
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
	return historyJSON{ID: e.integer(r.ID), Type: r.Type, Token: r.Token, Amount: amount, Timestamp: e.rowTime(r.Timestamp)}
}
