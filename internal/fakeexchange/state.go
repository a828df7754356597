package fakeexchange

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
)

// appendLocked adds records to a's history, moving its balances when move; a
// non-zero listAt is when they are first listed. The caller holds mu.
func (e *Exchange) appendLocked(op string, a *accountState, recs []HistoryRecord, move bool, listAt time.Time) error {
	batch := map[legKey]bool{}
	for i, r := range recs {
		if err := validateRecord(r, e.s.UndocumentedTypes); err != nil {
			return fmt.Errorf("%s record %d: %w", op, i, err)
		}
		k := recordKey(r, e.s.SharedIDs)
		if a.keys[k] || batch[k] {
			return fmt.Errorf("%s record %d: duplicate %s", op, i, k)
		}
		batch[k] = true
	}
	for _, r := range recs {
		k := recordKey(r, e.s.SharedIDs)
		a.keys[k], a.maxID = true, max(a.maxID, r.ID)
		if !listAt.IsZero() {
			a.listAt[k] = listAt
		}
		if move {
			d, _ := parseAmount(r.Amount) // validated
			a.moveBalance(r.Token, d)
		}
	}
	a.history = append(a.history, recs...)
	slices.SortStableFunc(a.history, compareRecords)
	return nil
}

// withAccount runs fn on the named account with mu held.
func (e *Exchange) withAccount(op, name string, fn func(a *accountState) error) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	a, ok := e.accounts[name]
	if !ok {
		return fmt.Errorf("%s: unknown account %q", op, name)
	}
	return fn(a)
}

// legKey makes a record distinct: its id (with shared ids, token and type too).
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

// compareRecords orders by timestamp, id, type and token (reversed when
// served).
func compareRecords(x, y HistoryRecord) int {
	return cmp.Or(cmp.Compare(x.Timestamp, y.Timestamp), cmp.Compare(x.ID, y.ID),
		strings.Compare(x.Type, y.Type), strings.Compare(x.Token, y.Token))
}

// NextHistoryID returns one more than the account's largest id, or 1.
func (e *Exchange) NextHistoryID(account string) int64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	if a, ok := e.accounts[account]; ok {
		return max(a.maxID, 0) + 1
	}
	return 1
}

// ServedHistory returns every record the account holds, oldest first.
func (e *Exchange) ServedHistory(account string) []HistoryRecord {
	e.mu.Lock()
	defer e.mu.Unlock()
	if a, ok := e.accounts[account]; ok {
		return slices.Clone(a.history)
	}
	return nil
}

// BeforeHistoryPage sets a hook run before each token history page is read,
// after the checks and without mu held (it may append); nil removes it.
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
