package ledger

import (
	"cmp"
	"slices"
)

// Withdrawal destinations: what woox_wallet_withdrawals_total counts each
// withdrawal as. With an allow-list a withdrawal is allowlisted or
// unlisted; without one it is known (an earlier withdrawal of the account
// went to the same target) or new.
const (
	DestinationAllowlisted = "allowlisted"
	DestinationUnlisted    = "unlisted"
	DestinationKnown       = "known"
	DestinationNew         = "new"
)

// MaxKnownTargets bounds the targets a Withdrawals remembers; beyond it the
// one used least recently is forgotten, and a withdrawal to it is new again.
const MaxKnownTargets = 10000

// Target is where a withdrawal goes, in a form in which two withdrawals to
// one recipient are equal (the collector fills it by package allowlist's
// rules: an EVM address in lower case, a tag kept).
type Target struct {
	Network string `json:"network"`
	Address string `json:"address"`
	Tag     string `json:"tag,omitempty"`
}

// Withdrawal is one withdrawal as the withdrawal ledger counts it. One
// without an address is never known, and new after the seed.
type Withdrawal struct {
	ID             string
	Token, Network string
	// Address and Tag are as the exchange sent them; Target is their
	// comparable form.
	Address, Tag string
	Target       Target
	// Amount is the amount as sent, "" when absent.
	Amount    string
	CreatedMs int64
}

// WithdrawalTotal is how many withdrawals were counted with one token,
// network and destination.
type WithdrawalTotal struct {
	Token       string `json:"token"`
	Network     string `json:"network"`
	Destination string `json:"destination"`
	Count       uint64 `json:"count"`
}

// FlaggedWithdrawal is a withdrawal counted as unlisted or new, kept for
// flagForMs after it was first seen so that a page can name it.
type FlaggedWithdrawal struct {
	ID          string `json:"id"`
	Token       string `json:"token"`
	Network     string `json:"network"`
	Address     string `json:"address"`
	Tag         string `json:"tag,omitempty"`
	Amount      string `json:"amount,omitempty"`
	Destination string `json:"destination"`
	// SeenMs is when it was first seen: the time of the read that found
	// it, or its creation time for one the seed found.
	SeenMs int64 `json:"seen_ms"`
}

type withdrawalKey struct{ token, network, destination string }

// Withdrawals counts every withdrawal of one account once by its id, at its
// first sight whatever its status: across reads that overlap, across
// restarts (Export and WithdrawalsFromState), and whichever read lists it.
// Ids are remembered until Forget moves the horizon past their creation
// time, which the collector does at the start of each read of its whole
// lookback: no later read lists them again. A withdrawal created before the
// horizon is never counted, as it cannot be told apart from one whose id
// was forgotten. The first Count of a fresh ledger is the seed: it learns
// the targets of what it finds and counts none of it as new. Not safe for
// concurrent use: the wallet poller of the account owns it.
type Withdrawals struct {
	horizon   int64
	seeded    bool
	flagForMs int64
	// maxTotals bounds the distinct totals; beyond it a withdrawal is
	// counted under token and network Other.
	maxTotals int
	seen      map[string]int64
	known     map[Target]int64
	totals    map[withdrawalKey]uint64
	flagged   []FlaggedWithdrawal
	folded    uint64
}

// NewWithdrawals starts a ledger whose horizon is startMs; a withdrawal is
// flagged for flagForMs after it was first seen.
func NewWithdrawals(startMs, flagForMs int64, maxTotals int) *Withdrawals {
	return &Withdrawals{horizon: startMs, flagForMs: flagForMs, maxTotals: maxTotals,
		seen: map[string]int64{}, known: map[Target]int64{}, totals: map[withdrawalKey]uint64{}}
}

