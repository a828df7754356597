package fakeexchange

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// rowsEndpoint is an endpoint served by one generic path: its rows (the
// scenario's, its recorded answer's, or its source's), changed by events,
// rendered by their wire tags, served whole or a page at a time. Each
// endpoint fills in what is its own.
type rowsEndpoint[R any] struct {
	name string
	// section and event are the YAML keys of its rows (in an account unless
	// public) and of its event; scenario reads the section.
	section, event string
	scenario       func(s *Scenario, a Account) []R
	// under is the answer's field holding the rows; one serves a single row
	// as the answer, recorded when the scenario sets none.
	under    string
	one      bool
	recorded R
	// sorted keeps the rows in key order, as the exchange serves them.
	sorted bool
	change change
	// defaults fills in the fields a row may leave empty.
	defaults func(R) R
	// servedAt is the row as served to a (nil when public) at now, set at since
	// (zero: Start): walks, times that are now, what the account implies.
	servedAt func(e *Exchange, a *accountState, r R, since, now time.Time) R
	// source gives the rows listed at now when the endpoint keeps none.
	source func(e *Exchange, a *accountState, now time.Time) []R
	// answer wraps the rendered rows with what they do not hold; stored are
	// the rows as set.
	answer     func(e *Exchange, a *accountState, stored []R, rendered []any) any
	unreadable func(e *Exchange, i int) any

	// paged serves a page at a time; history is a row's time (Unix ms) when
	// the rows are a history, newest first; filters are query parameters
	// matching the field of their wire name.
	paged   bool
	history func(R) int64
	filters []string
	// status is a row's order status, for the status parameter, which
	// also takes the bundles INCOMPLETE and COMPLETED (statusBundles).
	status func(R) string
	// copies lists a row as several (a flood of orders set by one row).
	copies func(R) []R
	// query checks or changes the query read, without mu held.
	query func(e *Exchange, account string, q *historyQuery) *apiError
	// late holds back Scenario.LateListing's share of the rows, by id.
	late bool
	// reorder changes the order of a page request's sorted rows, mu held.
	reorder   func(e *Exchange, rows []R)
	snakeMeta func(e *Exchange) bool // a page's meta in snake_case whatever the scenario says
	// place dates a row set at at (New, its event), replacing old (nil if new).
	place func(old *R, r R, at time.Time) R
	// changed follows an event, on each of a's rows, mu held.
	changed func(e *Exchange, a *accountState, s stored[R])
}

// change is what a row set by an event does to the row of its key.
type change int

const (
	// patch replaces the fields the row sets (a new key adds the row).
	patch change = iota
	// replace replaces the whole row (a new key adds it).
	replace
	// add adds the row, refusing a key already listed.
	add
)

// stored is a row and when an event set it, when its walks start (zero: Start).
type stored[R any] struct {
	row   R
	since time.Time
}

// route is the endpoint's route, its shares all generic.
func (p *rowsEndpoint[R]) route() route {
	r := route{serve: p.serve, validateEvent: p.validateEvent, apply: p.apply, unreadable: p.unreadable}
	if p.scenario == nil {
		return r
	}
	validate := func(s *Scenario, a Account) error { return p.validateRows(p.scenario(s, a)) }
	seed := func(e *Exchange, rows *[]stored[R], s *Scenario, a Account, created time.Time) {
		for _, row := range p.scenario(s, a) {
			_ = p.put(rows, row, replace, time.Time{}, created) // validated: no error
		}
		if p.one && len(*rows) == 0 {
			*rows = []stored[R]{{row: p.recorded}}
		}
	}
	if p.public() {
		r.validate = func(s *Scenario) error { return validate(s, Account{}) }
		r.seed = func(e *Exchange, s *Scenario) { seed(e, p.rowsOf(e, nil), s, Account{}, e.now()) }
	} else {
		r.validateAccount = validate
		r.seedAccount = func(e *Exchange, st *accountState, a Account, created time.Time) {
			seed(e, p.rowsOf(e, st), nil, a, created)
		}
	}
	return r
}

func (p *rowsEndpoint[R]) public() bool {
	ep, _ := endpoint.Of(p.name)
	return !ep.PerAccount
}

