package fakeexchange

import (
	"fmt"
	"slices"
	"time"
)

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
	a := e.accounts[account]
	hist := a.history
	var all []HistoryRecord
	for i := len(hist) - 1; i >= 0; i-- {
		r := hist[i]
		if (hasType && r.Type != typ) || !window.contains(r.Timestamp) {
			continue
		}
		if !e.listedLocked(a, r, now) {
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

// listedLocked reports whether the history endpoint lists r of account a at
// server time now: not before its own listing time if it was appended late,
// nor before the scenario's late listing lets it. The caller holds mu.
func (e *Exchange) listedLocked(a *accountState, r HistoryRecord, now time.Time) bool {
	if len(a.listAt) > 0 {
		if at, late := a.listAt[recordKey(r, e.sharedIDs)]; late && now.Before(at) {
			return false
		}
	}
	return e.lateListing == nil || e.lateListing.listed(r, now)
}

// LateRecordEvent appends one history record that the history endpoint
// lists only ListedAfter after the event (AppendLateHistory). An ID of 0
// takes the account's next id; a Timestamp of 0 dates the record at the
// event's server time.
type LateRecordEvent struct {
	Account       string `yaml:"account"`
	HistoryRecord `yaml:",inline"`
	ListedAfter   time.Duration `yaml:"listed_after"`
}

func (l LateRecordEvent) validate(undocumented []string) error {
	if err := validateRecord(l.HistoryRecord, undocumented); err != nil {
		return err
	}
	if l.ListedAfter < 0 {
		return fieldErr("listed_after", "must not be negative")
	}
	return nil
}

// AppendLateHistory adds records as AppendHistory does, moving the
// account's balances at once, but the history endpoint lists them (on any
// page and in meta.total) only from listAfter later by server time, as an
// exchange that lists a record some time after the money moved. A record
// with ID 0 gets the account's next unused id; one with Timestamp 0 is
// dated now by server time (see datedLocked).
func (e *Exchange) AppendLateHistory(account string, listAfter time.Duration, recs ...HistoryRecord) error {
	_, err := e.appendNow("append late history", account, listAfter, recs)
	return err
}

// appendNow appends records completed by datedLocked at server time now,
// moving the account's balances, and listed from listAfter later; it
// returns the records as appended.
func (e *Exchange) appendNow(op, account string, listAfter time.Duration, recs []HistoryRecord) ([]HistoryRecord, error) {
	if listAfter < 0 {
		return nil, fmt.Errorf("%s: listing delay must not be negative", op)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	a, err := e.accountLocked(op, account)
	if err != nil {
		return nil, err
	}
	now := e.now()
	recs = a.datedLocked(recs, now)
	var listAt time.Time
	if listAfter > 0 {
		listAt = now.Add(listAfter)
	}
	return recs, e.appendLocked(op, a, recs, true, listAt)
}

// datedLocked returns the records with what they leave to the fake filled
// in: an ID of 0 becomes the account's next unused id, a Timestamp of 0 the
// server time now, read with mu held like the time of a balances answer.
// When a balances answer of the account was already stamped this very
// millisecond (without the record's money), the record is dated the next
// one: a record is dated at or before a balances answer's timestamp exactly
// when the answer holds its money. The caller holds mu.
func (a *accountState) datedLocked(recs []HistoryRecord, now time.Time) []HistoryRecord {
	out := slices.Clone(recs)
	next := max(a.maxID, 0)
	for _, r := range out {
		next = max(next, r.ID)
	}
	ts := max(now.UnixMilli(), a.balancesAt+1)
	for i := range out {
		if out[i].ID == 0 {
			next++
			out[i].ID = next
		}
		if out[i].Timestamp == 0 {
			out[i].Timestamp = ts
		}
	}
	return out
}
