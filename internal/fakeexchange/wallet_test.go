package fakeexchange

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
	"time"
)

func walletScenario(mod func(*Scenario)) *Scenario {
	s := testScenario()
	s.Accounts[0].Transfers = []Transfer{
		{ID: "w1", Token: "USDT", Side: "WITHDRAW", Amount: "500", Status: "PROCESSING", CreatedAgo: 2 * time.Hour},
		{ID: "d1", Token: "BTC", Side: "DEPOSIT", Amount: "0.5", Status: "CONFIRMING", CreatedAgo: 5 * time.Minute},
		{ID: "w2", Token: "USDT", Side: "WITHDRAW", Amount: "100", Status: "COMPLETED", CreatedAgo: 3 * time.Hour},
		{ID: "c1", Token: "USDT", Type: "COLLATERAL", Side: "WITHDRAW", Amount: "7", Status: "PROCESSING", CreatedAgo: time.Hour},
	}
	if mod != nil {
		mod(s)
	}
	return s
}

func TestWalletHistoryNewestFirstPagedAndFiltered(t *testing.T) {
	h := newHarness(t, walletScenario(nil))
	if rows := rowsOf(t, wantOK(t, h.get(PathWalletHistory, "", "a1"))); len(rows) != 4 || rows[1]["id"] != "c1" || rows[1]["type"] != "COLLATERAL" {
		t.Fatalf("without a type, every type: %v", rows)
	}
	answer := wantOK(t, h.get(PathWalletHistory, "type=BALANCE", "a1"))
	rows := rowsOf(t, answer)
	if len(rows) != 3 || rows[0]["id"] != "d1" || rows[1]["id"] != "w1" || rows[2]["id"] != "w2" {
		t.Fatalf("rows %v", rows)
	}
	w1 := rows[1]
	if w1["tokenSide"] != "WITHDRAW" || w1["status"] != "PROCESSING" || w1["amount"] != "500" || w1["type"] != "BALANCE" || w1["feeToken"] != "" {
		t.Errorf("w1 %v", w1)
	}
	// As captured: times strings of seconds with a fraction, meta snake_case.
	if created := testStart.Add(-2 * time.Hour).UnixMilli(); w1["createdTime"] != formatSecondsFraction(created) {
		t.Errorf("w1 created %#v, want %d as seconds", w1["createdTime"], created)
	}
	if m := dataOf(t, answer)["meta"].(map[string]any); m["records_per_page"] != jsonInt(DefaultPageSize) || m["current_page"] != jsonInt(1) {
		t.Errorf("meta %v", m)
	}
	wantError(t, h.get(PathWalletHistory, "type=SPOT", "a1"), http.StatusBadRequest, "-1005")
	// Paging: one row a page, an empty page after the last.
	m := wantOK(t, h.get(PathWalletHistory, "page=2&size=1&type=BALANCE", "a1"))
	if rows := rowsOf(t, m); len(rows) != 1 || rows[0]["id"] != "w1" {
		t.Errorf("page 2: %v", rows)
	}
	if rows := rowsOf(t, wantOK(t, h.get(PathWalletHistory, "page=4&size=1&type=BALANCE", "a1"))); len(rows) != 0 {
		t.Errorf("page 4: %v", rows)
	}
	// The last hour only.
	q := "startTime=" + strconv.FormatInt(testStart.Add(-time.Hour).UnixMilli(), 10) + "&endTime=" + strconv.FormatInt(testStart.UnixMilli(), 10)
	if rows := rowsOf(t, wantOK(t, h.get(PathWalletHistory, q+"&type=BALANCE", "a1"))); len(rows) != 1 || rows[0]["id"] != "d1" {
		t.Errorf("last hour: %v", rows)
	}
	wantError(t, h.get(PathWalletHistory, "startTime=1721295317", "a1"), http.StatusBadRequest, "-1005")
	wantError(t, h.get(PathWalletHistory, "side=WITHDRAW", "a1"), http.StatusBadRequest, "-1004")

	// A status change keeps the creation time and updates the row.
	if err := h.ex.Apply(Event{Transfer: &Change[Transfer]{Account: "a",
		Row: Transfer{ID: "w1", Token: "USDT", Side: "WITHDRAW", Amount: "500", Status: "COMPLETED"}}}); err != nil {
		t.Fatal(err)
	}
	rows = rowsOf(t, wantOK(t, h.get(PathWalletHistory, "type=BALANCE", "a1")))
	if rows[1]["id"] != "w1" || rows[1]["status"] != "COMPLETED" {
		t.Errorf("after the status change: %v", rows)
	}
}

