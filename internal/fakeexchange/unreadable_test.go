package fakeexchange

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// unreadableScenario is testScenario with two good rows on every list
// endpoint of account a.
func unreadableScenario() *Scenario {
	s := testScenario()
	a := &s.Accounts[0]
	a.Balances = []Balance{{Token: "BTC", Holding: "1"}, {Token: "ETH", Holding: "2"}}
	a.Positions = []Position{{Symbol: "PERP_BTC_USDT", Holding: "1"}, {Symbol: "PERP_ETH_USDT", Holding: "-1"}}
	a.Transfers = []Transfer{{ID: "w1", Token: "USDT", Side: "WITHDRAW", Status: "NEW", CreatedAgo: time.Hour},
		{ID: "w2", Token: "BTC", Side: "DEPOSIT", Status: "NEW", CreatedAgo: 2 * time.Hour}}
	a.SubAccounts = []SubAccount{{ApplicationID: "s1"}, {ApplicationID: "s2"}}
	s.TokenNetworks = append(s.TokenNetworks, TokenNetworkRow{Token: "BTC", Network: "BTC", MinimumWithdrawal: "1", WithdrawalFee: "0"})
	return s
}

// Each list endpoint serves its unreadable rows after its first good row,
// each without the field it names (or with a value that is no value), and
// a paged list counts them in meta.total.
func TestUnreadableRowsAreServedAfterTheFirstGoodRow(t *testing.T) {
	for _, tc := range []struct {
		endpoint, path, rows, missing, bad string
		paged                              bool
	}{
		{EndpointTokenNetwork, PathTokenNetwork, "rows", "allowWithdraw", "", false},
		{EndpointCredentials, PathCredentials, "rows", "apiKey", "", true},
		{EndpointBalances, PathBalances, "holding", "", `"holding":"1.2.3"`, false},
		{EndpointPositions, PathPositions, "positions", "symbol", "", false},
		{EndpointWallet, PathWalletHistory, "rows", "", `"createdTime":"yesterday"`, true},
		{EndpointSubAccounts, PathSubAccounts, "rows", "applicationId", "", false},
	} {
		t.Run(tc.endpoint, func(t *testing.T) {
			s := unreadableScenario()
			s.UnreadableRows = map[string]int{tc.endpoint: 2}
			h := newHarness(t, s)
			var r reply
			if tc.endpoint == EndpointTokenNetwork {
				r = h.public()
			} else {
				r = h.get(tc.path, "", "a1")
			}
			m := wantOK(t, r)
			data := m["data"].(map[string]any)
			rows := data[tc.rows].([]any)
			if len(rows) < 4 {
				t.Fatalf("%d rows, want the good rows and 2 unreadable: %s", len(rows), r.body)
			}
			for i, row := range rows {
				o := row.(map[string]any)
				unreadable := i == 1 || i == 2
				if _, has := o[tc.missing]; tc.missing != "" && has == unreadable {
					t.Errorf("row %d (unreadable %v) has %s: %v", i, unreadable, tc.missing, o)
				}
				if tc.bad != "" && strings.Contains(string(mustJSON(o)), tc.bad) != unreadable {
					t.Errorf("row %d (unreadable %v): %s", i, unreadable, mustJSON(o))
				}
			}
			if string(mustJSON(rows[1])) == string(mustJSON(rows[2])) {
				t.Errorf("two unreadable rows alike: %s", mustJSON(rows[1]))
			}
			if meta, ok := data["meta"].(map[string]any); tc.paged && (!ok || fmt.Sprint(meta["total"]) != fmt.Sprint(len(rows))) {
				t.Errorf("meta %v, want a total of %d", data["meta"], len(rows))
			}
		})
	}
}

// An unreadable_rows event changes what is served, and names what it refuses.
func TestUnreadableRowsEventChangesWhatIsServed(t *testing.T) {
	h := newHarness(t, unreadableScenario())
	if err := h.ex.Apply(Event{UnreadableRows: &map[string]int{EndpointTokenNetwork: 1}}); err != nil {
		t.Fatal(err)
	}
	if rows := rowsOf(t, wantOK(t, h.public())); len(rows) != 3 || rows[1]["token"] != "UNREADABLE" {
		t.Errorf("rows %v", rows)
	}
	if err := h.ex.Apply(Event{UnreadableRows: &map[string]int{EndpointTokenNetwork: 0}}); err != nil {
		t.Fatal(err)
	}
	if rows := rowsOf(t, wantOK(t, h.public())); len(rows) != 2 {
		t.Errorf("rows %v", rows)
	}
	for endpoint, n := range map[string]int{EndpointTokenHistory: 1, "nope": 1, EndpointBalances: -1} {
		if err := h.ex.Apply(Event{UnreadableRows: &map[string]int{endpoint: n}}); err == nil || !strings.Contains(err.Error(), "unreadable_rows."+endpoint) {
			t.Errorf("%s %d: err %v", endpoint, n, err)
		}
	}
}
