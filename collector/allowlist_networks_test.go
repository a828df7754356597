package collector

import (
	"strings"
	"testing"

	"github.com/go-kit/log"

	"github.com/woox-exporter/woox_exporter/allowlist"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// An allow-list entry on a network the token networks do not list is
// warned of once, with the listed network it most likely means, and
// counted in a gauge; a list that lists it clears the gauge.
func TestAllowListEntriesOnUnlistedNetworksAreWarnedOfOnce(t *testing.T) {
	r := newTestRig(t)
	list, err := allowlist.New([]allowlist.Entry{
		{Network: "ETHEREUM", Address: "0x31d64B3230f8baDD91dE1710A65DF536aF8f7cDa", Line: 3},
		{Network: "BTC", Address: "bc1qexample"},
	})
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(r)
	cfg.WithdrawalAllowList = list
	e := newExporter(t, cfg)
	l := NewLive(e, log.NewNopLogger())
	if got := sumOf(t, l, "woox_wallet_allowlist_unknown_network_entries"); got != 0 || strings.Contains(r.logs.String(), "allow-list entry") {
		t.Fatalf("before any token network list: gauge %v, log:\n%s", got, r.logs.String())
	}
	networks := e.byName[endpoint.TokenNetwork].(*TokenNetworkCollector)
	for range 2 {
		if _, err := networks.poll(t.Context(), func() {}); err != nil {
			t.Fatal(err)
		}
	}
	const warning = `level=warn msg="an allow-list entry names a network the exchange does not list: every withdrawal on it would page as unlisted; use the network's name as the token networks give it" entry="ETHEREUM 0x31d64B3230f8baDD91dE1710A65DF536aF8f7cDa (line 3)" closest_listed=ETH`
	if n := strings.Count(r.logs.String(), warning); n != 1 {
		t.Errorf("%d warnings for the entry on ETHEREUM after two polls, want 1:\n%s", n, r.logs.String())
	}
	if strings.Contains(r.logs.String(), "bc1qexample") {
		t.Errorf("the entry on a listed network is warned of:\n%s", r.logs.String())
	}
	if got := sumOf(t, l, "woox_wallet_allowlist_unknown_network_entries"); got != 1 {
		t.Errorf("woox_wallet_allowlist_unknown_network_entries = %v, want 1", got)
	}

	r.listTokenNetworks(t, append(tokenNetworkRows(), fakeexchange.TokenNetworkRow{Token: "ETH", Network: "ETHEREUM", Protocol: "ERC20", Name: "Ethereum",
		MinimumWithdrawal: "0.01", WithdrawalFee: "0.001", AllowDeposit: 1, AllowWithdraw: 1}))
	if _, err := networks.poll(t.Context(), func() {}); err != nil {
		t.Fatal(err)
	}
	if got := sumOf(t, l, "woox_wallet_allowlist_unknown_network_entries"); got != 0 {
		t.Errorf("woox_wallet_allowlist_unknown_network_entries = %v once the network is listed, want 0", got)
	}
}
