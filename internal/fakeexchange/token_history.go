package fakeexchange

import (
	"cmp"
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

// tokenHistory answers as the docs show: a paged history, newest first (then by
// id, type and token), a type filter of the known types, late records held
// back; unstable_tie_order turns ties at each request, malformed_ids break
// amounts.
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
	servedAt: func(e *Exchange, _ *accountState, r HistoryRecord, _, _ time.Time) HistoryRecord {
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
	// Amount is exact decimal text; malformedAmount replaces it
	// (malformed_ids).
	Amount          string `yaml:"amount" wire:"amount,decimal"`
	malformedAmount string `wire:"amount"`
	// Timestamp is Unix milliseconds.
	Timestamp int64 `yaml:"timestamp" wire:"timestamp,row_time,always"`
}

// Leg returns the record's token, type and exact amount, which tests sum.
func (r HistoryRecord) Leg() (token, typ, amount string) { return r.Token, r.Type, r.Amount }

// HistoryEntry is a scenario record whose time may be relative to New.
type HistoryEntry struct {
	HistoryRecord `yaml:",inline"`
	// TimestampAgo, set instead of Timestamp, is before New.
	TimestampAgo time.Duration `yaml:"timestamp_ago"`
}

// HistoryGenerator appends a record every Every, cycling through Types and
// Tokens.
type HistoryGenerator struct {
	Every  time.Duration `yaml:"every"`
	Types  []string      `yaml:"types"`
	Tokens []string      `yaml:"tokens"`
}

// rotateTies turns each run of records sharing a timestamp by n places.
func rotateTies(recs []HistoryRecord, n int) {
	for i := 0; i < len(recs); {
		j := i + 1
		for j < len(recs) && recs[j].Timestamp == recs[i].Timestamp {
			j++
		}
		if k := j - i; k > 1 {
			g := recs[i:j]
			copy(g, slices.Concat(g[n%k:], g[:n%k]))
		}
		i = j
	}
}

// HistoryEvent appends Records to an account's history, their money moving
// at once, listed (on any page and in meta.total) only ListedAfter later. An
// ID of 0 takes the next id, a Timestamp of 0 the event's time (datedLocked);
// ids must be new (with shared_ids, with their token and type), and none is
// added when one is wrong. With Restamp, each record instead moves the
// account's records of its ID to its Timestamp, as a status update may.
type HistoryEvent struct {
	Account     string          `yaml:"account"`
	Records     []HistoryRecord `yaml:"records"`
	ListedAfter time.Duration   `yaml:"listed_after"`
	Restamp     bool            `yaml:"restamp"`
}

// appendNow appends records dated by datedLocked, moving balances, listed
// listAfter later; it returns them as appended.
func (e *Exchange) appendNow(op, account string, listAfter time.Duration, recs []HistoryRecord) ([]HistoryRecord, error) {
	err := e.withAccount(op, account, func(a *accountState) error {
		now, listAt := e.now(), time.Time{}
		if recs = a.datedLocked(recs, now); listAfter > 0 {
			listAt = now.Add(listAfter)
		}
		return e.appendLocked(op, a, recs, true, listAt)
	})
	return recs, err
}

// datedLocked fills in an ID of 0 with the next unused id and a Timestamp of 0
// with now, or the millisecond after the latest balances answer: a record is
// dated at or before an answer's timestamp exactly when the answer holds its
// money. The caller holds mu.
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

// validateHistoryAccount checks an account's history and generator.
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
	err := cmp.Or(fieldErrIf(g.Every <= 0, "history_generator.every", "must be positive"),
		fieldErrIf(len(g.Types) == 0, "history_generator.types", "must not be empty"),
		fieldErrIf(len(g.Tokens) == 0, "history_generator.tokens", "must not be empty"))
	for k, t := range g.Types {
		err = cmp.Or(err, fieldErrIf(!historyTypes[t], fmt.Sprintf("history_generator.types[%d]", k), "unknown type %q", t))
	}
	return err
}

func validateHistoryEvent(s *Scenario, ev Event, accounts map[string]bool) error {
	if h := ev.History; h != nil {
		return validateEventAccount("history", h.Account, accounts, h.check(s.UndocumentedTypes))
	}
	return nil
}

func (h *HistoryEvent) check(undocumented []string) error {
	if h.ListedAfter < 0 {
		return fieldErr("listed_after", "must not be negative")
	}
	for i, r := range h.Records {
		err := validateRecord(r, undocumented)
		if h.Restamp && r.Timestamp >= 0 {
			err = nil // only its id and time are read
		}
		if err != nil {
			return fmt.Errorf("records[%d].%w", i, err)
		}
	}
	return nil
}

// seedHistoryAccount sets the account's generator and appends its history,
// which does not move the balances: they are the state at New.
func (e *Exchange) seedHistoryAccount(st *accountState, a Account, created time.Time) {
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
	_ = e.appendLocked("append history", st, recs, false, time.Time{}) // validated; New owns e
}

func applyHistoryEvent(e *Exchange, ev Event) error {
	h := ev.History
	if h == nil {
		return nil
	}
	if err := h.check(e.s.UndocumentedTypes); err != nil {
		return fmt.Errorf("history event: %w", err)
	}
	if h.Restamp {
		return e.withAccount("restamp event", h.Account, func(a *accountState) error { return a.restamp(h.Records) })
	}
	_, err := e.appendNow("history event", h.Account, h.ListedAfter, h.Records)
	return err
}

// restamp moves the records of each record's id to its timestamp; mu held.
func (a *accountState) restamp(recs []HistoryRecord) error {
	for _, r := range recs {
		if !slices.ContainsFunc(a.history, func(h HistoryRecord) bool { return h.ID == r.ID }) {
			return fmt.Errorf("restamp: account %q has no id %d", a.name, r.ID)
		}
	}
	for _, r := range recs {
		for i := range a.history {
			if a.history[i].ID == r.ID {
				a.history[i].Timestamp = r.Timestamp
			}
		}
	}
	slices.SortStableFunc(a.history, compareRecords)
	return nil
}

// validateRecord checks a record; undocumented are the scenario's extra types.
func validateRecord(r HistoryRecord, undocumented []string) error {
	return cmp.Or(fieldErrIf(!knownType(r.Type, undocumented), "type", "unknown type %q", r.Type),
		fieldErrIf(r.Token == "", "token", "must not be empty"), amountErr(r.Amount),
		fieldErrIf(r.Timestamp < 0, "timestamp", "must not be negative"))
}

// historyTypes are the transaction types of the token history endpoint.
var historyTypes = map[string]bool{}

// HistoryTypes returns every documented token history type, sorted.
func HistoryTypes() []string { return slices.Sorted(maps.Keys(historyTypes)) }

// knownType reports whether typ is documented or one of undocumented.
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
