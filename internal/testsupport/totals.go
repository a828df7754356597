package testsupport

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"github.com/shopspring/decimal"
)

// HistoryKey is one (token, transaction type) of the token history: what
// the exporter keeps totals by.
type HistoryKey struct{ Token, Type string }

// HistorySums are the exact totals of one HistoryKey as the exporter counts
// them: the records, the sum of the positive amounts (inflow) and the sum of
// the others, negated (outflow).
type HistorySums struct {
	Records         uint64
	Inflow, Outflow decimal.Decimal
}

// HistoryTotals sums records exactly by token and type; leg returns a
// record's token, type and amount as decimal text. It panics on an amount
// that is not a decimal: the test built a bad record.
func HistoryTotals[R any](records []R, leg func(R) (token, typ, amount string)) map[HistoryKey]HistorySums {
	out := map[HistoryKey]HistorySums{}
	for _, r := range records {
		token, typ, amount := leg(r)
		k := HistoryKey{Token: token, Type: typ}
		s := out[k]
		a := decimal.RequireFromString(amount)
		s.Records++
		if a.Sign() > 0 {
			s.Inflow = s.Inflow.Add(a)
		} else {
			s.Outflow = s.Outflow.Sub(a)
		}
		out[k] = s
	}
	return out
}

// DiffTotals describes how the totals got differ from want, one sorted line
// per (token, type) that differs or is in one only; none when they agree.
func DiffTotals(got, want map[HistoryKey]HistorySums) []string {
	var diffs []string
	for _, k := range sortedKeys(got, want) {
		g, inGot := got[k]
		w, inWant := want[k]
		switch {
		case !inWant:
			diffs = append(diffs, fmt.Sprintf("%s %s: counted %s, but no such record is held", k.Token, k.Type, g))
		case !inGot:
			diffs = append(diffs, fmt.Sprintf("%s %s: not counted, want %s", k.Token, k.Type, w))
		case g.Records != w.Records || !g.Inflow.Equal(w.Inflow) || !g.Outflow.Equal(w.Outflow):
			diffs = append(diffs, fmt.Sprintf("%s %s: counted %s, want %s", k.Token, k.Type, g, w))
		}
	}
	return diffs
}

// String shows the sums as a mismatch reports them.
func (s HistorySums) String() string {
	return fmt.Sprintf("%d records, inflow %s, outflow %s", s.Records, s.Inflow, s.Outflow)
}

// sortedKeys are the keys of both maps, sorted by token, then type.
func sortedKeys(a, b map[HistoryKey]HistorySums) []HistoryKey {
	keys := slices.Collect(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(x, y HistoryKey) int {
		return cmp.Or(cmp.Compare(x.Token, y.Token), cmp.Compare(x.Type, y.Type))
	})
	return keys
}