// rowsOf are the rows of a, or the exchange's when nil; mu held or e owned.
func (p *rowsEndpoint[R]) rowsOf(e *Exchange, a *accountState) *[]stored[R] {
	var m map[string]any
	if a != nil {
		m = a.rows
	} else {
		m = e.rows
	}
	rows, ok := m[p.name].(*[]stored[R])
	if !ok {
		rows = &[]stored[R]{}
		m[p.name] = rows
	}
	return rows
}

func (p *rowsEndpoint[R]) withDefaults(r R) R {
	if p.defaults != nil {
		return p.defaults(r)
	}
	return r
}

// validateRows checks a scenario's rows: each valid, no key twice.
func (p *rowsEndpoint[R]) validateRows(rows []R) error {
	seen := map[string]bool{}
	keys := slices.DeleteFunc(slices.Clone(wireFieldsOf(reflect.TypeFor[R]())), func(f wireField) bool { return !f.key })
	for i, r := range rows {
		at := fmt.Sprintf("%s[%d]", p.section, i)
		if p.one {
			at = p.section
		}
		if err := validateRow(p.withDefaults(r), false); err != nil {
			return fmt.Errorf("%s.%w", at, err)
		}
		key := rowKey(p.withDefaults(r))
		switch {
		case seen[key] && len(keys) == 1:
			return fieldErr(at+"."+keys[0].yaml, "duplicate %q", fmt.Sprint(reflect.ValueOf(r).Field(keys[0].index).Interface()))
		case seen[key]:
			return fieldErr(at, "duplicate %s", key)
		}
		seen[key] = true
	}
	return nil
}

// find is where the row of r's key is, or would be inserted.
func (p *rowsEndpoint[R]) find(rows []stored[R], r R) (int, bool) {
	if !p.sorted {
		i := slices.IndexFunc(rows, func(s stored[R]) bool { return compareKeys(s.row, r) == 0 })
		if i < 0 {
			return len(rows), false
		}
		return i, true
	}
	return slices.BinarySearchFunc(rows, r, func(s stored[R], r R) int { return compareKeys(s.row, r) })
}

// put changes rows by r, set at since, dated at at, as how says.
func (p *rowsEndpoint[R]) put(rows *[]stored[R], r R, how change, since, at time.Time) error {
	if p.one {
		if how == patch && len(*rows) == 1 {
			patchRow(&(*rows)[0].row, r)
			return nil
		}
		*rows = []stored[R]{{row: p.withDefaults(r), since: since}}
		return nil
	}
	i, found := p.find(*rows, p.withDefaults(r))
	if p.place != nil {
		var old *R
		if found {
			old = &(*rows)[i].row
		}
		r = p.place(old, r, at)
	}
	var fresh R
	patchRow(&fresh, r) // its own copy of the pointers
	fresh = p.withDefaults(fresh)
	switch {
	case found && how == add:
		return fmt.Errorf("%s already listed", rowKey(r))
	case found && how == patch:
		patchRow(&(*rows)[i].row, r)
	case found:
		(*rows)[i] = stored[R]{row: fresh, since: since}
	default:
		*rows = slices.Insert(*rows, i, stored[R]{row: fresh, since: since})
	}
	return nil
}

// withRows runs fn on account's rows ("": the exchange's, a nil) with mu held.
func (p *rowsEndpoint[R]) withRows(e *Exchange, op, account string, fn func(a *accountState, rows *[]stored[R]) error) error {
	if account == "" {
		e.mu.Lock()
		defer e.mu.Unlock()
		return fn(nil, p.rowsOf(e, nil))
	}
	return e.withAccount(op, account, func(a *accountState) error { return fn(a, p.rowsOf(e, a)) })
}

// eventChange is ev's action on the endpoint (its field named event), or nil.
func (p *rowsEndpoint[R]) eventChange(ev Event) *Change[R] {
	for _, f := range reflect.VisibleFields(reflect.TypeFor[Event]()) {
		if p.event == "" || f.Tag.Get("yaml") != p.event {
			continue
		}
		return reflect.ValueOf(ev).FieldByIndex(f.Index).Interface().(*Change[R])
	}
	return nil
}

func (p *rowsEndpoint[R]) validateEvent(_ *Scenario, ev Event, accounts map[string]bool) error {
	c := p.eventChange(ev)
	switch {
	case c == nil:
		return nil
	case p.public():
		if err := p.changeErr(c); err != nil {
			return fmt.Errorf("%s.%w", p.event, err)
		}
		return nil
	}
	return validateEventAccount(p.event, c.Account, accounts, p.changeErr(c))
}

