package fakeexchange

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestTokenNetworkSendsNumbersAsStringsByDefault(t *testing.T) {
	h := newHarness(t, testScenario())
	r := h.public()
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type = %q", ct)
	}
	m := wantOK(t, r)
	if _, ok := m["timestamp"].(json.Number); !ok {
		t.Errorf("timestamp missing or not a number: %s", r.body)
	}
	if _, ok := m["data"].(map[string]any)["meta"]; ok {
		t.Errorf("token network answer has meta: %s", r.body)
	}
	rows := rowsOf(t, m)
	want := map[string]any{"protocol": "ERC20", "network": "ETH", "token": "USDT", "name": "Ethereum",
		"minimumWithdrawal": "10.00000000", "withdrawalFee": "1.5", "allowDeposit": "1", "allowWithdraw": "0"}
	if len(rows) != 1 || fmt.Sprint(rows[0]) != fmt.Sprint(want) {
		t.Errorf("rows = %v, want [%v]", rows, want)
	}
}

func TestTokenNetworkNumbersAsJSONNumbers(t *testing.T) {
	s := testScenario()
	s.NumbersAsJSONNumbers = true
	h := newHarness(t, s)
	r := h.public()
	if !strings.Contains(string(r.body), `"minimumWithdrawal":10.00000000,`) || !strings.Contains(string(r.body), `"allowWithdraw":0`) {
		t.Errorf("numbers not sent as JSON numbers: %s", r.body)
	}
}

func TestTokenNetworkChangesAreServed(t *testing.T) {
	h := newHarness(t, testScenario())
	usdt := testScenario().TokenNetworks[0]
	usdt.AllowWithdraw = 1
	if err := h.ex.Apply(Event{TokenNetwork: &Change[TokenNetworkRow]{Row: usdt}}); err != nil {
		t.Fatal(err)
	}
	btc := TokenNetworkRow{Token: "BTC", Network: "BTC", MinimumWithdrawal: "0", WithdrawalFee: "0", AllowDeposit: 1}
	if err := h.ex.Apply(Event{TokenNetwork: &Change[TokenNetworkRow]{Row: btc}}); err != nil {
		t.Fatal(err)
	}
	rows := rowsOf(t, wantOK(t, h.public()))
	if len(rows) != 2 || rows[0]["allowWithdraw"] != "1" || rows[1]["token"] != "BTC" {
		t.Errorf("rows = %v", rows)
	}
	if err := h.ex.Apply(Event{TokenNetwork: &Change[TokenNetworkRow]{All: true}}); err != nil {
		t.Fatal(err)
	}
	if r := h.public(); !strings.Contains(string(r.body), `"rows":[]`) {
		t.Errorf("empty rows not sent as []: %s", r.body)
	}
}
