package fakeexchange

import (
	"cmp"
	"time"

	"github.com/shopspring/decimal"
)

// Walk moves a served value by Step every Every of server time since Start (or
// the event that set it), towards a bound it never passes.
type Walk struct {
	Every time.Duration `yaml:"every"`
	Step  string        `yaml:"step"`
}

// validate checks a walk (nil: none) of field, whose ends are set when ends.
func (w *Walk) validate(field string, ends bool, needs string) error {
	if w == nil {
		return nil
	}
	return cmp.Or(fieldErrIf(w.Every <= 0, field+".every", "must be positive"),
		fieldErrIf(!decimalText.MatchString(w.Step), field+".step", "must be a decimal"),
		fieldErrIf(!ends, field, "needs %s", needs))
}

// at is start walked towards bound from from to now; start if nil or not begun.
func (w *Walk) at(start, bound string, from, now time.Time) string {
	if w == nil || from.IsZero() || now.Before(from) {
		return start
	}
	s, b := decimal.RequireFromString(start), decimal.RequireFromString(bound)
	moved := decimal.RequireFromString(w.Step).Abs().Mul(decimal.NewFromInt(int64(now.Sub(from) / w.Every)))
	gap := b.Sub(s)
	switch {
	case moved.GreaterThanOrEqual(gap.Abs()):
		return b.String()
	case gap.IsNegative():
		return s.Sub(moved).String()
	}
	return s.Add(moved).String()
}
