package client_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// The account health endpoints through the fake, in every reading of the
// API: exact values, fee rates sent in basis points read as ratios, fields
// left out stay nil, transfers outside the query window or of another type than
// BALANCE are never returned, every sub-account is read with its name, a
// sub-account's key is refused with NotPermitted.
func TestAccountHealthEndpointsAgainstTheFake(t *testing.T) {
	eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
		a := &s.Accounts[0]
		a.AccountInfo = &fakeexchange.AccountInfo{AccountMode: "FUTURES", MarginRatio: "0.123456789012345678", MaintenanceMarginRatio: "0.03",
			TotalCollateral: "5000.5", TakerFeeRate: "5", FuturesMakerFeeRate: "-1"}
		a.Balances = []fakeexchange.Balance{{Token: "BTC", Holding: "1.000000000000000001", Frozen: "0.1", AvailableBalance: "0.9", MarkPrice: "65000.25"}}
		a.Transfers = []fakeexchange.Transfer{
			{ID: "w1", Token: "TRON_USDT", Side: "WITHDRAW", Amount: "500", Status: "PROCESSING", CreatedAgo: 2 * time.Hour,
				Address: "TTsY9uu2Y3aBH1vSir1md7oRqZe7DscA4v", Tag: "0104"},
			{ID: "c1", Token: "USDT", Type: "COLLATERAL", Side: "WITHDRAW", Amount: "9", Status: "PROCESSING", CreatedAgo: time.Hour},
			{ID: "old", Token: "USDT", Side: "WITHDRAW", Amount: "1", Status: "PROCESSING", CreatedAgo: 9 * 24 * time.Hour},
		}
		a.SubAccounts = []fakeexchange.SubAccount{{ApplicationID: "app-1", Name: "desk-a", CreatedTime: 1700000000123}, {ApplicationID: "app-2", Name: "desk-b"}}
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
			info.TakerFeeRate.String() != "0.0005" || info.FuturesMakerFeeRate.String() != "-0.0001" || info.Leverage != nil || info.MakerFeeRate != nil {
			t.Errorf("account info %+v", info)
		}

		balances, rejected, err := c.Balances(ctx)
		if err != nil || len(rejected) != 0 {
			t.Fatal(err, rejected)
		}
		if len(balances) != 1 || balances[0].Holding.String() != "1.000000000000000001" || balances[0].MarkPrice.String() != "65000.25" ||
			balances[0].Available.String() != "0.9" || balances[0].Staked != nil {
			t.Errorf("balances %+v", balances)
		}

		now := time.Now()
		transfers, rejected, err := c.WalletHistory(ctx, now.Add(-7*24*time.Hour).UnixMilli(), now.UnixMilli())
		if err != nil || len(rejected) != 0 {
			t.Fatal(err, rejected)
		}
		if len(transfers) != 1 || transfers[0].ID != "w1" || transfers[0].Token != "TRON_USDT" || transfers[0].Side != "WITHDRAW" ||
			transfers[0].Status != "PROCESSING" || transfers[0].Amount.String() != "500" ||
			transfers[0].TargetAddress != "TTsY9uu2Y3aBH1vSir1md7oRqZe7DscA4v" || transfers[0].Tag != "0104" {
			t.Fatalf("transfers %+v", transfers)
		}
		if age := now.Sub(time.UnixMilli(transfers[0].CreatedMs)); age < 2*time.Hour-2*time.Second || age > 2*time.Hour+2*time.Second {
			t.Errorf("created %v ago, want 2h", age)
		}

		subs, rejected, err := c.SubAccounts(ctx)
		if err != nil || len(rejected) != 0 {
			t.Fatal(err, rejected)
		}
		if len(subs) != 2 || subs[0] != (client.SubAccount{ApplicationID: "app-1", Name: "desk-a", CreatedMs: walletTime(s, 1700000000123)}) ||
			subs[1] != (client.SubAccount{ApplicationID: "app-2", Name: "desk-b"}) {
			t.Errorf("sub-accounts %+v", subs)
		}
		sub := h.client(t, func(cfg *client.Config) {
			cfg.Account, cfg.APIKey, cfg.APISecret = "sub", "sub-key-0123==", "SUB-SECRET"
		})
		if _, _, err := sub.SubAccounts(ctx); !client.NotPermitted(err) {
			t.Errorf("a sub-account's key: %v, want NotPermitted", err)
		}
	})
}

// The sub-accounts endpoint takes no query parameter: the first request
// sends none, and a fake that refuses unknown ones answers it. Only an
// answer whose meta counts more sub-accounts than it holds is followed,
// page by page, and every one is read once.
func TestSubAccountsSendNoParametersAndFollowMeta(t *testing.T) {
	subs := []fakeexchange.SubAccount{{ApplicationID: "app-1", Name: "desk-a"}, {ApplicationID: "app-2", Name: "desk-b"}, {ApplicationID: "app-3", Name: "desk-c"}}
	for _, c := range []struct {
		name    string
		apply   func(*fakeexchange.Scenario)
		queries []string
	}{
		{"documented: no parameters, no meta", func(*fakeexchange.Scenario) {}, []string{""}},
		{"paged with meta, one a page", func(s *fakeexchange.Scenario) { s.PagedSubAccounts, s.PageCap = true, 1 }, []string{"", "page=2", "page=3"}},
		{"paged with meta, all on the first page", func(s *fakeexchange.Scenario) { s.PagedSubAccounts = true }, []string{""}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := testScenario()
			s.Accounts[0].SubAccounts = subs
			c.apply(s)
			h := newHarness(t, s, fakeexchange.WithRateLimit(0, 0))
			got, rejected, err := h.client(t, nil).SubAccounts(context.Background())
			if err != nil || len(rejected) != 0 {
				t.Fatal(err, rejected)
			}
			if len(got) != 3 || got[0].Name != "desk-a" || got[1].Name != "desk-b" || got[2].Name != "desk-c" {
				t.Errorf("sub-accounts %+v", got)
			}
			var queries []string
			for _, r := range h.fake.Requests() {
				if r.Path == endpoint.PathOf(endpoint.SubAccounts) {
					queries = append(queries, r.RawQuery)
				}
			}
			if !slices.Equal(queries, c.queries) {
				t.Errorf("queries %q, want %q", queries, c.queries)
			}
		})
	}
}
