package fakeexchange

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// AppendHistory adds records to an account's history and, in the same
// step, moves the account's balance of each record's token by its amount,
// so no balances answer shows the money without the record or the record
// without the money. IDs must be new for the account
// (with Scenario.SharedIDs, the id, token and type together); on any
// invalid record nothing is added.
func (e *Exchange) AppendHistory(account string, recs ...HistoryRecord) error {
	return e.withAccount("append history", account, func(a *accountState) error {
		return e.appendLocked("append history", a, recs, true, time.Time{})
	})
}

// appendLocked adds records to a's history, moving a's balances by their
// amounts when move is set; a listAt that is not zero is when the history
// endpoint first lists them. On any invalid record nothing changes. The
// caller holds mu.
func (e *Exchange) appendLocked(op string, a *accountState, recs []HistoryRecord, move bool, listAt time.Time) error {
	batch := map[legKey]bool{}
	moves := map[string]decimal.Decimal{}
	for i, r := range recs {
		if err := validateRecord(r, e.s.UndocumentedTypes); err != nil {
			return fmt.Errorf("%s record %d: %w", op, i, err)
		}
		k := recordKey(r, e.s.SharedIDs)
		if a.keys[k] || batch[k] {
			return fmt.Errorf("%s record %d: duplicate %s", op, i, k)
		}
		batch[k] = true
		d, _ := parseAmount(r.Amount) // validated
		moves[r.Token] = moves[r.Token].Add(d)
	}
	for k := range batch {
		a.keys[k] = true
		if !listAt.IsZero() {
			a.listAt[k] = listAt
		}
	}
	for _, r := range recs {
		a.maxID = max(a.maxID, r.ID)
		a.history = append(a.history, r)
	}
	if move {
		for token, d := range moves {
			a.moveBalance(token, d)
		}
	}
	slices.SortStableFunc(a.history, compareRecords)
	return nil
}

// withAccount runs fn on the named account with mu held; an unknown account
// is an error naming op.
func (e *Exchange) withAccount(op, name string, fn func(a *accountState) error) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	a, err := e.accountLocked(op, name)
	if err != nil {
		return err
	}
	return fn(a)
}

// accountLocked is the named account, or an error naming op; the caller
// holds mu.
func (e *Exchange) accountLocked(op, name string) (*accountState, error) {
	a, ok := e.accounts[name]
	if !ok {
		return nil, fmt.Errorf("%s: unknown account %q", op, name)
	}
	return a, nil
}

// MoveRecord changes the timestamp of the account's record with id (of
// every record with that id, under Scenario.SharedIDs), as a status update
// that restamps a record would, keeping the history sorted.
func (e *Exchange) MoveRecord(account string, id int64, newTimestampMs int64) error {
	if newTimestampMs < 0 {
		return fmt.Errorf("move record %d: timestamp must not be negative", id)
	}
	return e.withAccount("move record", account, func(a *accountState) error {
		found := false
		for i := range a.history {
			if a.history[i].ID == id {
				a.history[i].Timestamp = newTimestampMs
				found = true
			}
		}
		if !found {
			return fmt.Errorf("move record: account %q has no id %d", account, id)
		}
		slices.SortStableFunc(a.history, compareRecords)
		return nil
	})
}

// legKey is what makes a history record distinct: its id, and with shared
// ids also its token and type.
type legKey struct {
	id         int64
	token, typ string
	sharedIDs  bool
}

func recordKey(r HistoryRecord, sharedIDs bool) legKey {
	if !sharedIDs {
		return legKey{id: r.ID}
	}
	return legKey{id: r.ID, token: r.Token, typ: r.Type, sharedIDs: true}
}

func (k legKey) String() string {
	if !k.sharedIDs {
		return fmt.Sprintf("id %d", k.id)
	}
	return fmt.Sprintf("id %d with token %s and type %s", k.id, k.token, k.typ)
}

// compareRecords orders by timestamp, then id, type and token: the reverse
// of the order served.
func compareRecords(x, y HistoryRecord) int {
	return cmp.Or(cmp.Compare(x.Timestamp, y.Timestamp), cmp.Compare(x.ID, y.ID),
		strings.Compare(x.Type, y.Type), strings.Compare(x.Token, y.Token))
}

// NextHistoryID returns an id not yet used by the account: one more than the
// largest so far, or 1.
func (e *Exchange) NextHistoryID(account string) int64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	if a, ok := e.accounts[account]; ok {
		return max(a.maxID, 0) + 1
	}
	return 1
}

// ServedHistory returns every record the fake holds for the account, oldest
// first (by timestamp, then id), whatever any request has fetched.
func (e *Exchange) ServedHistory(account string) []HistoryRecord {
	e.mu.Lock()
	defer e.mu.Unlock()
	if a, ok := e.accounts[account]; ok {
		return slices.Clone(a.history)
	}
	return nil
}

// BeforeHistoryPage sets a hook called before each token history page is
// read, after authentication, rate limiting and parameter checks, without
// the exchange's lock held: it may call AppendHistory. nil removes it.
func (e *Exchange) BeforeHistoryPage(fn func(account string, page int)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.beforeHistoryPage = fn
}

func cloneKey(k Key) Key {
	k.Permissions = slices.Clone(k.Permissions)
	k.AllowedIPs = slices.Clone(k.AllowedIPs)
	return k
}
