package fakeexchange

import (
	"net/http"
	"testing"
)

func holdingOf(t *testing.T, m map[string]any) []map[string]any {
	t.Helper()
	raw, ok := dataOf(t, m)["holding"].([]any)
	if !ok {
		t.Fatalf("no holding array in %v", m)
	}
	out := make([]map[string]any, len(raw))
	for i, r := range raw {
		out[i] = r.(map[string]any)
	}
	return out
}

func TestBalancesSortedFilteredAndChanged(t *testing.T) {
	s := testScenario()
	s.Accounts[0].Balances = []Balance{
		{Token: "USDT", Holding: "1000", AvailableBalance: "1000", MarkPrice: "1"},
		{Token: "BTC", Holding: "1.5", Frozen: "0.1", Staked: "0.2", AvailableBalance: "1.2", MarkPrice: "65000"},
	}
	s.SnakeCaseBodies = true
	h := newHarness(t, s)
	rows := holdingOf(t, wantOK(t, h.get(PathBalances, "", "a1")))
	if len(rows) != 2 || rows[0]["token"] != "BTC" || rows[1]["token"] != "USDT" {
		t.Fatalf("rows %v", rows)
	}
	if rows[0]["available_balance"] != "1.2" || rows[0]["mark_price"] != "65000" || rows[0]["frozen"] != "0.1" {
		t.Errorf("BTC %v", rows[0])
	}
	if _, ok := rows[1]["frozen"]; ok {
		t.Errorf("USDT frozen served although empty: %v", rows[1])
	}
	if only := holdingOf(t, wantOK(t, h.get(PathBalances, "token=USDT", "a1"))); len(only) != 1 || only[0]["token"] != "USDT" {
		t.Errorf("token filter: %v", only)
	}
	if err := h.ex.Apply(Event{Balance: &Change[Balance]{Account: "a", Row: Balance{Token: "BTC", Holding: "0.5"}}}); err != nil {
		t.Fatal(err)
	}
	if err := h.ex.Apply(Event{Balance: &Change[Balance]{Account: "a", Row: Balance{Token: "ETH", Holding: "2"}}}); err != nil {
		t.Fatal(err)
	}
	rows = holdingOf(t, wantOK(t, h.get(PathBalances, "", "a1")))
	if len(rows) != 3 || rows[0]["holding"] != "0.5" || rows[1]["token"] != "ETH" {
		t.Errorf("after changes: %v", rows)
	}
	if err := h.ex.Apply(Event{Balance: &Change[Balance]{Account: "a", Row: Balance{Token: "BTC", Holding: "x"}}}); err == nil {
		t.Error("a balance event took a holding that is not a decimal")
	}
	wantError(t, h.get(PathBalances, "size=5", "a1"), http.StatusBadRequest, "-1004")
	if rows := holdingOf(t, wantOK(t, h.get(PathBalances, "", "b1"))); len(rows) != 0 {
		t.Errorf("account b holds nothing, got %v", rows)
	}
}

// A token the account no longer holds is no longer listed.
func TestRemovedBalanceDelistsTheToken(t *testing.T) {
	s := testScenario()
	s.Accounts[0].Balances = []Balance{{Token: "USDT", Holding: "1000"}, {Token: "BTC", Holding: "1.5"}}
	h := newHarness(t, s)
	remove := func(account, token string) error {
		return h.ex.Apply(Event{Balance: &Change[Balance]{Account: account, Row: Balance{Token: token}, Remove: true}})
	}
	if err := remove("a", "USDT"); err != nil {
		t.Errorf("USDT was held, removing it failed: %v", err)
	}
	if remove("a", "USDT") == nil || remove("nobody", "BTC") == nil {
		t.Error("a token not held was removed")
	}
	if rows := holdingOf(t, wantOK(t, h.get(PathBalances, "", "a1"))); len(rows) != 1 || rows[0]["token"] != "BTC" {
		t.Errorf("after removing USDT: %v, want BTC alone", rows)
	}
}
