package collector

import (
	"errors"
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/allowlist"
	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/ledger"
)

// withdrawalFlagFor is how long a withdrawal counted as unlisted or new
// keeps its woox_wallet_withdrawal_destination_info series after it was
// first seen: a day to read the page that names it, and no longer, so that
// the series do not pile up.
const withdrawalFlagFor = 24 * time.Hour

var (
	withdrawalsDesc = prometheus.NewDesc(prometheus.BuildFQName(namespace, "wallet", "withdrawals_total"),
		"Withdrawals of the account (wallet history rows with tokenSide WITHDRAW), each counted once by id at its first sight "+
			"whatever its status. destination is allowlisted or unlisted with --wallet.withdrawal-allowlist; without it known (an "+
			"earlier withdrawal of the account went to the same address and tag on the network) or new. token and network are split "+
			"from the exchange's network-token id as in woox_wallet_transfers_in_flight; a plain id that names a listed network is "+
			"that network's own token."+refreshed,
		[]string{"account", "token", "network", "destination"}, nil)
	withdrawalDestinationDesc = prometheus.NewDesc(prometheus.BuildFQName(namespace, "wallet", "withdrawal_destination_info"),
		"1 for each withdrawal counted as unlisted or new in woox_wallet_withdrawals_total that was first seen within the last "+
			"24 hours: address and tag as the exchange sent them (targetAddress, extra), amount in token units as first seen."+refreshed,
		[]string{"account", "token", "network", "address", "tag", "id", "destination", "amount"}, nil)
)

// withdrawals are each account's withdrawals, counted once by id by
// destination.
var withdrawals = newCountedHistory[ledger.WithdrawalsState](StateSection{Name: "withdrawals", Zero: ledger.WithdrawalsState{},
	Check: checkOf(func(st ledger.WithdrawalsState) error {
		_, err := ledger.WithdrawalsFromState(st, 0, 0)
		return err
	})}, "withdrawals")

// withdrawalSnapshot is what scrapes read of one account's withdrawals.
type withdrawalSnapshot struct {
	totals  []ledger.WithdrawalTotal
	flagged []ledger.FlaggedWithdrawal
}

// withdrawalCounter counts one account's withdrawals once each
// (ledger.Withdrawals), saves the ledger, and only then publishes the
// totals it saved: a counter never shows what a crash could take back.
type withdrawalCounter struct {
	*countedState[ledger.WithdrawalsState]
	ledger   *ledger.Withdrawals
	allow    *allowlist.List
	networks *tokenNetworkIndex
	// waitForNetworks is set while a token network list is on its way:
	// nothing is counted before it arrives, as a withdrawal counted on no
	// network would match no entry of the allow-list.
	waitForNetworks bool
	totals          []ledger.WithdrawalTotal
}

// count counts the withdrawals among transfers, read from startMs to
// endMs; a read of the whole lookback (full) also forgets the ids created
// before its start, which no later read lists. It reports false when it
// waits for the token networks and counted nothing.
func (w *withdrawalCounter) count(transfers []client.Transfer, startMs, endMs int64, full bool) bool {
	if w.waitForNetworks && !w.networks.loaded() {
		return false
	}
	var rows []ledger.Withdrawal
	for _, t := range transfers {
		if t.Side == "WITHDRAW" {
			rows = append(rows, w.toLedger(t))
		}
	}
	var allowed func(ledger.Withdrawal) bool
	if w.allow != nil {
		allowed = func(r ledger.Withdrawal) bool {
			_, ok := w.allow.Match(r.Network, r.Address, r.Tag)
			return ok
		}
	}
	w.ledger.Count(rows, endMs, allowed)
	if full {
		w.ledger.Forget(startMs)
	}
	w.noteFolded(w.ledger.Folded())
	w.persist()
	return true
}

func (w *withdrawalCounter) toLedger(t client.Transfer) ledger.Withdrawal {
	token, network := w.networks.splitWithdrawal(t.Token)
	r := ledger.Withdrawal{ID: t.ID, Token: token, Network: network, Address: t.TargetAddress, Tag: t.Tag,
		Target: ledger.Target(allowlist.DestinationOf(network, t.TargetAddress, t.Tag)), CreatedMs: t.CreatedMs}
	if t.Amount != nil {
		r.Amount = t.Amount.String()
	}
	return r
}

// persist saves the ledger when it changed and then publishes its totals.
// A failed save leaves the published totals where the file has them (the
// next poll saves again); the flagged withdrawals, gauges that page
// someone, are published whatever the file.
func (w *withdrawalCounter) persist() {
	if w.keep(w.ledger.Export()) {
		w.totals = w.saved.Totals
	}
}

// snapshot is what scrapes read at the exchange's time nowMs.
func (w *withdrawalCounter) snapshot(nowMs int64) withdrawalSnapshot {
	return withdrawalSnapshot{totals: w.totals, flagged: capRows(w.cap, w.ledger.Flagged(nowMs))}
}

// emitWithdrawals exports one account's withdrawal counts and flagged
// withdrawals.
func emitWithdrawals(ch chan<- prometheus.Metric, account string, s *withdrawalSnapshot) {
	for _, t := range s.totals {
		ch <- prometheus.MustNewConstMetric(withdrawalsDesc, prometheus.CounterValue, float64(t.Count), account, t.Token, t.Network, t.Destination)
	}
	for _, f := range s.flagged {
		ch <- prometheus.MustNewConstMetric(withdrawalDestinationDesc, prometheus.GaugeValue, 1,
			account, f.Token, f.Network, f.Address, f.Tag, f.ID, f.Destination, f.Amount)
	}
}

// newWithdrawalCounters prepares the withdrawal counters of b's accounts
// (the saved states, the allow-list, the state file they save to) and
// returns what builds one. networksComing says whether a token network
// list will name the withdrawals' networks.
func newWithdrawalCounters(b *builder, networksComing bool) (func(account string) (*withdrawalCounter, error), error) {
	cfg := b.cfg
	if cfg.WithdrawalAllowList != nil && !networksComing {
		return nil, errors.New("the withdrawal allow-list needs the token network list, which names each withdrawal's network: turn the token network collector on")
	}
	flagFor := withdrawalFlagFor.Milliseconds()
	return func(account string) (*withdrawalCounter, error) {
		w := &withdrawalCounter{allow: cfg.WithdrawalAllowList, networks: &b.e.networks, waitForNetworks: networksComing,
			ledger: ledger.NewWithdrawals(0, flagFor, cfg.SeriesPerEndpoint)}
		var found bool
		if w.countedState, found = withdrawals.restore(b, account); found {
			l, err := ledger.WithdrawalsFromState(w.saved, flagFor, cfg.SeriesPerEndpoint)
			if err != nil {
				return nil, fmt.Errorf("account %q: saved withdrawals: %w", account, err)
			}
			w.ledger, w.totals = l, w.saved.Totals
		}
		return w, nil
	}, nil
}
