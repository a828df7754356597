package fakeexchange

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// rowsEndpoint is a single-answer endpoint served by one generic path: its
// rows (a scenario's, else its recorded answer's), changed by scenario
// events and the Go API, each rendered by its wire tags and served whole.
// What is its own is filled in; the stateful paged endpoints (token
// history, transfers, wallet) have their own code instead.
type rowsEndpoint[R any] struct {
	name string
	// section and event are the YAML keys of its rows in a scenario account
	// (the scenario, for a public endpoint) and of its event, for messages.
	section, event string
	// under is the answer's field holding the rows; one serves a single
	// row as the answer itself, with recorded when the scenario sets none.
	under    string
	one      bool
	recorded R
	// sorted serves the rows in key order, as the exchange does; the
	// others are served as added.
	sorted bool
	// scenario is a scenario account's rows, or the scenario's when the
	// endpoint is public (account is then zero).
	scenario func(s *Scenario, a Account) []R
	// change is what an event's row does to the row of its key.
	change change
	// defaults fills in the fields a row may leave empty.
	defaults func(R) R
	// live is the row as served at now, set at since (zero: the
	// exchange's Start, zero before it): walks, times that are now.
	live func(e *Exchange, r R, since, now time.Time) R
	// answer wraps an account's rows as rendered (its one row) into the
	// answer, with what they do not hold; stored are the rows as set. nil
	// serves them as they are.
	answer func(e *Exchange, a *accountState, stored []R, rendered []any) any
	// unreadable builds its i-th row no client can read.
	unreadable func(e *Exchange, i int) any
	demo       func(s *Scenario)

	// history, when set, serves the rows as a paged history, by their id
	// and time (Unix ms): see serveHistory. filters are the query
	// parameters it also takes, each selecting the rows whose field of
	// that wire name it equals.
	history func(R) (id, ms int64)
	filters []string
	// place dates a row whose time is relative (created_ago): a
	// scenario's to the exchange's creation, an event's to its time.
	place func(r R, at time.Time) R
}

// change is what a row set by an event or the Go API does to the row of
// its key.
type change int

const (
	// patch replaces the fields the row sets (a new key adds the row).
	patch change = iota
	// replace replaces the whole row (a new key adds it).
	replace
	// add adds the row, refusing a key already listed.
	add
)

// stored is a row and when it was set by an event or the Go API: its walks
// start then; zero for a scenario's, whose walks start with the exchange.
type stored[R any] struct {
	row   R
	since time.Time
}

