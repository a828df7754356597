package ledger

// Other is the token under which the records of a new (token, type) pair
// are counted once MaxPairs pairs are counted by name: the sums stay exact
// while the series an exchange can make the exporter keep stay bounded.
// Type OtherType catches the types first seen after MaxPairs types already
// have an Other total.
const (
	Other     = "__other__"
	OtherType = "__other__"
)

// total is the sums a record of pair k is counted in: its own while the
// pair is counted already or fewer than MaxPairs pairs are counted by
// name, else Other's of the same type (of OtherType once MaxPairs types
// have one). A pair counted by name stays so, across restarts too.
func (l *Ledger) total(k key) (t *sums, folded bool) {
	if t := l.totals[k]; t != nil {
		return t, k.token == Other
	}
	if k.token != Other && (l.cfg.MaxPairs <= 0 || l.named < l.cfg.MaxPairs) {
		return l.newTotal(k), false
	}
	k.token = Other
	if t := l.totals[k]; t != nil {
		return t, true
	}
	if l.cfg.MaxPairs > 0 && l.others >= l.cfg.MaxPairs {
		k.typ = OtherType
		if t := l.totals[k]; t != nil {
			return t, true
		}
	}
	return l.newTotal(k), true
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (l *Ledger) newTotal(k key) *sums {
	t := &sums{}
	l.totals[k] = t
	if k.token == Other {
		l.others++
	} else {
		l.named++
	}
	return t
}