// Count counts the withdrawals not counted before, oldest first, at the
// exchange's time nowMs, and returns how many it counted. allowed is the
// allow-list, nil for none: a withdrawal it allows is allowlisted, the
// others unlisted.
func (w *Withdrawals) Count(rows []Withdrawal, nowMs int64, allowed func(Withdrawal) bool) (counted int) {
	seed := !w.seeded
	w.seeded = true
	rows = slices.Clone(rows)
	slices.SortStableFunc(rows, func(a, b Withdrawal) int {
		return cmp.Or(cmp.Compare(a.CreatedMs, b.CreatedMs), cmp.Compare(a.ID, b.ID))
	})
	for _, r := range rows {
		if _, ok := w.seen[r.ID]; ok || r.CreatedMs < w.horizon {
			continue
		}
		w.seen[r.ID] = r.CreatedMs
		_, known := w.known[r.Target]
		dest := DestinationNew
		switch {
		case allowed != nil && allowed(r):
			dest = DestinationAllowlisted
		case allowed != nil:
			dest = DestinationUnlisted
		case known || seed:
			dest = DestinationKnown
		}
		w.learn(r.Target, r.CreatedMs)
		w.add(withdrawalKey{r.Token, r.Network, dest})
		if dest == DestinationUnlisted || dest == DestinationNew {
			seen := nowMs
			if seed {
				seen = min(nowMs, r.CreatedMs)
			}
			w.flagged = append(w.flagged, FlaggedWithdrawal{ID: r.ID, Token: r.Token, Network: r.Network, Address: r.Address, Tag: r.Tag,
				Amount: r.Amount, Destination: dest, SeenMs: seen})
		}
		counted++
	}
	w.flagged = slices.DeleteFunc(w.flagged, func(f FlaggedWithdrawal) bool { return f.SeenMs < nowMs-w.flagForMs })
	return counted
}

// learn remembers target as used at ms, forgetting the target used least
// recently when there are too many. A withdrawal without an address says
// nothing of where it went: none is ever known.
func (w *Withdrawals) learn(t Target, ms int64) {
	if t.Address == "" {
		return
	}
	if _, ok := w.known[t]; !ok && len(w.known) >= MaxKnownTargets {
		var oldest Target
		first := true
		for k, last := range w.known {
			if first || last < w.known[oldest] || (last == w.known[oldest] && lessTarget(k, oldest)) {
				oldest, first = k, false
			}
		}
		delete(w.known, oldest)
	}
	w.known[t] = max(w.known[t], ms)
}

func (w *Withdrawals) add(k withdrawalKey) {
	if _, ok := w.totals[k]; !ok && w.maxTotals > 0 && len(w.totals) >= w.maxTotals {
		k.token, k.network = Other, Other
		w.folded++
	}
	w.totals[k]++
}

// Forget moves the horizon to startMs (never back) and forgets the ids of
// withdrawals created before it.
func (w *Withdrawals) Forget(startMs int64) {
	w.horizon = max(w.horizon, startMs)
	for id, created := range w.seen {
		if created < w.horizon {
			delete(w.seen, id)
		}
	}
}

// Totals returns every total, sorted by token, network and destination.
func (w *Withdrawals) Totals() []WithdrawalTotal {
	out := make([]WithdrawalTotal, 0, len(w.totals))
	for k, n := range w.totals {
		out = append(out, WithdrawalTotal{Token: k.token, Network: k.network, Destination: k.destination, Count: n})
	}
	slices.SortFunc(out, func(a, b WithdrawalTotal) int {
		return cmp.Or(cmp.Compare(a.Token, b.Token), cmp.Compare(a.Network, b.Network), cmp.Compare(a.Destination, b.Destination))
	})
	return out
}

// Flagged returns the withdrawals counted as unlisted or new that were
// first seen within flagForMs before nowMs, oldest first.
func (w *Withdrawals) Flagged(nowMs int64) []FlaggedWithdrawal {
	out := slices.DeleteFunc(slices.Clone(w.flagged), func(f FlaggedWithdrawal) bool { return f.SeenMs < nowMs-w.flagForMs })
	slices.SortStableFunc(out, func(a, b FlaggedWithdrawal) int {
		return cmp.Or(cmp.Compare(a.SeenMs, b.SeenMs), cmp.Compare(a.ID, b.ID))
	})
	return out
}

// Folded is how many withdrawals were counted under Other since this
// process started.
func (w *Withdrawals) Folded() uint64 { return w.folded }

func lessTarget(a, b Target) bool {
	return cmp.Or(cmp.Compare(a.Network, b.Network), cmp.Compare(a.Address, b.Address), cmp.Compare(a.Tag, b.Tag)) < 0
}