// route is the endpoint's route, its shares all generic.
func (p *rowsEndpoint[R]) route() route {
	r := route{serve: p.serve, validateEvent: p.validateEvent, apply: p.apply, unreadable: p.unreadable, demo: p.demo}
	if p.scenario == nil {
		return r
	}
	validate := func(s *Scenario, a Account) error { return p.validateRows(p.scenario(s, a)) }
	seed := func(e *Exchange, rows *[]stored[R], s *Scenario, a Account, created time.Time) {
		for _, row := range p.scenario(s, a) {
			if p.place != nil {
				row = p.place(row, created)
			}
			_ = p.put(rows, row, replace, time.Time{}) // validated: no error
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
		r.seedAccount = func(e *Exchange, st *accountState, a Account, created time.Time) error {
			seed(e, p.rowsOf(e, st), nil, a, created)
			return nil
		}
	}
	return r
}

func (p *rowsEndpoint[R]) public() bool {
	ep, _ := endpoint.Of(p.name)
	return !ep.PerAccount
}

// rowsOf are the rows of account a, or the exchange's when a is nil. The
// caller holds mu or owns e.
func (p *rowsEndpoint[R]) rowsOf(e *Exchange, a *accountState) *[]stored[R] {
	m := e.rows
	if a != nil {
		m = a.rows
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
	for i, r := range rows {
		at := fmt.Sprintf("%s[%d]", p.section, i)
		if p.one {
			at = p.section
		}
		if err := validateRow(p.withDefaults(r)); err != nil {
			return fmt.Errorf("%s.%w", at, err)
		}
		key := rowKey(p.withDefaults(r))
		if seen[key] && !p.one {
			if f, single := p.singleKey(); single {
				return fieldErr(at+"."+f.yaml, "duplicate %q", fmt.Sprint(reflect.ValueOf(r).Field(f.index).Interface()))
			}
			return fieldErr(at, "duplicate %s", key)
		}
		seen[key] = true
	}
	return nil
}

// singleKey is the one key field of R, if it has one alone.
func (p *rowsEndpoint[R]) singleKey() (wireField, bool) {
	var keys []wireField
	for _, f := range wireFieldsOf(reflect.TypeFor[R]()) {
		if f.key {
			keys = append(keys, f)
		}
	}
	if len(keys) != 1 {
		return wireField{}, false
	}
	return keys[0], true
}

// find is where the row of r's key is, or would be inserted.
func (p *rowsEndpoint[R]) find(rows []stored[R], r R) (int, bool) {
	key := rowKeyParts(r)
	if !p.sorted {
		i := slices.IndexFunc(rows, func(s stored[R]) bool { return slices.Equal(rowKeyParts(s.row), key) })
		if i < 0 {
			return len(rows), false
		}
		return i, true
	}
	return slices.BinarySearchFunc(rows, key, func(s stored[R], key []string) int { return slices.Compare(rowKeyParts(s.row), key) })
}

// put changes rows by r, set at since, as how says.
func (p *rowsEndpoint[R]) put(rows *[]stored[R], r R, how change, since time.Time) error {
	if p.one {
		if how == patch && len(*rows) == 1 {
			patchRow(&(*rows)[0].row, r)
			return nil
		}
		*rows = []stored[R]{{row: r, since: since}}
		return nil
	}
	i, found := p.find(*rows, p.withDefaults(r))
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

// set validates r and changes the rows of account ("" for a public
// endpoint) by it, at server time now; op names the change in errors.
func (p *rowsEndpoint[R]) set(e *Exchange, op, account string, r R, how change) error {
	if err := validateRow(p.withDefaults(r)); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if p.place != nil {
		r = p.place(r, e.now())
	}
	return p.withRows(e, op, account, func(rows *[]stored[R]) error {
		if err := p.put(rows, r, how, e.now()); err != nil {
			return fmt.Errorf("%s: account %q: %w", op, account, err)
		}
		return nil
	})
}

// remove takes the row of r's key out of account's rows.
func (p *rowsEndpoint[R]) remove(e *Exchange, op, account string, r R) error {
	return p.withRows(e, op, account, func(rows *[]stored[R]) error {
		i, found := p.find(*rows, p.withDefaults(r))
		if !found {
			return fmt.Errorf("%s: account %q lists no %s", op, account, rowKey(p.withDefaults(r)))
		}
		*rows = slices.Delete(*rows, i, i+1)
		return nil
	})
}

// withRows runs fn on the rows of account ("" for the exchange's) with mu
// held.
func (p *rowsEndpoint[R]) withRows(e *Exchange, op, account string, fn func(rows *[]stored[R]) error) error {
	if account == "" {
		e.mu.Lock()
		defer e.mu.Unlock()
		return fn(p.rowsOf(e, nil))
	}
	return e.withAccount(op, account, func(a *accountState) error { return fn(p.rowsOf(e, a)) })
}

// all is a copy of the rows of account ("" for the exchange's).
func (p *rowsEndpoint[R]) all(e *Exchange, account string) []R {
	var out []R
	_ = p.withRows(e, "list", account, func(rows *[]stored[R]) error {
		for _, s := range *rows {
			out = append(out, s.row)
		}
		return nil
	})
	return out
}

// eventChange is ev's action on the endpoint, its field named event: nil
// when it has none; a public endpoint's action is its row alone.
func (p *rowsEndpoint[R]) eventChange(ev Event) *Change[R] {
	for _, f := range reflect.VisibleFields(reflect.TypeFor[Event]()) {
		if p.event == "" || f.Tag.Get("yaml") != p.event {
			continue
		}
		switch a := reflect.ValueOf(ev).FieldByIndex(f.Index).Interface().(type) {
		case *Change[R]:
			return a
		case *R:
			if a != nil {
				return &Change[R]{Row: *a}
			}
		}
	}
	return nil
}

func (p *rowsEndpoint[R]) validateEvent(_ *Scenario, ev Event, accounts map[string]bool) error {
	c := p.eventChange(ev)
	if c == nil {
		return nil
	}
	err := validateRow(p.withDefaults(c.Row))
	switch {
	case c.Remove && p.one:
		err = fieldErr("remove", "a single answer is not removed")
	case c.Remove:
		err = validateRowKey(p.withDefaults(c.Row))
	}
	if p.public() {
		if err != nil {
			return fmt.Errorf("%s.%w", p.event, err)
		}
		return nil
	}
	return validateEventAccount(p.event, c.Account, accounts, err)
}

func (p *rowsEndpoint[R]) apply(e *Exchange, ev Event) error {
	c := p.eventChange(ev)
	switch {
	case c == nil:
		return nil
	case c.Remove && !p.one:
		return p.remove(e, p.event+" event", c.Account, c.Row)
	case c.Replace:
		return p.set(e, p.event+" event", c.Account, c.Row, replace)
	}
	return p.set(e, p.event+" event", c.Account, c.Row, p.change)
}

// served renders the rows of account as served at now. The caller holds
// mu.
func (p *rowsEndpoint[R]) served(e *Exchange, a *accountState, now time.Time) []any {
	rows := *p.rowsOf(e, a)
	n := len(rows)
	return e.listRows(p.name, n, 0, e.listLength(p.name, n), func(i int) any {
		r := rows[i].row
		if p.live != nil {
			since := rows[i].since
			if since.IsZero() {
				since = e.started
			}
			r = p.live(e, r, since, now)
		}
		return e.render(r)
	})
}

// serve answers with the rows of the account, or the exchange's; it takes
// no query parameter, but for a history's.
func (p *rowsEndpoint[R]) serve(e *Exchange, account, rawQuery string) (any, *apiError) {
	if p.history != nil {
		return p.serveHistory(e, account, rawQuery)
	}
	if _, aerr := parseQuery(rawQuery); aerr != nil {
		return nil, aerr
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

// serveHistory answers one page of the account's rows as the history
// endpoints do: newest first (then by id), those of the startTime and
// endTime and of the filters, a share of late listing held back until its
// delay after the row's time, with meta (the scenario's spelling, totals
// and page cap).
func (p *rowsEndpoint[R]) serveHistory(e *Exchange, account, rawQuery string) (any, *apiError) {
	hq, aerr := readHistoryQuery(rawQuery, p.filters...)
	if aerr != nil {
		return nil, aerr
	}
	q, page, size, window := hq.params, hq.page, hq.size, hq.window
	now := e.now()
	e.mu.Lock()
	defer e.mu.Unlock()
	var rows []R
	for _, s := range *p.rowsOf(e, e.accounts[account]) {
		id, ms := p.history(s.row)
		late := e.s.LateListing.Selects(id) && now.Before(time.UnixMilli(ms).Add(e.s.LateListing.Delay))
		if window.contains(ms) && !late && p.matches(s.row, q) {
			rows = append(rows, s.row)
		}
	}
	slices.SortFunc(rows, func(x, y R) int {
		xID, xMs := p.history(x)
		yID, yMs := p.history(y)
		return cmp.Or(cmp.Compare(yMs, xMs), cmp.Compare(yID, xID))
	})
	total := e.listLength(p.name, len(rows))
	from, to, served := e.pageRange(total, page, size)
	return pageData{Rows: e.listRows(p.name, len(rows), from, to, func(i int) any { return e.render(rows[i]) }),
		Meta: e.meta(total, served, size)}, nil
}

// matches reports whether row holds, in the field of each filter's wire
// name, the value the query gives it.
func (p *rowsEndpoint[R]) matches(row R, q map[string]string) bool {
	v := reflect.ValueOf(row)
	for _, f := range wireFieldsOf(v.Type()) {
		if want, ok := q[f.name]; ok && slices.Contains(p.filters, f.name) && fmt.Sprint(v.Field(f.index).Interface()) != want {
			return false
		}
	}
	return true
}
