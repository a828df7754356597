package collector

import (
	"context"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/client"
)

func transfer(id, token, side, status string, age time.Duration) client.Transfer {
	return client.Transfer{ID: id, Token: token, Side: side, Status: status, Amount: decp("1"), CreatedMs: historyNow.Add(-age).UnixMilli()}
}

// In flight is every status but the final ones, known or not, counted by
// token, side and status; the oldest creation time by side; transfers
// older than the lookback are not read.
func TestWalletMetrics(t *testing.T) {
	account := &fakeAccount{now: historyNow, transfers: []client.Transfer{
		transfer("w1", "USDT", "WITHDRAW", "PROCESSING", 3*time.Hour),
		transfer("w2", "USDT", "WITHDRAW", "PROCESSING", time.Hour),
		transfer("w3", "BTC", "WITHDRAW", "NEW", 10*time.Minute),
		transfer("w4", "USDT", "WITHDRAW", "COMPLETED", 5*time.Hour),
		transfer("w5", "USDT", "WITHDRAW", "CANCELED", 5*time.Hour),
		transfer("d1", "ETH", "DEPOSIT", "CONFIRMING", 20*time.Minute),
		transfer("d2", "ETH", "DEPOSIT", "FAILED", 2*time.Hour),
		transfer("d3", "ETH", "DEPOSIT", "AWAITING_TRAVEL_RULE", 30*time.Minute),
		transfer("old", "USDT", "WITHDRAW", "PROCESSING", 8*24*time.Hour),
	}}
	e := onlyEndpoint(t, client.EndpointWallet, account)
	expectMetrics(t, e.byName[client.EndpointWallet], "wallet.metrics")
	account.mu.Lock()
	calls := account.walletCalls
	account.mu.Unlock()
	if want := [2]int64{historyNow.Add(-DefaultWalletLookback).UnixMilli(), historyNow.UnixMilli()}; len(calls) != 1 || calls[0] != want {
		t.Errorf("wallet windows %v, want one %v: the lookback ending at the exchange's time", calls, want)
	}

	// Everything settles: no series is left.
	account.mu.Lock()
	for i := range account.transfers {
		account.transfers[i].Status = "COMPLETED"
	}
	account.mu.Unlock()
	e.pollers[0].pollOnce(context.Background())
	expectMetrics(t, e.byName[client.EndpointWallet], "empty.metrics")
}
