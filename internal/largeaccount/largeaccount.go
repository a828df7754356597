// Package largeaccount builds the large account of benchmarks and load
// tests: a fakeexchange scenario and a history to append to it.
package largeaccount

import (
	"fmt"
	"time"

	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// Keys of Scenario's account "main": the first key, unrestricted and
// READ-only, is the one an exporter under test uses.
const (
	MainKey    = "perf-key-0000-read-only=="
	MainSecret = "PERFMAINREADSECRET0000000001"
)

// Scenario is a large account for benchmarks and load tests: networks
// token network rows, and account "main" with keys API keys (MainKey
// first), mixed permissions and IP allow-lists, margin and fees, a balance
// of each of its tokens, 500 transfers over 3.5 days (one in five in
// flight) and 50 sub-accounts. Its history is empty: add it with
// History and a history event. No rate limit is set.
func Scenario(networks, keys int) *fakeexchange.Scenario {
	s := &fakeexchange.Scenario{RateLimit: "0/0s", PublicRateLimit: "0/0s"}
	for i := range networks {
		s.TokenNetworks = append(s.TokenNetworks, fakeexchange.TokenNetworkRow{
			Token: fmt.Sprintf("TOK%04d", i/5), Network: fmt.Sprintf("NET%d", i%5), Protocol: fmt.Sprintf("P%d", i%5),
			Name:              fmt.Sprintf("Network %d of token %d", i%5, i/5),
			MinimumWithdrawal: fmt.Sprintf("%d.%02d", i%100, i%7), WithdrawalFee: fmt.Sprintf("0.%04d", i%10000),
			AllowDeposit: (i / 3) % 2, AllowWithdraw: (i / 7) % 2,
		})
	}
	a := fakeexchange.Account{Name: "main", AccountName: "Main", UserID: 12523}
	permissions := [][]string{{"READ"}, {"READ", "TRADE"}, {"READ", "TRADE", "WITHDRAWAL"}, {"TRADE", "TRANSFER"}}
	for i := range keys {
		k := fakeexchange.Key{APIKey: fmt.Sprintf("perf-key-%04d-%s==", i, "abcdefgh"), APISecret: fmt.Sprintf("PERFSECRET%018d", i),
			Permissions: permissions[i%len(permissions)]}
		if i%3 == 1 {
			k.AllowedIPs = []string{fmt.Sprintf("10.0.%d.1", i%250), fmt.Sprintf("10.0.%d.2", i%250)}
		}
		if i == 0 {
			k = fakeexchange.Key{APIKey: MainKey, APISecret: MainSecret, Permissions: []string{"READ"}}
		}
		a.Keys = append(a.Keys, k)
	}
	a.AccountInfo = &fakeexchange.AccountInfo{
		AccountMode: "FUTURES", Leverage: "10", MarginRatio: "2.5", OpenMarginRatio: "2.4", InitialMarginRatio: "0.1",
		MaintenanceMarginRatio: "0.03", TotalCollateral: "1250000.5", FreeCollateral: "900000", TotalAccountValue: "1260000.25",
		TakerFeeRate: "5", MakerFeeRate: "2", FuturesTakerFeeRate: "6", FuturesMakerFeeRate: "1",
	}
	// A balance of every token that has networks; 500 transfers, one in
	// five in flight; 50 sub-accounts.
	for i := range (networks + 4) / 5 {
		a.Balances = append(a.Balances, fakeexchange.Balance{Token: fmt.Sprintf("TOK%04d", i), Holding: fmt.Sprintf("%d.%08d", i, i*7919%100000000),
			Frozen: fmt.Sprintf("0.%04d", i%10000), Staked: "0", AvailableBalance: fmt.Sprintf("%d", i), MarkPrice: fmt.Sprintf("%d.25", 1+i%5000)})
	}
	statuses := []string{"COMPLETED", "NEW", "COMPLETED", "PROCESSING", "COMPLETED", "CANCELED", "COMPLETED", "CONFIRMING", "FAILED", "COMPLETED"}
	for i := range 500 {
		side := "DEPOSIT"
		if i%2 == 1 {
			side = "WITHDRAW"
		}
		a.Transfers = append(a.Transfers, fakeexchange.Transfer{ID: fmt.Sprintf("tr-%05d", i), Token: fmt.Sprintf("TOK%04d", i%20), Side: side,
			Amount: fmt.Sprintf("%d.5", i), Status: statuses[i%len(statuses)], CreatedAgo: time.Duration(i) * 10 * time.Minute})
	}
	for i := range 50 {
		a.SubAccounts = append(a.SubAccounts, fakeexchange.SubAccount{ApplicationID: fmt.Sprintf("app-%04d", i), Name: fmt.Sprintf("desk-%02d", i), CreatedTime: 1700000000000 + int64(i)})
	}
	s.Accounts = []fakeexchange.Account{a}
	return s
}

// History returns n records cycling through tokens tokens ("TOK0000",
// ...) and every transaction type, ids firstID, firstID+1, ..., timestamps
// spread evenly over [from, to], amounts exact with 8 decimals and of both
// signs. n ≥ tokens × 27 covers every (token, type) pair.
func History(tokens, n int, firstID int64, from, to time.Time) []fakeexchange.HistoryRecord {
	types := fakeexchange.HistoryTypes()
	span := to.UnixMilli() - from.UnixMilli()
	recs := make([]fakeexchange.HistoryRecord, n)
	for i := range recs {
		ts := from.UnixMilli()
		if n > 1 {
			ts += span * int64(i) / int64(n-1)
		}
		amount := fmt.Sprintf("%d.%08d", i%1000, (i*7919)%100000000)
		if i%3 == 2 {
			amount = "-" + amount
		}
		recs[i] = fakeexchange.HistoryRecord{
			ID:        firstID + int64(i),
			Type:      types[i%len(types)],
			Token:     fmt.Sprintf("TOK%04d", (i/len(types))%tokens),
			Amount:    amount,
			Timestamp: ts,
		}
	}
	return recs
}
