package fakeexchange

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

func init() {
	r := tokenHistory.route()
	r.last, r.validateAccount, r.validateEvent = true, validateHistoryAccount, validateHistoryEvent
	r.seedAccount, r.apply = (*Exchange).seedHistoryAccount, applyHistoryEvent
	addRoute(endpoint.TokenHistory, r)
}

// tokenHistory answers the account's records as the docs show them: a
// paged history, newest first (then by id, type and token), a type filter
// of the known types, times in the scenario's row time unit, records
// appended late held back until their listing time and late listing's
// share until its delay. Records of one timestamp turn at each request
// under unstable_tie_order; those of malformed_ids have an amount no
// client can read.
var tokenHistory = &rowsEndpoint[HistoryRecord]{name: endpoint.TokenHistory, paged: true, late: true, filters: []string{"type"},
	history: func(r HistoryRecord) int64 { return r.Timestamp },
	query: func(e *Exchange, account string, q *historyQuery) *apiError {
		if typ, ok := q.params["type"]; ok && !knownType(typ, e.s.UndocumentedTypes) {
			return errInvalidParam("invalid type: %q", typ)
		}
		e.mu.Lock()
		hook := e.beforeHistoryPage
		e.mu.Unlock()
		if hook != nil {
			hook(account, q.page)
		}
		return nil
	},
	source: func(e *Exchange, a *accountState, now time.Time) []HistoryRecord {
		if len(a.listAt) == 0 {
			return a.history
		}
		return slices.DeleteFunc(slices.Clone(a.history), func(r HistoryRecord) bool {
			at, late := a.listAt[recordKey(r, e.s.SharedIDs)]
			return late && now.Before(at)
		})
	},
	reorder: func(e *Exchange, rows []HistoryRecord) {
		e.historyServes++
		if e.s.UnstableTieOrder {
			rotateTies(rows, e.historyServes)
		}
	},
	live: func(e *Exchange, _ *accountState, r HistoryRecord, _, _ time.Time) HistoryRecord {
		if slices.Contains(e.s.MalformedIDs, r.ID) {
			r.Amount, r.malformedAmount = "", "1.2.3" // a string in every number mode
		}
		return r
	},
}

// HistoryRecord is one token balance change, as the history endpoint serves it.
type HistoryRecord struct {
	ID    int64  `yaml:"id" wire:"id,integer,key,always"`
	Type  string `yaml:"type" wire:"type,key"`
	Token string `yaml:"token" wire:"token,key"`
	// Amount is the exact decimal text sent to clients; malformedAmount
	// replaces it when the scenario names the record's id.
	Amount          string `yaml:"amount" wire:"amount,decimal"`
	malformedAmount string `wire:"amount"`
	// Timestamp is Unix milliseconds.
	Timestamp int64 `yaml:"timestamp" wire:"timestamp,row_time,always"`
}

// Leg returns what the record changes: its token, type and exact amount, by
// which tests sum what the exporter should count.
func (r HistoryRecord) Leg() (token, typ, amount string) { return r.Token, r.Type, r.Amount }

// HistoryEntry is a scenario history record whose time may be given relative
// to the exchange's creation instead of absolutely.
type HistoryEntry struct {
	HistoryRecord `yaml:",inline"`
	// TimestampAgo, when set instead of Timestamp, places the record this
	// long before New was called.
	TimestampAgo time.Duration `yaml:"timestamp_ago"`
}

