package collector

import (
	"context"
	"time"

	"github.com/woox-exporter/woox_exporter/client"
)

// walletOverlap is how far before the newest row seen a read of new rows
// starts, so that a row the exchange lists a little after its creation
// time is still found; one listed later than that is found by the next
// read of the whole lookback, at most --wallet.lookback-interval later.
const walletOverlap = 2 * time.Minute

// walletNetworksWait is how long a wallet poll waits for the first poll of
// the token network list to end, which starts at the same moment: long
// enough for its answer, short enough that an exchange that does not
// answer holds the transfers in flight back only a little (no withdrawal
// is counted without the list).
const walletNetworksWait = 10 * time.Second

// WalletAPI reads one account's wallet history.
type WalletAPI interface {
	WalletHistory(ctx context.Context, startMs, endMs int64) ([]client.Transfer, []client.RejectedRow, error)
	ServerNow() time.Time
}

// walletAccount decides what each wallet poll of one account reads. Most
// polls read the rows created since the newest row seen, less walletOverlap:
// one request, for the withdrawals to be counted within a poll interval of
// their creation. Every lookbackEvery a poll reads the whole lookback
// instead, which refreshes the transfers in flight (one in flight for
// days is in no read of new rows) and finds the rows listed too late for
// the overlap. Either way a poll sends one request while the rows fit a
// page, so the endpoint's budget sees one request an interval.
type walletAccount struct {
	api                     WalletAPI
	lookback, lookbackEvery time.Duration
	// interval is the poll interval: a read of the whole lookback is due
	// half an interval early rather than a whole one late.
	interval    time.Duration
	cap         *seriesCap
	withdrawals *withdrawalCounter
	// networksWait is walletNetworksWait.
	networksWait time.Duration

	// lastFull is the exchange's time of the last read of the whole
	// lookback.
	lastFull time.Time
	// newestMs is the creation time of the newest row read; nextMs where
	// the next read of new rows starts, 0 until a read counted the
	// withdrawals (every read is of the whole lookback until then).
	newestMs, nextMs int64
	// inFlight is the in-flight part of the last read of the whole
	// lookback.
	inFlight walletSnapshot
}

// read reads the new rows or the whole lookback, counts the withdrawals
// and returns what scrapes show.
func (a *walletAccount) read(ctx context.Context) (walletSnapshot, []client.RejectedRow, error) {
	if a.withdrawals.waitForNetworks {
		a.withdrawals.networks.waitFirstPoll(ctx, a.networksWait)
	}
	now := a.api.ServerNow()
	full := a.nextMs == 0 || now.Sub(a.lastFull) >= a.lookbackEvery-a.interval/2
	start, end := now.Add(-a.lookback).UnixMilli(), now.UnixMilli()
	if !full {
		start = max(start, a.nextMs)
	}
	transfers, rejected, err := a.api.WalletHistory(ctx, start, end)
	if err != nil {
		return walletSnapshot{}, nil, err
	}
	if full {
		a.lastFull = now
		a.inFlight = walletInFlight(transfers)
		a.inFlight.counts = capRows(a.cap, a.inFlight.counts)
	}
	for _, t := range transfers {
		a.newestMs = max(a.newestMs, t.CreatedMs)
	}
	if a.withdrawals.count(transfers, start, end, full) {
		from := end
		if a.newestMs > 0 {
			from = min(from, a.newestMs)
		}
		a.nextMs = from - walletOverlap.Milliseconds()
	}
	return a.snapshot(end), rejected, nil
}

// snapshot is the last in-flight part with the withdrawals as of nowMs.
func (a *walletAccount) snapshot(nowMs int64) walletSnapshot {
	s := a.inFlight
	s.withdrawals = a.withdrawals.snapshot(nowMs)
	return s
}
