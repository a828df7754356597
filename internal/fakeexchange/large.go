package fakeexchange

import (
	"fmt"
	"slices"
	"time"
)

// Keys of LargeScenario's account "main": the first key, unrestricted and
// READ-only, is the one an exporter under test uses.
const (
	LargeMainKey    = "perf-key-0000-read-only=="
	LargeMainSecret = "PERFMAINREADSECRET0000000001"
)

// HistoryTypes returns every transaction type of the token history endpoint,
// sorted.
func HistoryTypes() []string {
	types := make([]string, 0, len(historyTypes))
	for t := range historyTypes {
		types = append(types, t)
	}
	slices.Sort(types)
	return types
}

// LargeScenario is a large account for benchmarks and load tests: networks
// token network rows, and account "main" with keys API keys (LargeMainKey
// first), mixed permissions and IP allow-lists. Its history is empty: add it
// with LargeHistory and AppendHistory. No rate limit is set.
func LargeScenario(networks, keys int) *Scenario {
	s := &Scenario{RateLimit: "0/0s", PublicRateLimit: "0/0s"}
	for i := range networks {
		s.TokenNetworks = append(s.TokenNetworks, TokenNetworkRow{
			Token: fmt.Sprintf("TOK%04d", i/5), Network: fmt.Sprintf("NET%d", i%5), Protocol: fmt.Sprintf("P%d", i%5),
			Name:              fmt.Sprintf("Network %d of token %d", i%5, i/5),
			MinimumWithdrawal: fmt.Sprintf("%d.%02d", i%100, i%7), WithdrawalFee: fmt.Sprintf("0.%04d", i%10000),
			AllowDeposit: (i / 3) % 2, AllowWithdraw: (i / 7) % 2,
		})
	}
	a := Account{Name: "main", AccountName: "Main", UserID: 12523}
	permissions := [][]string{{"READ"}, {"READ", "TRADE"}, {"READ", "TRADE", "WITHDRAWAL"}, {"TRADE", "TRANSFER"}}
	for i := range keys {
		k := Key{APIKey: fmt.Sprintf("perf-key-%04d-%s==", i, "abcdefgh"), APISecret: fmt.Sprintf("PERFSECRET%018d", i),
			Permissions: permissions[i%len(permissions)]}
		if i%3 == 1 {
			k.AllowedIPs = []string{fmt.Sprintf("10.0.%d.1", i%250), fmt.Sprintf("10.0.%d.2", i%250)}
		}
		if i == 0 {
			k = Key{APIKey: LargeMainKey, APISecret: LargeMainSecret, Permissions: []string{"READ"}}
		}
		a.Keys = append(a.Keys, k)
	}
	s.Accounts = []Account{a}
	return s
}

// LargeHistory returns n records cycling through tokens tokens ("TOK0000",
// ...) and every transaction type, ids firstID, firstID+1, ..., timestamps
// spread evenly over [from, to], amounts exact with 8 decimals and of both
// signs. n ≥ tokens × 27 covers every (token, type) pair.
func LargeHistory(tokens, n int, firstID int64, from, to time.Time) []HistoryRecord {
	types := HistoryTypes()
	span := to.UnixMilli() - from.UnixMilli()
	recs := make([]HistoryRecord, n)
	for i := range recs {
		ts := from.UnixMilli()
		if n > 1 {
			ts += span * int64(i) / int64(n-1)
		}
		amount := fmt.Sprintf("%d.%08d", i%1000, (i*7919)%100000000)
		if i%3 == 2 {
			amount = "-" + amount
		}
		recs[i] = HistoryRecord{
			ID:        firstID + int64(i),
			Type:      types[i%len(types)],
			Token:     fmt.Sprintf("TOK%04d", (i/len(types))%tokens),
			Amount:    amount,
			Timestamp: ts,
		}
	}
	return recs
}
