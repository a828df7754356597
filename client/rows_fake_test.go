package client_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// readLists reads every list endpoint of the fake's account once: the rows
// read, and the rows rejected, by endpoint.
func readLists(t *testing.T, c *client.Client) (read map[string]any, rejected map[string][]client.RejectedRow) {
	t.Helper()
	ctx := context.Background()
	read, rejected = map[string]any{}, map[string][]client.RejectedRow{}
	keep := func(endpoint string, rows any, bad []client.RejectedRow, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", endpoint, err)
		}
		read[endpoint], rejected[endpoint] = rows, bad
	}
	networks, bad, err := c.TokenNetworks(ctx)
	keep(client.EndpointTokenNetwork, networks, bad, err)
	keys, bad, err := c.Credentials(ctx)
	keep(client.EndpointCredentials, keys, bad, err)
	balances, bad, err := c.Balances(ctx)
	keep(client.EndpointBalances, balances, bad, err)
	positions, bad, err := c.Positions(ctx)
	keep(client.EndpointPositions, positions, bad, err)
	now := time.Now()
	transfers, bad, err := c.WalletHistory(ctx, now.Add(-24*time.Hour).UnixMilli(), now.UnixMilli())
	keep(client.EndpointWallet, transfers, bad, err)
	subs, bad, err := c.SubAccounts(ctx)
	keep(client.EndpointSubAccounts, subs, bad, err)
	return read, rejected
}

// With one unreadable row on every list endpoint of the fake, in every
// reading of the API, each endpoint returns the rows it returns without it,
// and that row rejected, naming its field.
func TestTheFakesUnreadableRowsAreRejectedAlone(t *testing.T) {
	want := map[string]client.RejectedRow{
		client.EndpointTokenNetwork: {ID: "token UNREADABLE network NET1", Field: "allowWithdraw"},
		client.EndpointCredentials:  {Field: "apiKey"},
		client.EndpointBalances:     {ID: "token UNREADABLE1", Field: "holding"},
		client.EndpointPositions:    {Field: "symbol"},
		client.EndpointWallet:       {ID: "id unreadable-1", Field: "createdTime"},
		client.EndpointSubAccounts:  {Field: "applicationId"},
	}
	for _, endpoint := range fakeexchange.UnreadableEndpoints() {
		if _, ok := want[endpoint]; !ok {
			t.Errorf("no expectation for the unreadable row of %s: add it here and to readLists", endpoint)
		}
	}
	eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
		a := &s.Accounts[0]
		a.Balances = []fakeexchange.Balance{{Token: "BTC", Holding: "1.5"}, {Token: "USDT", Holding: "100", AvailableBalance: "90"}}
		a.Positions = []fakeexchange.Position{fakeexchange.CapturedPosition(), {Symbol: "PERP_BTC_USDT", Holding: "-0.5", TimestampMs: 1752500000000}}
		a.Transfers = []fakeexchange.Transfer{
			{ID: "w1", Token: "TRON_USDT", Side: "WITHDRAW", Amount: "500", Status: "PROCESSING", CreatedAgo: 2 * time.Hour},
			{ID: "w2", Token: "BTC", Side: "DEPOSIT", Amount: "1", Status: "NEW", CreatedAgo: time.Hour},
		}
		a.SubAccounts = []fakeexchange.SubAccount{{ApplicationID: "app-1", Name: "desk-a"}, {ApplicationID: "app-2"}}
		s.TokenNetworks = append(s.TokenNetworks, fakeexchange.TokenNetworkRow{Token: "BTC", Network: "BTC", MinimumWithdrawal: "0.001", WithdrawalFee: "0.0005", AllowDeposit: 1})
		h := newHarness(t, s, fakeexchange.WithRateLimit(0, 0))
		c := h.client(t, nil)
		good, none := readLists(t, c)
		for endpoint := range want {
			if len(none[endpoint]) != 0 {
				t.Fatalf("%s: rows rejected without unreadable rows: %+v", endpoint, none[endpoint])
			}
			if err := h.fake.SetUnreadableRows(endpoint, 1); err != nil {
				t.Fatal(err)
			}
		}
		read, rejected := readLists(t, c)
		for endpoint, w := range want {
			if !reflect.DeepEqual(read[endpoint], good[endpoint]) {
				t.Errorf("%s: read %+v, want %+v", endpoint, read[endpoint], good[endpoint])
			}
			if r := rejected[endpoint]; len(r) != 1 || r[0].Page != 1 || r[0].Index != 1 || r[0].ID != w.ID || r[0].Field != w.Field {
				t.Errorf("%s: rejected %+v, want page 1, row 1, id %q, field %q", endpoint, r, w.ID, w.Field)
			}
		}
	})
}