func jsonInt(n int64) any { return json.Number(strconv.FormatInt(n, 10)) }

func TestWalletHistoryModes(t *testing.T) {
	q := "startTime=" + strconv.FormatInt(testStart.Add(-time.Hour).UnixMilli(), 10) + "&endTime=" + strconv.FormatInt(testStart.UnixMilli(), 10)
	t.Run("ignores the time filter", func(t *testing.T) {
		h := newHarness(t, walletScenario(func(s *Scenario) { s.WalletIgnoresTimeFilter = true }))
		if rows := rowsOf(t, wantOK(t, h.get(PathWalletHistory, q+"&type=BALANCE", "a1"))); len(rows) != 3 {
			t.Errorf("want every transfer whatever the filter, got %v", rows)
		}
	})
	t.Run("addresses and tags, in both spellings", func(t *testing.T) {
		for _, snake := range []bool{false, true} {
			h := newHarness(t, walletScenario(func(s *Scenario) {
				s.SnakeCaseBodies = snake
				s.Accounts[0].Transfers[0].Address, s.Accounts[0].Transfers[0].Tag = "rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh", "104"
			}))
			address, extra := "targetAddress", "extra"
			if snake {
				address = "target_address"
			}
			// Appended at runtime: created now, served newest first.
			if err := h.ex.Apply(Event{Transfer: &Change[Transfer]{Account: "a",
				Row: Transfer{ID: "w9", Token: "ETH_USDT", Side: "WITHDRAW", Amount: "9", Status: "NEW",
					Address: "0x31d64B3230f8baDD91dE1710A65DF536aF8f7cDa"}}}); err != nil {
				t.Fatal(err)
			}
			rows := rowsOf(t, wantOK(t, h.get(PathWalletHistory, "type=BALANCE", "a1")))
			if len(rows) != 4 || rows[0]["id"] != "w9" || rows[0][address] != "0x31d64B3230f8baDD91dE1710A65DF536aF8f7cDa" || rows[0][extra] != "" {
				t.Errorf("snake %t: appended row %v", snake, rows[0])
			}
			if rows[2]["id"] != "w1" || rows[2][address] != "rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh" || rows[2][extra] != "104" {
				t.Errorf("snake %t: w1 %v", snake, rows[2])
			}
			// A deposit has its address; the captured rows send both fields even when empty.
			if v, ok := rows[3][extra]; !ok || v != "" {
				t.Errorf("snake %t: w2 %v", snake, rows[3])
			}
		}
	})
	t.Run("snake_case, milliseconds, camelCase meta", func(t *testing.T) {
		h := newHarness(t, walletScenario(func(s *Scenario) {
			s.SnakeCaseBodies, s.WalletTimeUnit, s.CamelCaseWalletMeta = true, RowTimeMillis, true
		}))
		answer := wantOK(t, h.get(PathWalletHistory, "", "a1"))
		r := rowsOf(t, answer)[0]
		created := testStart.Add(-5 * time.Minute).UnixMilli()
		if r["token_side"] != "DEPOSIT" || r["created_time"] != jsonInt(created) {
			t.Errorf("row %v", r)
		}
		if m := dataOf(t, answer)["meta"].(map[string]any); m["recordsPerPage"] != jsonInt(DefaultPageSize) {
			t.Errorf("meta %v", m)
		}
		if _, ok := r["tokenSide"]; ok {
			t.Errorf("camelCase name in a snake_case body: %v", r)
		}
	})
}