// changeErr is what is wrong with c, naming its field.
func (p *rowsEndpoint[R]) changeErr(c *Change[R]) error {
	switch {
	case c.Remove && p.one:
		return fieldErr("remove", "a single answer is not removed")
	case c.All && p.one:
		return fieldErr("all", "a single answer is not a list")
	case c.All:
		for i, r := range c.Rows {
			if err := validateRow(p.withDefaults(r), false); err != nil {
				return fmt.Errorf("rows[%d].%w", i, err)
			}
		}
		return nil
	}
	return validateRow(p.withDefaults(c.Row), c.Remove)
}

// apply changes the rows of the event's account ("" when public) by its
// action on the endpoint, if any.
func (p *rowsEndpoint[R]) apply(e *Exchange, ev Event) error {
	c := p.eventChange(ev)
	if c == nil {
		return nil
	}
	op, row, how := p.event+" event", p.withDefaults(c.Row), p.change
	if c.Replace {
		how = replace
	}
	if err := p.changeErr(c); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	now := e.now()
	return p.withRows(e, op, c.Account, func(a *accountState, rows *[]stored[R]) error {
		i, found := p.find(*rows, row)
		switch {
		case c.All:
			*rows = nil
			for _, r := range c.Rows {
				if p.place != nil {
					r = p.place(nil, r, now)
				}
				*rows = append(*rows, stored[R]{row: p.withDefaults(r), since: now})
			}
			if p.sorted {
				slices.SortStableFunc(*rows, func(x, y stored[R]) int { return compareKeys(x.row, y.row) })
			}
		case c.Remove && !found:
			return fmt.Errorf("%s: account %q lists no %s", op, c.Account, rowKey(row))
		case c.Remove:
			*rows = slices.Delete(*rows, i, i+1)
		default:
			if err := p.put(rows, c.Row, how, now, now); err != nil {
				return fmt.Errorf("%s: account %q: %w", op, c.Account, err)
			}
		}
		for _, s := range *rows {
			if p.changed != nil {
				p.changed(e, a, s)
			}
		}
		return nil
	})
}

// rowsNow are a's rows (nil: the exchange's) as served at now; mu held.
func (p *rowsEndpoint[R]) rowsNow(e *Exchange, a *accountState, now time.Time) []R {
	if p.source != nil {
		rows := slices.Clone(p.source(e, a, now))
		for i := range rows {
			if p.servedAt != nil {
				rows[i] = p.servedAt(e, a, rows[i], e.started, now)
			}
		}
		return rows
	}
	stored := *p.rowsOf(e, a)
	rows := make([]R, len(stored))
	for i, s := range stored {
		rows[i] = s.row
		if p.servedAt != nil {
			rows[i] = p.servedAt(e, a, s.row, cmp.Or(s.since, e.started), now)
		}
	}
	if p.copies == nil {
		return rows
	}
	var all []R
	for _, r := range rows {
		all = append(all, p.copies(r)...)
	}
	return all
}

// served renders a's rows at now with the unreadable rows. The caller holds mu.
func (p *rowsEndpoint[R]) served(e *Exchange, a *accountState, now time.Time) []any {
	rows := p.rowsNow(e, a, now)
	return e.listRows(p.name, len(rows), 0, e.listLength(p.name, len(rows)), func(i int) any { return e.render(rows[i]) })
}

// serve answers the rows whole or a page of them (only paged take a query).
func (p *rowsEndpoint[R]) serve(e *Exchange, account, rawQuery string) (any, *apiError) {
	if p.paged {
		return p.servePage(e, account, rawQuery)
	}
	if _, aerr := parseQuery(rawQuery); aerr != nil {
		return nil, aerr
	}
	if p.query != nil {
		if aerr := p.query(e, account, &historyQuery{}); aerr != nil {
			return nil, aerr
		}
	}
	now := e.now()
	e.mu.Lock()
	defer e.mu.Unlock()
	a := e.accounts[account]
	rows := p.served(e, a, now)
	switch {
	case p.answer != nil:
		var set []R
		for _, s := range *p.rowsOf(e, a) {
			set = append(set, s.row)
		}
		return p.answer(e, a, set, rows), nil
	case p.one:
		return rows[0], nil
	}
	return wireObject{{p.under, rows}}, nil
}
