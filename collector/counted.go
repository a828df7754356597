package collector

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/go-kit/log"
	"github.com/go-kit/log/level"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/ledger"
)

// StateSection is a history's section of the state file: its name, a value
// of the type of one account's state, what refuses a state the history
// could not rebuild, whether every file holds it, and whether a state is
// checked before it is written too.
type StateSection struct {
	Name       string
	Zero       any
	Check      func(st any) error
	Required   bool
	CheckSaves bool
}

// stateSections are the sections every history declared.
var stateSections []StateSection

// StateSections are the sections of the state file, sorted by name, for
// the state store to decode, check and write.
func StateSections() []StateSection {
	out := slices.Clone(stateSections)
	slices.SortFunc(out, func(a, b StateSection) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

// declareSection adds s to the sections of the state file and returns its
// name.
func declareSection(s StateSection) string {
	stateSections = append(stateSections, s)
	return s.Name
}

// checkOf is check of a state of any type: one that is not an S is
// refused.
func checkOf[S any](check func(S) error) func(any) error {
	return func(st any) error {
		s, ok := st.(S)
		if !ok {
			return fmt.Errorf("a state of type %T", st)
		}
		return check(s)
	}
}

// countedHistory is a history whose rows are each counted once into
// counters that never go back, across restarts and reloads: its state, an
// S, is kept in its section of the state file and handed off by a reload
// under the same name.
type countedHistory[S any] struct {
	section string
	// what names the history in the log.
	what string
}

// newCountedHistory declares a counted history of states of type S and its
// section of the state file; what names it in the log.
func newCountedHistory[S any](section StateSection, what string) *countedHistory[S] {
	return &countedHistory[S]{section: declareSection(section), what: what}
}

// countedState is one account's state of a counted history. It is saved
// before the counters it holds are shown: shown first, a crash could move
// them back, and Prometheus would read a reset.
type countedState[S any] struct {
	h       *countedHistory[S]
	account string
	// store is nil without a state file.
	store  StateStore
	logger log.Logger
	// saved is what the state file holds: what is shown and handed off.
	saved S
	// cap is the series cap of the account's endpoint; folded the rows
	// its ledger had folded into Other when last noted.
	cap    *seriesCap
	folded uint64
}

// restore is account's state from the exporter this one replaces, else
// from the state file; found is false when neither holds it. The state is
// handed off at a reload from then on.
func (h *countedHistory[S]) restore(b *builder, account string) (c *countedState[S], found bool) {
	cfg := b.cfg
	c = &countedState[S]{h: h, account: account, store: cfg.State, logger: cfg.Logger, cap: b.seriesCap(account)}
	st, found := handed[S](cfg, h.section, account)
	if !found && cfg.State != nil {
		var saved any
		if saved, found = cfg.State.SectionState(h.section, account); found {
			st, found = saved.(S)
		}
	}
	c.saved = st
	b.e.counted = append(b.e.counted, c)
	return c, found
}

// keep saves st unless the state file holds it already, and reports
// whether it now does. A failed save is logged at error and leaves saved as
// it was, for a later poll to save what it counts.
func (c *countedState[S]) keep(st S) bool {
	if c.store != nil && !same(&st, &c.saved) {
		if err := c.store.SaveSection(c.h.section, c.account, st); err != nil {
			level.Error(c.logger).Log("msg", "cannot save the state of the "+c.h.what+"; the counters shown hold until a save succeeds", "account", c.account, "err", err)
			return false
		}
	}
	c.saved = st
	return true
}

// noteFolded counts in the series cap the rows folded into Other since it
// was last called; total is every row the ledger has folded.
func (c *countedState[S]) noteFolded(total uint64) {
	c.cap.note(int(total - c.folded))
	c.folded = total
}

// handOff implements handoffer.
func (c *countedState[S]) handOff(h *Handoff) { h.put(c.h.section, c.account, c.saved) }

// tallyHistory is a counted history a ledger.Tally counts by id into totals
// by labels, its label at foldAt folded into Other beyond the series cap.
// Its section holds an S, which toState and fromState convert.
type tallyHistory[S any] struct {
	*countedHistory[S]
	foldAt    int
	toState   func(ledger.TallyState) S
	fromState func(S) (ledger.TallyState, error)
}

// newTallyHistory declares a tally history and its state file section.
func newTallyHistory[S any](section, what string, foldAt int, toState func(ledger.TallyState) S, fromState func(S) (ledger.TallyState, error)) *tallyHistory[S] {
	h := &tallyHistory[S]{foldAt: foldAt, toState: toState, fromState: fromState}
	h.countedHistory = newCountedHistory[S](StateSection{Name: section, Zero: *new(S), Check: checkOf(func(st S) error {
		tally, err := fromState(st)
		if err == nil {
			_, err = ledger.TallyFromState(tally, 0, 0, foldAt)
		}
		return err
	})}, what)
	return h
}

// tallyStateAsIs is a section that holds a tally's state as it is.
func tallyStateAsIs(st ledger.TallyState) ledger.TallyState { return st }

// tallyStateChecked is tallyStateAsIs on the way back.
func tallyStateChecked(st ledger.TallyState) (ledger.TallyState, error) { return st, nil }

// tallyAccount is one account's tally of a tally history.
type tallyAccount[S any] struct {
	*countedState[S]
	history *tallyHistory[S]
	tally   *ledger.Tally
	// shown are the totals the state file holds.
	shown []ledger.TallyTotal
}

// account is account's tally, restored (countedHistory.restore) or counting
// from one lookback back.
func (h *tallyHistory[S]) account(b *builder, account string) (*tallyAccount[S], error) {
	cfg := b.cfg
	late := cfg.HistoryLateWindow.Milliseconds()
	a := &tallyAccount[S]{history: h,
		tally: ledger.NewTally(cfg.Now().Add(-cfg.HistoryLookback).UnixMilli(), late, cfg.SeriesPerEndpoint, h.foldAt)}
	var found bool
	if a.countedState, found = h.restore(b, account); found {
		st, err := h.fromState(a.saved)
		if err == nil {
			a.tally, err = ledger.TallyFromState(st, late, cfg.SeriesPerEndpoint, h.foldAt)
		}
		if err != nil {
			return nil, fmt.Errorf("account %q: saved %s: %w", account, h.what, err)
		}
	}
	// What a restart resumes is shown at once: it was saved before.
	a.shown = a.tally.Totals()
	return a, nil
}

// count counts the rows not counted before, read up to endMs, notes those
// folded into Other, saves, and returns the totals the state file holds.
func (a *tallyAccount[S]) count(rows []ledger.Counted, endMs int64) []ledger.TallyTotal {
	a.tally.Count(rows)
	a.tally.Finish(endMs)
	a.noteFolded(a.tally.Folded())
	if a.keep(a.history.toState(a.tally.Export())) {
		a.shown = a.tally.Totals()
	}
	return a.shown
}

// tallyRead reads one query window of an account's rows, those to count and
// those that could not be read.
type tallyRead func(ctx context.Context, api *client.Client, startMs, endMs int64) ([]ledger.Counted, []client.RejectedRow, error)

// collector polls each account's tally of h, reading one late window
// behind the cursor to now with read, and shows the totals the state file
// holds with emit.
func (h *tallyHistory[S]) collector(b *builder, read tallyRead, emit func(chan<- prometheus.Metric, string, *[]ledger.TallyTotal),
	descs ...*prometheus.Desc) (prometheus.Collector, error) {
	c := &perAccount[[]ledger.TallyTotal]{descs: descs, emit: emit}
	for _, acc := range b.cfg.Accounts {
		a, err := h.account(b, acc.Name)
		if err != nil {
			return nil, err
		}
		shown, api := c.add(acc.Name), acc.API
		_ = shown.set(a.shown, nil)
		b.pollList(c, acc.Name, func(ctx context.Context, _ func()) (leftOut, error) {
			start, end := a.tally.QueryWindow(api.ServerNow().UnixMilli())
			rows, rejected, err := read(ctx, api, start, end)
			if err != nil {
				return leftOut{}, err
			}
			return leftOutOf(rejected, shown.set(a.count(rows, end), nil))
		})
	}
	return collectorOrNil(c, len(c.accounts)), nil
}