// HistoryGenerator appends one record every Every while the exchange runs,
// cycling through Types and Tokens, for demos, end-to-end and soak runs.
type HistoryGenerator struct {
	Every  time.Duration `yaml:"every"`
	Types  []string      `yaml:"types"`
	Tokens []string      `yaml:"tokens"`
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

// LateRecordEvent appends one history record as AppendHistory does, moving
// the account's balances at once, but the history endpoint lists it (on
// any page and in meta.total) only ListedAfter after the event, as an
// exchange that lists a record some time after the money moved. An ID of 0
// takes the account's next id; a Timestamp of 0 dates the record at the
// event's server time (see datedLocked).
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

// validateHistoryAccount checks an account's history records and history
// generator.
func validateHistoryAccount(s *Scenario, a Account) error {
	ids := map[legKey]bool{}
	for j, h := range a.History {
		hp := fmt.Sprintf("history[%d]", j)
		if h.Timestamp != 0 && h.TimestampAgo != 0 {
			return fieldErr(hp+".timestamp_ago", "set either timestamp or timestamp_ago")
		}
		if h.TimestampAgo < 0 {
			return fieldErr(hp+".timestamp_ago", "must not be negative")
		}
		if err := validateRecord(h.HistoryRecord, s.UndocumentedTypes); err != nil {
			return fmt.Errorf("%s.%w", hp, err)
		}
		k := recordKey(h.HistoryRecord, s.SharedIDs)
		if ids[k] {
			return fieldErr(hp+".id", "duplicate %s", k)
		}
		ids[k] = true
	}
	return validateGenerator(a.HistoryGenerator)
}

// validateGenerator checks an account's history generator, if any.
func validateGenerator(g *HistoryGenerator) error {
	if g == nil {
		return nil
	}
	const gp = "history_generator"
	if g.Every <= 0 {
		return fieldErr(gp+".every", "must be positive")
	}
	if len(g.Types) == 0 {
		return fieldErr(gp+".types", "must not be empty")
	}
	for k, t := range g.Types {
		if !historyTypes[t] {
			return fieldErr(fmt.Sprintf("%s.types[%d]", gp, k), "unknown type %q", t)
		}
	}
	if len(g.Tokens) == 0 {
		return fieldErr(gp+".tokens", "must not be empty")
	}
	return nil
}

func validateHistoryEvent(s *Scenario, ev Event, accounts map[string]bool) error {
	if l := ev.LateRecord; l != nil {
		return validateEventAccount("late_record", l.Account, accounts, l.validate(s.UndocumentedTypes))
	}
	return nil
}

// seedHistoryAccount sets the account's generator and appends its history,
// timestamp_ago counted from created. The balances are the state at
// creation: the history before it does not move them.
func (e *Exchange) seedHistoryAccount(st *accountState, a Account, created time.Time) error {
	if a.HistoryGenerator != nil {
		g := *a.HistoryGenerator
		st.generator = &g
	}
	recs := make([]HistoryRecord, 0, len(a.History))
	for _, h := range a.History {
		r := h.HistoryRecord
		if h.TimestampAgo != 0 {
			r.Timestamp = created.Add(-h.TimestampAgo).UnixMilli()
		}
		recs = append(recs, r)
	}
	// No lock: New has not shared the exchange yet.
	return e.appendLocked("append history", st, recs, false, time.Time{})
}

func applyHistoryEvent(e *Exchange, ev Event) error {
	if l := ev.LateRecord; l != nil {
		_, err := e.appendNow("late record event", l.Account, l.ListedAfter, []HistoryRecord{l.HistoryRecord})
		return err
	}
	return nil
}

// validateRecord checks a history record of the scenario or of the Go
// API; undocumented are the scenario's undocumented types.
func validateRecord(r HistoryRecord, undocumented []string) error {
	if !knownType(r.Type, undocumented) {
		return fieldErr("type", "unknown type %q", r.Type)
	}
	if r.Token == "" {
		return fieldErr("token", "must not be empty")
	}
	if _, err := parseAmount(r.Amount); err != nil {
		return err
	}
	if r.Timestamp < 0 {
		return fieldErr("timestamp", "must not be negative")
	}
	return nil
}

// historyTypes are the transaction types of the token history endpoint.
var historyTypes = map[string]bool{}

// HistoryTypes returns every transaction type of the token history endpoint,
// sorted.
func HistoryTypes() []string { return slices.Sorted(maps.Keys(historyTypes)) }

// knownType reports whether typ is documented or one of the scenario's
// undocumented types.
func knownType(typ string, undocumented []string) bool {
	return historyTypes[typ] || slices.Contains(undocumented, typ)
}

func init() {
	for _, t := range strings.Fields(`WITHDRAW DEPOSIT FIAT_WITHDRAW FIAT_DEPOSIT EARN
		VAULT_WITHDRAW VAULT_DEPOSIT YIELD_TO_BALANCE CREDIT DISTRIBUTION REFERRAL
		SUB_ACCOUNT_TRANSFER REBATE LIQUIDATION SPECIAL STAKING UNSTAKING UNSTAKING_FEE
		INTEREST CONVERT FUNDING_FEE REALIZED_PNL RFQ COPY_FEE COPY_PROFIT_SHARED
		SPOT_TRANSACTION TRANSACTION_FEE`) {
		historyTypes[t] = true
	}
}
