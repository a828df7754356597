package fakeexchange

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestSubAccountsMainReadsSubIsRefused(t *testing.T) {
	s := testScenario()
	s.Accounts[0].SubAccounts = []SubAccount{{ApplicationID: "app-1", Name: "desk-a", CreatedTime: 1700000000000}}
	s.Accounts[1].IsSubAccount = true
	s.Events = []Event{{After: time.Millisecond, AddSubAccount: &Change[SubAccount]{Account: "a", Row: SubAccount{ApplicationID: "app-2", Name: "desk-b"}}}}
	h := newHarness(t, s)
	answer := wantOK(t, h.get(PathSubAccounts, "", "a1"))
	rows := rowsOf(t, answer)
	// As the docs show: name, createdTime in seconds with a fraction, no meta.
	if len(rows) != 1 || rows[0]["applicationId"] != "app-1" || rows[0]["name"] != "desk-a" || rows[0]["createdTime"] != "1700000000.000" {
		t.Fatalf("rows %v", rows)
	}
	if _, ok := dataOf(t, answer)["meta"]; ok {
		t.Errorf("meta in a sub-accounts answer: %v", answer)
	}
	// The docs list no query parameter: paging ones are unknown.
	wantError(t, h.get(PathSubAccounts, "page=1&size=1000", "a1"), http.StatusBadRequest, "-1004")
	wantError(t, h.get(PathSubAccounts, "", "b1"), http.StatusUnauthorized, "-1002")
	if r := h.get(PathSubAccounts, "", "b1"); !strings.Contains(string(r.body), "sub-account") {
		t.Errorf("refusal does not say why: %s", r.body)
	}
	// Its other endpoints answer as usual.
	wantOK(t, h.get(PathAccountInfo, "", "b1"))

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h.ex.Start(ctx)
	deadline := time.Now().Add(5 * time.Second)
	for len(rowsOf(t, wantOK(t, h.get(PathSubAccounts, "", "a1")))) != 2 {
		if time.Now().After(deadline) {
			t.Fatal("the add_sub_account event never applied")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := h.ex.Apply(Event{AddSubAccount: &Change[SubAccount]{Account: "a", Row: SubAccount{ApplicationID: "app-1"}}}); err == nil {
		t.Error("an add_sub_account event took an application id the account has")
	}
}

func TestSubAccountsGuessedShapes(t *testing.T) {
	subs := []SubAccount{{ApplicationID: "app-1", Name: "desk-a"}, {ApplicationID: "app-2", Name: "desk-b"}}
	t.Run("paged", func(t *testing.T) {
		s := testScenario()
		s.PagedSubAccounts, s.Accounts[0].SubAccounts = true, subs
		h := newHarness(t, s)
		answer := wantOK(t, h.get(PathSubAccounts, "page=2&size=1", "a1"))
		if rows := rowsOf(t, answer); len(rows) != 1 || rows[0]["applicationId"] != "app-2" {
			t.Errorf("page 2 of 1 row: %v", rows)
		}
		if m, ok := dataOf(t, answer)["meta"].(map[string]any); !ok || m["total"] != jsonInt(2) {
			t.Errorf("meta %v", dataOf(t, answer)["meta"])
		}
	})
	t.Run("v1 snake_case", func(t *testing.T) {
		s := testScenario()
		s.SnakeCaseBodies, s.Accounts[0].SubAccounts = true, subs
		h := newHarness(t, s)
		if rows := rowsOf(t, wantOK(t, h.get(PathSubAccounts, "", "a1"))); rows[0]["application_id"] != "app-1" || rows[0]["account"] != "desk-a" {
			t.Errorf("rows %v", rows)
		}
	})
}

func TestMaintenanceWindowAnnouncesAndRefusesPrivateEndpoints(t *testing.T) {
	s := testScenario()
	s.MaintenanceWindows = []MaintenanceWindow{{After: time.Minute, Duration: 10 * time.Minute, RefusePrivate: true}}
	h := newHarness(t, s, WithRateLimit(0, 0), WithPublicRateLimit(0, 0))
	status := func() map[string]any {
		req, err := http.NewRequest(http.MethodGet, h.srv.URL+PathSystemInfo, nil)
		if err != nil {
			t.Fatal(err)
		}
		return dataOf(t, wantOK(t, h.do(req)))
	}
	h.ex.Start(context.Background())
	if st := status(); st["status"] != jsonInt(0) {
		t.Fatalf("before the window: %v", st)
	}
	wantOK(t, h.get(PathBalances, "", "a1"))
	h.clock.Add(time.Minute)
	st := status()
	if st["status"] != jsonInt(2) || st["estimatedEndTime"] != jsonInt(testStart.Add(11*time.Minute).UnixMilli()) {
		t.Errorf("in the window: %v", st)
	}
	for _, path := range []string{PathBalances, PathCredentials, PathWalletHistory} {
		wantError(t, h.get(path, "", "a1"), http.StatusBadRequest, "-1011")
	}
	wantOK(t, h.public())
	h.clock.Add(10 * time.Minute)
	if st := status(); st["status"] != jsonInt(0) {
		t.Errorf("after the window: %v", st)
	}
	wantOK(t, h.get(PathBalances, "", "a1"))
}

func TestAccountHealthScenarioErrorsNameTheField(t *testing.T) {
	for want, mod := range map[string]func(*Scenario){
		"accounts[0].balances[1].token":      func(s *Scenario) { s.Accounts[0].Balances = []Balance{{Token: "A"}, {Token: "A"}} },
		"accounts[0].balances[0].mark_price": func(s *Scenario) { s.Accounts[0].Balances = []Balance{{Token: "A", MarkPrice: "x"}} },
		"accounts[0].transfers[0].side": func(s *Scenario) {
			s.Accounts[0].Transfers = []Transfer{{ID: "1", Token: "A", Side: "IN", Status: "NEW"}}
		},
		"accounts[0].transfers[1].id": func(s *Scenario) {
			t := Transfer{ID: "1", Token: "A", Side: "DEPOSIT", Status: "NEW"}
			s.Accounts[0].Transfers = []Transfer{t, t}
		},
		"accounts[0].account_info.margin_ratio_walk.step": func(s *Scenario) {
			s.Accounts[0].AccountInfo = &AccountInfo{MarginRatio: "1", MaintenanceMarginRatio: "0.1", MarginRatioWalk: &Walk{Every: time.Second}}
		},
		"accounts[0].sub_accounts[0].application_id": func(s *Scenario) { s.Accounts[0].SubAccounts = []SubAccount{{Name: "x"}} },
		"maintenance_windows[0].status":              func(s *Scenario) { s.MaintenanceWindows = []MaintenanceWindow{{Duration: time.Minute, Status: 3}} },
		"events[0].balance.account": func(s *Scenario) {
			s.Events = []Event{{Balance: &Change[Balance]{Account: "nobody", Row: Balance{Token: "A"}}}}
		},
	} {
		s := testScenario()
		mod(s)
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v", want, err)
		}
	}
	yml := []byte(`
snake_case_bodies: true
wallet_ignores_time_filter: true
maintenance_windows: [{after: 10s, duration: 1h, status: 1}]
accounts:
  - name: a
    is_sub_account: true
    account_info: {account_mode: FUTURES, margin_ratio: "0.1", maintenance_margin_ratio: "0.03", margin_ratio_walk: {every: 5s, step: "0.01"}}
    balances: [{token: BTC, holding: "1", available_balance: "1", mark_price: "65000"}]
    transfers: [{id: w1, token: USDT, side: WITHDRAW, amount: "1", status: PROCESSING, created_ago: 2h}]
    sub_accounts: [{application_id: x, name: y, created_time: 1700000000000}]
events:
  - {after: 1s, account_info: {account: a, taker_fee_rate: "0.001"}}
  - {after: 1s, balance: {account: a, token: ETH, holding: "2"}}
  - {after: 1s, transfer: {account: a, id: w1, token: USDT, side: WITHDRAW, status: COMPLETED}}
  - {after: 1s, add_sub_account: {account: a, application_id: z}}
`)
	if _, err := ParseScenario(yml); err != nil {
		t.Errorf("every account health option in YAML: %v", err)
	}
}
