package ledger

import (
	"fmt"
	"math"

	"github.com/shopspring/decimal"
)

// maxTotalText is the longest saved total read: far beyond any total of
// amounts a counter can carry, and cheap to parse.
const maxTotalText = 400

// restoreTotal reads a saved total. It does not fit, and is left out
// rather than failing the whole state, when its text is longer than
// maxTotalText, it is beyond float64, or (with maxAmount set) beyond its
// records times maxAmount: then it holds an amount no record may carry, and
// would keep its counter at +Inf or deaf to ordinary records for good.
func restoreTotal(t StateTotal, maxAmount decimal.Decimal) (s sums, fits bool, err error) {
	if len(t.Inflow) > maxTotalText || len(t.Outflow) > maxTotalText {
		return sums{}, false, nil
	}
	in, err := parseAmount(t.Inflow)
	if err != nil {
		return sums{}, false, stateErr("inflow", t, err)
	}
	out, err := parseAmount(t.Outflow)
	if err != nil {
		return sums{}, false, stateErr("outflow", t, err)
	}
	limit := maxAmount.Abs().Mul(decimal.NewFromUint64(t.Records))
	for _, d := range []decimal.Decimal{in, out} {
		if math.IsInf(d.InexactFloat64(), 0) || (maxAmount.Sign() != 0 && d.GreaterThan(limit)) {
			return sums{}, false, nil
		}
	}
	return sums{records: t.Records, inflow: in, outflow: out}, true, nil
}

// LeftOut returns the saved totals FromState left out because they did not
// fit (see Config.MaxAmount): their token and type start again from zero,
// and the caller should say so.
func (l *Ledger) LeftOut() []StateTotal {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return append([]StateTotal(nil), l.leftOut...)
}

// isLeftOut reports whether FromState left out the total of k.
func (l *Ledger) isLeftOut(k key) bool {
	for _, t := range l.leftOut {
		if t.Token == k.token && t.Type == k.typ {
			return true
		}
	}
	return false
}

func stateErr(which string, t StateTotal, err error) error {
	return fmt.Errorf("ledger state: %s of %s %s: %w", which, t.Token, t.Type, err)
}
