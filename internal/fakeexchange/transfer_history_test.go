package fakeexchange

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

func transferScenario() *Scenario {
	s := testScenario()
	s.Accounts[0].AccountTransfers = []AccountTransfer{
		{ID: 11, Token: "USDT", Amount: "250", Counterparty: "b", CreatedAgo: time.Hour},
		{ID: 12, Token: "BTC", Amount: "0.5", Status: "PENDING", Direction: "in", CounterpartyApplicationID: "app-x", CounterpartyAccountName: "X",
			CreatedTime: testStart.Add(-time.Minute).UnixMilli()},
	}
	return s
}

func TestTransferHistoryAnswersAsTheDocsExampleForBothSides(t *testing.T) {
	h := newHarness(t, transferScenario())
	rows := rowsOf(t, wantOK(t, h.get(PathTransferHistory, "", "a1")))
	// Newest first; id a number, amount a string, times seconds with a
	// fraction, from and to objects.
	if len(rows) != 2 || rows[0]["id"] != jsonInt(12) || rows[0]["amount"] != "0.5" || rows[0]["status"] != "PENDING" ||
		rows[0]["createdTime"] != formatSecondsFraction(testStart.Add(-time.Minute).UnixMilli()) {
		t.Fatalf("rows = %v", rows)
	}
	from, to := rows[1]["from"].(map[string]any), rows[1]["to"].(map[string]any)
	if from["applicationId"] != "app-a" || from["accountName"] != "Alpha" || to["applicationId"] != "app-b" || to["accountName"] != "Beta" {
		t.Errorf("from %v to %v", from, to)
	}
	if f := rows[0]["from"].(map[string]any); f["applicationId"] != "app-x" || f["accountName"] != "X" {
		t.Errorf("a transfer in from outside: from %v", f)
	}
	// The other side lists the transfer between scenario accounts too.
	if b := rowsOf(t, wantOK(t, h.get(PathTransferHistory, "", "b1"))); len(b) != 1 || b[0]["id"] != jsonInt(11) {
		t.Errorf("b's rows = %v", b)
	}
	// The query window filters on createdTime; bad parameters are refused.
	start := testStart.Add(-30 * time.Minute).UnixMilli()
	if r := rowsOf(t, wantOK(t, h.get(PathTransferHistory, "startTime="+strconv.FormatInt(start, 10), "a1"))); len(r) != 1 {
		t.Errorf("rows since 30 minutes ago = %v", r)
	}
	wantError(t, h.get(PathTransferHistory, "startTime=17", "a1"), http.StatusBadRequest, "-1005")
	wantError(t, h.get(PathTransferHistory, "token=USDT", "a1"), http.StatusBadRequest, "-1004")
}

func TestCompletedTransfersWriteTheHistoryOfBothSides(t *testing.T) {
	h := newHarness(t, transferScenario())
	legs := func(account string) (out []HistoryRecord) {
		for _, r := range h.ex.ServedHistory(account) {
			if r.Type == "SUB_ACCOUNT_TRANSFER" {
				out = append(out, r)
			}
		}
		return out
	}
	if a, b := legs("a"), legs("b"); len(a) != 1 || a[0].Amount != "-250" || len(b) != 1 || b[0].Amount != "250" {
		t.Fatalf("legs a %v b %v", a, b)
	}
	// Completing the transfer in from outside writes a's leg alone, once.
	for range 2 {
		if err := h.ex.Apply(Event{AccountTransfer: &Change[AccountTransfer]{Account: "a",
			Row: AccountTransfer{ID: 12, Token: "BTC", Amount: "0.5", Direction: "in",
				CounterpartyApplicationID: "app-x"}}}); err != nil {
			t.Fatal(err)
		}
	}
	if a := legs("a"); len(a) != 2 || a[0].Token != "BTC" && a[1].Token != "BTC" {
		t.Errorf("legs after completion = %v", a)
	}
	rows := rowsOf(t, wantOK(t, h.get(PathTransferHistory, "", "a1")))
	if rows[0]["status"] != "COMPLETED" || rows[0]["createdTime"] != formatSecondsFraction(testStart.Add(-time.Minute).UnixMilli()) {
		t.Errorf("completed row = %v, want its creation time kept", rows[0])
	}
}

func TestTransferHistoryReadings(t *testing.T) {
	s := transferScenario()
	s.SnakeCaseBodies, s.NumbersAsStrings = true, true
	s.UnreadableRows = map[string]int{EndpointTransferHistory: 1}
	h := newHarness(t, s)
	answer := wantOK(t, h.get(PathTransferHistory, "", "a1"))
	rows := rowsOf(t, answer)
	if len(rows) != 3 || rows[0]["id"] != "12" || rows[0]["created_time"] == nil || rows[1]["created_time"] != "yesterday" {
		t.Fatalf("rows = %v", rows)
	}
	if f := rows[0]["from"].(map[string]any); f["application_id"] != "app-x" || f["account_name"] != "X" {
		t.Errorf("snake_case from = %v", f)
	}
	if m := metaOf(t, answer); m["total"] != "3" {
		t.Errorf("meta = %v", m)
	}
}

func TestTransferHistoryLateListing(t *testing.T) {
	s := transferScenario()
	s.LateListing = &LateListing{Share: 1, Delay: 2 * time.Hour}
	h := newHarness(t, s)
	if rows := rowsOf(t, wantOK(t, h.get(PathTransferHistory, "", "a1"))); len(rows) != 0 {
		t.Fatalf("rows listed before their delay: %v", rows)
	}
	h.clock.Add(2 * time.Hour)
	if rows := rowsOf(t, wantOK(t, h.get(PathTransferHistory, "", "a1"))); len(rows) != 2 {
		t.Fatalf("rows after the delay = %v", rows)
	}
}

func TestAccountTransferScenarioErrors(t *testing.T) {
	for _, tc := range []struct {
		t    AccountTransfer
		want string
	}{
		{AccountTransfer{Token: "USDT", Amount: "1", Counterparty: "b"}, "account_transfers[0].id: must not be empty"},
		{AccountTransfer{ID: 1, Amount: "1", Counterparty: "b"}, "account_transfers[0].token"},
		{AccountTransfer{ID: 1, Token: "USDT", Amount: "-1", Counterparty: "b"}, "account_transfers[0].amount: must be positive"},
		{AccountTransfer{ID: 1, Token: "USDT", Amount: "1"}, "account_transfers[0].counterparty: set either"},
		{AccountTransfer{ID: 1, Token: "USDT", Amount: "1", Counterparty: "zz"}, `unknown account "zz"`},
		{AccountTransfer{ID: 1, Token: "USDT", Amount: "1", Counterparty: "a"}, "does not transfer to itself"},
		{AccountTransfer{ID: 1, Token: "USDT", Amount: "1", Counterparty: "b", Direction: "up"}, "direction: must be out or in"},
	} {
		s := testScenario()
		s.Accounts[0].AccountTransfers = []AccountTransfer{tc.t}
		if _, err := New(s); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want %q", tc.t, err, tc.want)
		}
	}
}
