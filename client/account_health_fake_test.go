package client_test

import (
	"context"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// The account health endpoints through the fake, in every reading of the
// API: exact values, fields left out stay nil, transfers outside the window
// are never returned, a sub-account's key is refused with NotPermitted.
func TestAccountHealthEndpointsAgainstTheFake(t *testing.T) {
	eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
		a := &s.Accounts[0]
		a.AccountInfo = &fakeexchange.AccountInfo{AccountMode: "FUTURES", MarginRatio: "0.123456789012345678", MaintenanceMarginRatio: "0.03",
			TotalCollateral: "5000.5", TakerFeeRate: "0.0005", FuturesMakerFeeRate: "-0.0001"}
		a.Balances = []fakeexchange.Balance{{Token: "BTC", Holding: "1.000000000000000001", Frozen: "0.1", AvailableBalance: "0.9", MarkPrice: "65000.25"}}
		a.Transfers = []fakeexchange.Transfer{
			{ID: "w1", Token: "USDT", Side: "WITHDRAW", Amount: "500", Status: "PROCESSING", CreatedAgo: 2 * time.Hour},
			{ID: "old", Token: "USDT", Side: "WITHDRAW", Amount: "1", Status: "PROCESSING", CreatedAgo: 9 * 24 * time.Hour},
		}
		a.SubAccounts = []fakeexchange.SubAccount{{ApplicationID: "app-1", Name: "desk-a", CreatedTime: 1700000000123}}
		s.Accounts = append(s.Accounts, fakeexchange.Account{Name: "sub", IsSubAccount: true,
			Keys: []fakeexchange.Key{{APIKey: "sub-key-0123==", APISecret: "SUB-SECRET", Permissions: []string{"READ"}}}})
		h := newHarness(t, s, fakeexchange.WithRateLimit(0, 0))
		c := h.client(t, nil)
		ctx := context.Background()

		info, err := c.AccountInfo(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if info.AccountMode != "FUTURES" || info.MarginRatio.String() != "0.123456789012345678" || info.TotalCollateral.String() != "5000.5" ||
			info.FuturesMakerFeeRate.String() != "-0.0001" || info.Leverage != nil || info.MakerFeeRate != nil {
			t.Errorf("account info %+v", info)
		}

		balances, err := c.Balances(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(balances) != 1 || balances[0].Holding.String() != "1.000000000000000001" || balances[0].MarkPrice.String() != "65000.25" ||
			balances[0].Available.String() != "0.9" || balances[0].Staked != nil {
			t.Errorf("balances %+v", balances)
		}

		now := time.Now()
		transfers, err := c.WalletHistory(ctx, now.Add(-7*24*time.Hour).UnixMilli(), now.UnixMilli())
		if err != nil {
			t.Fatal(err)
		}
		if len(transfers) != 1 || transfers[0].ID != "w1" || transfers[0].Side != "WITHDRAW" || transfers[0].Status != "PROCESSING" ||
			transfers[0].Amount.String() != "500" {
			t.Fatalf("transfers %+v", transfers)
		}
		if age := now.Sub(time.UnixMilli(transfers[0].CreatedMs)); age < 2*time.Hour-2*time.Second || age > 2*time.Hour+2*time.Second {
			t.Errorf("created %v ago, want 2h", age)
		}

		subs, err := c.SubAccounts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(subs) != 1 || subs[0] != (client.SubAccount{ApplicationID: "app-1", Name: "desk-a", CreatedMs: rowTime(s, 1700000000123)}) {
			t.Errorf("sub-accounts %+v", subs)
		}
		sub := h.client(t, func(cfg *client.Config) {
			cfg.Account, cfg.APIKey, cfg.APISecret = "sub", "sub-key-0123==", "SUB-SECRET"
		})
		if _, err := sub.SubAccounts(ctx); !client.NotPermitted(err) {
			t.Errorf("a sub-account's key: %v, want NotPermitted", err)
		}
	})
}
