package collector

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// Odd bytes in every label (TestInvalidUTF8AndOddLabelValuesDoNotBreakTheScrape).
var _ = addOddAnswer(endpoint.Wallet, oddAnswer{path: endpoint.PathOf(endpoint.Wallet), family: "woox_wallet_transfers_in_flight",
	body: `{"success":true,"data":{"rows":[` +
		`{"id":"w\xff1","token":"U\xffSDT","tokenSide":"WITH\xfeDRAW","status":"PROC\xffESSING","createdTime":` + oddCreated + `},` +
		`{"id":"w\xfe1","token":"U\xfeSDT","tokenSide":"WITH\xffDRAW","status":"PROC\xfeESSING","createdTime":` + oddCreated + `}` +
		`]},"timestamp":1700000000000}`})

func transfer(id, token, side, status string, age time.Duration) fakeexchange.Transfer {
	return fakeexchange.Transfer{ID: id, Token: token, Side: side, Status: status, Amount: "1", CreatedTime: historyNow.Add(-age).UnixMilli()}
}

// putTransfers adds transfers to "main", or replaces those with their ids.
func (r *rig) putTransfers(t *testing.T, ts ...fakeexchange.Transfer) {
	t.Helper()
	for _, tr := range ts {
		if err := r.fake.Apply(fakeexchange.Event{Transfer: &fakeexchange.Change[fakeexchange.Transfer]{Account: "main", Row: tr}}); err != nil {
			t.Fatal(err)
		}
	}
}

// walletNetworks are the token networks the wallet tests split ids by.
var walletNetworks = []client.TokenNetwork{
	{Token: "USDT", Network: "TRON"}, {Token: "USDT", Network: "ETH"}, {Token: "ETH", Network: "ARB"},
	{Token: "ETH", Network: "ARB_NOVA"}, {Token: "BTC", Network: "BTC"},
}

// In flight is every status but the final ones, known or not, counted by
// token, network, side and status, the exchange's network-token ids split
// by the listed networks; a count by side, 0 for a side with nothing in
// flight; the oldest creation time by side; transfers older than the
// lookback are not read.
func TestWalletMetrics(t *testing.T) {
	r := newRig(t, &fakeexchange.Scenario{})
	transfers := []fakeexchange.Transfer{
		transfer("w1", "TRON_USDT", "WITHDRAW", "PROCESSING", 3*time.Hour),
		transfer("w2", "ETH_USDT", "WITHDRAW", "PROCESSING", time.Hour),
		// Plain ids, and one whose prefix is no listed network, stay whole.
		transfer("w3", "BTC", "WITHDRAW", "NEW", 10*time.Minute),
		transfer("w6", "SOLANA_USDT", "WITHDRAW", "NEW", 10*time.Minute),
		transfer("w4", "TRON_USDT", "WITHDRAW", "COMPLETED", 5*time.Hour),
		transfer("w5", "TRON_USDT", "WITHDRAW", "CANCELED", 5*time.Hour),
		transfer("d1", "ARB_ETH", "DEPOSIT", "CONFIRMING", 20*time.Minute),
		transfer("d2", "ARB_ETH", "DEPOSIT", "FAILED", 2*time.Hour),
		// The longest listed network wins: ARB_NOVA, not ARB.
		transfer("d3", "ARB_NOVA_ETH", "DEPOSIT", "AWAITING_TRAVEL_RULE", 30*time.Minute),
		// A network listed for other tokens still splits a new token.
		transfer("d4", "ARB_USDCNATIVE", "DEPOSIT", "CONFIRMING", 20*time.Minute),
		transfer("old", "TRON_USDT", "WITHDRAW", "PROCESSING", 8*24*time.Hour),
	}
	r.putTransfers(t, transfers...)
	e := onlyEndpoint(t, r, endpoint.Wallet)
	e.networks.store(walletNetworks)
	expectMetrics(t, e.byName[endpoint.Wallet], "wallet.metrics")
	var windows [][2]string
	polls := 0
	for _, q := range r.requests(endpoint.Wallet) {
		windows = append(windows, [2]string{query(t, q, "startTime"), query(t, q, "endTime")})
		if query(t, q, "page") == "1" {
			polls++
		}
	}
	want := [2]string{fmt.Sprint(historyNow.Add(-DefaultWalletLookback).UnixMilli()), fmt.Sprint(historyNow.UnixMilli())}
	if polls != 1 || len(windows) == 0 || slices.ContainsFunc(windows, func(w [2]string) bool { return w != want }) {
		t.Errorf("wallet windows %v in %d reads, want one read of %v: the lookback ending at the exchange's time", windows, polls, want)
	}

	// Everything completes: nothing is left in flight; the withdrawals stay
	// counted.
	for i := range transfers {
		transfers[i].Status = "COMPLETED"
	}
	r.putTransfers(t, transfers...)
	e.pollers[0].pollOnce(context.Background())
	expectMetrics(t, e.byName[endpoint.Wallet], "wallet_empty.metrics")
}

