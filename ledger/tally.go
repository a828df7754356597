package ledger

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/shopspring/decimal"
)

// Counted is one record a Tally counts.
type Counted struct {
	// ID identifies the record; the same record read again (a status
	// update, a page repeated, a late listing) has the same ID.
	ID string
	// Labels are what the record is counted under: its total's.
	Labels []string
	// Amount's magnitude is added to the total.
	Amount decimal.Decimal
	// LatestMs is the record's latest time (updated, else created).
	LatestMs int64
	// Note is kept on the total from its newest record (a transfer's
	// counterparty application id); "" under Other.
	Note string
}

// TallyTotal is what the records counted under one set of labels add up to.
type TallyTotal struct {
	Labels  []string
	Records uint64
	Amount  decimal.Decimal
	// LastMs is the latest time of the newest record counted.
	LastMs int64
	Note   string
}

// Tally counts every record of one account exactly once by its id: across
// polls, across restarts (Export and TallyFromState) and when the exchange
// lists a record late, as long as it is listed within the late window
// behind the cursor. Each poll reads the whole late window again, so a
// record listed late is found by the next poll; ids are remembered until
// their latest time falls behind the horizon, which follows the cursor one
// late window behind. Beyond maxTotals distinct totals, a record is counted
// with its label at foldAt set to Other. Not safe for concurrent use: its
// poller owns it.
type Tally struct {
	cursor, horizon   int64
	lateWindowMs      int64
	maxTotals, foldAt int
	seen              map[string]int64
	totals            map[string]*TallyTotal
	folded            uint64
}

// NewTally starts counting at startMs (Unix milliseconds): records before
// it are never counted.
func NewTally(startMs, lateWindowMs int64, maxTotals, foldAt int) *Tally {
	return &Tally{cursor: startMs, horizon: startMs, lateWindowMs: lateWindowMs, maxTotals: maxTotals, foldAt: foldAt,
		seen: map[string]int64{}, totals: map[string]*TallyTotal{}}
}

// QueryWindow is the query window the next poll reads at the exchange's time nowMs:
// from one late window behind the cursor (not before the horizon) to now.
// A cursor ahead of now (a clock stepped back) reads from now.
func (t *Tally) QueryWindow(nowMs int64) (start, end int64) {
	start = max(t.horizon, min(t.cursor, nowMs)-t.lateWindowMs)
	return min(start, nowMs), nowMs
}

// labelKey is labels as a map key.
func labelKey(labels []string) string { return strings.Join(labels, "\x00") }

// Count counts the records not counted before and returns how many it
// counted. A record whose latest time lies before the horizon is not
// counted: it cannot be told apart from one whose id was forgotten.
func (t *Tally) Count(recs []Counted) (counted int) {
	for _, r := range recs {
		if r.LatestMs < t.horizon {
			continue
		}
		if latest, ok := t.seen[r.ID]; ok {
			t.seen[r.ID] = max(latest, r.LatestMs)
			continue
		}
		t.seen[r.ID] = r.LatestMs
		labels := slices.Clone(r.Labels)
		tot, ok := t.totals[labelKey(labels)]
		if !ok && t.maxTotals > 0 && len(t.totals) >= t.maxTotals {
			labels[t.foldAt] = Other
			t.folded++
			tot, ok = t.totals[labelKey(labels)]
			r.Note = ""
		}
		if !ok {
			tot = &TallyTotal{Labels: labels}
			t.totals[labelKey(labels)] = tot
		}
		tot.Records++
		tot.Amount = tot.Amount.Add(r.Amount.Abs())
		if r.LatestMs >= tot.LastMs {
			tot.LastMs, tot.Note = r.LatestMs, r.Note
		}
		counted++
	}
	return counted
}

// Finish moves the cursor to endMs after a poll that read every page of
// its query window, and forgets the ids whose latest time fell behind the new
// horizon.
func (t *Tally) Finish(endMs int64) {
	t.cursor = max(t.cursor, endMs)
	t.horizon = max(t.horizon, t.cursor-t.lateWindowMs)
	for id, latest := range t.seen {
		if latest < t.horizon {
			delete(t.seen, id)
		}
	}
}

// Totals returns every total, sorted by labels.
func (t *Tally) Totals() []TallyTotal {
	out := make([]TallyTotal, 0, len(t.totals))
	for _, tot := range t.totals {
		out = append(out, *tot)
	}
	slices.SortFunc(out, func(a, b TallyTotal) int { return slices.Compare(a.Labels, b.Labels) })
	return out
}

// Folded is how many records were counted under Other since this process
// started.
func (t *Tally) Folded() uint64 { return t.folded }

// TallyState is a Tally in a form that survives a restart exactly:
// JSON-serializable, decimals as strings.
type TallyState struct {
	// CursorMs is where the last complete poll ended; HorizonMs the
	// oldest latest time whose ids are all remembered.
	CursorMs  int64            `json:"cursor_ms"`
	HorizonMs int64            `json:"horizon_ms"`
	Seen      []SeenTransfer   `json:"seen"`
	Totals    []TallyTotalText `json:"totals"`
}

// TallyTotalText is a TallyTotal with exact decimal text.
type TallyTotalText struct {
	Labels  []string `json:"labels"`
	Note    string   `json:"note,omitempty"`
	Records uint64   `json:"records"`
	Amount  string   `json:"amount"`
	LastMs  int64    `json:"last_ms"`
}

// Export returns the tally's state.
func (t *Tally) Export() TallyState {
	st := TallyState{CursorMs: t.cursor, HorizonMs: t.horizon, Seen: make([]SeenTransfer, 0, len(t.seen)), Totals: []TallyTotalText{}}
	for id, latest := range t.seen {
		st.Seen = append(st.Seen, SeenTransfer{ID: id, LatestMs: latest})
	}
	slices.SortFunc(st.Seen, func(a, b SeenTransfer) int { return cmp.Compare(a.ID, b.ID) })
	for _, tot := range t.Totals() {
		st.Totals = append(st.Totals, TallyTotalText{Labels: tot.Labels, Note: tot.Note, Records: tot.Records,
			Amount: tot.Amount.String(), LastMs: tot.LastMs})
	}
	return st
}

// TallyFromState rebuilds a tally exported by Export, with the late window
// and bounds of this run.
func TallyFromState(st TallyState, lateWindowMs int64, maxTotals, foldAt int) (*Tally, error) {
	if st.HorizonMs > st.CursorMs {
		return nil, errors.New("horizon after the cursor")
	}
	t := NewTally(st.CursorMs, lateWindowMs, maxTotals, foldAt)
	t.horizon = st.HorizonMs
	for _, s := range st.Seen {
		if s.ID == "" {
			return nil, errors.New("empty id")
		}
		if _, dup := t.seen[s.ID]; dup {
			return nil, fmt.Errorf("id %q twice", s.ID)
		}
		t.seen[s.ID] = s.LatestMs
	}
	for _, s := range st.Totals {
		d, err := decimal.NewFromString(s.Amount)
		if err != nil || d.IsNegative() {
			return nil, fmt.Errorf("amount %q of %s", s.Amount, strings.Join(s.Labels, " "))
		}
		if len(s.Labels) <= foldAt {
			return nil, fmt.Errorf("total of %q: too few labels", s.Labels)
		}
		if _, dup := t.totals[labelKey(s.Labels)]; dup {
			return nil, fmt.Errorf("total of %s twice", strings.Join(s.Labels, " "))
		}
		t.totals[labelKey(s.Labels)] = &TallyTotal{Labels: slices.Clone(s.Labels), Records: s.Records, Amount: d, LastMs: s.LastMs, Note: s.Note}
	}
	return t, nil
}