// Before the token networks are read (or with their collector off), ids
// stay whole; a list read later splits them, and the wallet's generation
// changes so that its cached families are gathered again.
func TestWalletSplitsIDsOnceTheNetworksArrive(t *testing.T) {
	r := newRig(t, &fakeexchange.Scenario{})
	r.putTransfers(t, transfer("w1", "TRON_USDT", "WITHDRAW", "PROCESSING", time.Hour))
	e := onlyEndpoint(t, r, endpoint.Wallet)
	c := e.byName[endpoint.Wallet].(*WalletCollector)
	expectMetrics(t, c, "wallet_unsplit.metrics", "woox_wallet_transfers_in_flight")
	before := c.generation()
	e.networks.store(walletNetworks)
	if c.generation() == before {
		t.Error("the wallet's generation did not change with the token network list")
	}
	expectMetrics(t, c, "wallet_split.metrics", "woox_wallet_transfers_in_flight")
}

// A shard other than 0 exports no token networks, but its wallets still read
// them (WalletNetworks) to split ids: one extra poller of the token network
// endpoint, nothing of it exported. Turned off, the wallet reads none.
func TestWalletReadsTheNetworksWhenTheirCollectorIsOff(t *testing.T) {
	r := newRig(t, &fakeexchange.Scenario{})
	r.putTransfers(t, transfer("w1", "TRON_USDT", "WITHDRAW", "PROCESSING", time.Hour))
	var rows []fakeexchange.TokenNetworkRow
	for _, n := range walletNetworks {
		rows = append(rows, fakeexchange.TokenNetworkRow{Token: n.Token, Network: n.Network, MinimumWithdrawal: "0", WithdrawalFee: "0"})
	}
	r.listTokenNetworks(t, rows)
	collectors := map[string]bool{}
	for _, ep := range endpoint.All {
		collectors[ep.Name] = ep.Name == endpoint.Wallet
	}
	for _, c := range []struct {
		name     string
		networks TokenNetworkAPI
		pollers  int
		golden   string
	}{
		{"with WalletNetworks", r.public, 2, "wallet_split.metrics"},
		{"without", nil, 1, "wallet_unsplit.metrics"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := r.config()
			cfg.Public, cfg.Collectors, cfg.WalletNetworks = nil, collectors, c.networks
			e := newExporter(t, cfg)
			if len(e.pollers) != c.pollers {
				t.Fatalf("%d pollers, want %d", len(e.pollers), c.pollers)
			}
			for _, p := range e.pollers {
				p.pollOnce(context.Background())
				if p.endpoint != endpoint.Wallet && p.endpoint != endpoint.TokenNetwork {
					t.Errorf("poller of %s", p.endpoint)
				}
			}
			if _, ok := e.byName[endpoint.TokenNetwork]; ok {
				t.Error("token networks exported with their collector off")
			}
			expectMetrics(t, e.byName[endpoint.Wallet], c.golden, "woox_wallet_transfers_in_flight")
		})
	}
}
