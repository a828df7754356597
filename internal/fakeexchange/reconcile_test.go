package fakeexchange

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// balancesByToken is the balances answer's rows by token, and its envelope
// timestamp.
func balancesByToken(t *testing.T, r reply) (map[string]map[string]any, int64) {
	t.Helper()
	m := wantOK(t, r)
	out := map[string]map[string]any{}
	for _, row := range holdingOf(t, m) {
		out[row["token"].(string)] = row
	}
	stamp, err := strconv.ParseInt(fmt.Sprint(m["timestamp"]), 10, 64)
	if err != nil {
		t.Fatalf("envelope timestamp %v: %v", m["timestamp"], err)
	}
	return out, stamp
}

// Every record appended moves its token's holding and available balance by
// its amount, to the last of 30 decimals; a token with no row gets one.
// Restamping moves nothing, nor does a rejected batch.
func TestAppendedRecordsMoveBalancesExactly(t *testing.T) {
	s := testScenario()
	s.Accounts[0].Balances = []Balance{
		{Token: "BTC", Holding: "1.5", Frozen: "0.1", AvailableBalance: "1.4", MarkPrice: "65000"},
		{Token: "WOO", Holding: "10"},
	}
	h := newHarness(t, s)
	recs := []HistoryRecord{
		{ID: 1, Type: "DEPOSIT", Token: "BTC", Amount: "0.000000000000000000000000000001", Timestamp: histBase},
		{ID: 2, Type: "TRANSACTION_FEE", Token: "BTC", Amount: "-0.5", Timestamp: histBase + 1},
		{ID: 3, Type: "DEPOSIT", Token: "ETH", Amount: "2.123456789012345678901234567891", Timestamp: histBase + 2},
		{ID: 4, Type: "FUNDING_FEE", Token: "WOO", Amount: "-0.25", Timestamp: histBase + 3},
	}
	if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a", Records: recs}}); err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]string{
		"BTC": {"holding": "1.000000000000000000000000000001", "availableBalance": "0.900000000000000000000000000001", "frozen": "0.1", "markPrice": "65000"},
		"ETH": {"holding": "2.123456789012345678901234567891", "availableBalance": "2.123456789012345678901234567891"},
		"WOO": {"holding": "9.75"},
	}
	check := func(when string) {
		t.Helper()
		rows, _ := balancesByToken(t, h.get(PathBalances, "", "a1"))
		for token, fields := range want {
			for f, v := range fields {
				if rows[token][f] != v {
					t.Errorf("%s: %s %s = %v, want %s", when, token, f, rows[token][f], v)
				}
			}
		}
		if _, ok := rows["WOO"]["availableBalance"]; ok || len(rows) != 3 {
			t.Errorf("%s: rows %v: a field or token appeared", when, rows)
		}
	}
	check("after appending")
	if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a",
		Records: []HistoryRecord{{ID: 5, Type: "DEPOSIT", Token: "BTC", Amount: "1", Timestamp: histBase},
			{ID: 1, Type: "DEPOSIT", Token: "BTC", Amount: "1", Timestamp: histBase}}}}); err == nil {
		t.Fatal("a batch with a duplicate id was accepted")
	}
	if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a",
		Records: []HistoryRecord{{ID: 2, Timestamp: histBase + 5000}}, Restamp: true}}); err != nil {
		t.Fatal(err)
	}
	check("after a rejected batch and a restamp")
	if err := h.ex.Apply(Event{Balance: &Change[Balance]{Account: "a", Row: Balance{Token: "BTC", Holding: "7"}}}); err != nil {
		t.Fatal(err)
	}
	if rows, _ := balancesByToken(t, h.get(PathBalances, "token=BTC", "a1")); rows["BTC"]["holding"] != "7" {
		t.Errorf("a balance event does not replace the row: %v", rows["BTC"])
	}
}

// The scenario's balances are the state at creation: its history, dated
// before, does not move them.
func TestScenarioHistoryDoesNotMoveInitialBalances(t *testing.T) {
	s := testScenario()
	s.Accounts[0].Balances = []Balance{{Token: "USDT", Holding: "1000", AvailableBalance: "900"}}
	for _, r := range historyRecords(4) {
		s.Accounts[0].History = append(s.Accounts[0].History, HistoryEntry{HistoryRecord: r})
	}
	s.Accounts[0].History = append(s.Accounts[0].History, HistoryEntry{HistoryRecord: HistoryRecord{ID: 9, Type: "DEPOSIT", Token: "BTC", Amount: "1"}, TimestampAgo: time.Minute})
	h := newHarness(t, s)
	rows, _ := balancesByToken(t, h.get(PathBalances, "", "a1"))
	if len(rows) != 1 || rows["USDT"]["holding"] != "1000" || rows["USDT"]["availableBalance"] != "900" {
		t.Errorf("balances = %v, want USDT 1000 (900 available) alone", rows)
	}
}

// A balances answer is stamped with the server time it was read at, in the
// scenario's number mode; a record the fake dates in the millisecond of an
// answer already sent is dated the next one, so the answer holds the money
// of exactly the records dated at or before its timestamp.
func TestBalancesStampAndRecordDatesAgree(t *testing.T) {
	s := testScenario()
	s.NumbersAsStrings = true
	s.Accounts[0].Balances = []Balance{{Token: "USDT", Holding: "5"}}
	h := newHarness(t, s, WithRateLimit(0, 0))
	t0 := testStart.UnixMilli()
	if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a",
		Records: []HistoryRecord{{Type: "DEPOSIT", Token: "USDT", Amount: "1"}}, ListedAfter: 0}}); err != nil {
		t.Fatal(err)
	}
	m := wantOK(t, h.get(PathBalances, "", "a1"))
	if m["timestamp"] != strconv.FormatInt(t0, 10) || holdingOf(t, m)[0]["holding"] != "6" {
		t.Errorf("answer %v: want stamped %d as a string, holding 6", m, t0)
	}
	if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a",
		Records: []HistoryRecord{{Type: "DEPOSIT", Token: "USDT", Amount: "2"}}, ListedAfter: 0}}); err != nil {
		t.Fatal(err)
	}
	hist := h.ex.ServedHistory("a")
	if len(hist) != 2 || hist[0].ID != 1 || hist[0].Timestamp != t0 || hist[1].ID != 2 || hist[1].Timestamp != t0+1 {
		t.Errorf("history %+v: want id 1 at %d, id 2 (after the answer at %[2]d) at %d", hist, t0, t0+1)
	}
	h.clock.Add(time.Millisecond)
	rows, stamp := balancesByToken(t, h.get(PathBalances, "", "a1"))
	if stamp != t0+1 || rows["USDT"]["holding"] != "8" {
		t.Errorf("answer at %d: %v, want holding 8", stamp, rows)
	}
}

// While the generator runs, every balances answer holds its initial
// balance plus exactly the records dated at or before its timestamp.
func TestGeneratorKeepsBalancesEqualToTheHistory(t *testing.T) {
	s := testScenario()
	s.RateLimit = "0/0s"
	s.Accounts[0].Balances = []Balance{{Token: "USDT", Holding: "1000.5", AvailableBalance: "1000.5"}}
	s.Accounts[0].HistoryGenerator = &HistoryGenerator{Every: time.Millisecond, Types: []string{"DEPOSIT", "WITHDRAW", "TRANSACTION_FEE"}, Tokens: []string{"USDT", "BTC"}}
	ex, err := New(s)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(ex)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ex.Start(ctx)
	initial := map[string]decimal.Decimal{"USDT": decimal.RequireFromString("1000.5"), "BTC": decimal.Zero}
	for i := 0; i < 40; i++ {
		rows, stamp := balancesByToken(t, realTimeGet(t, srv.URL+PathBalances))
		sums := map[string]decimal.Decimal{}
		for _, r := range ex.ServedHistory("a") {
			if r.Timestamp <= stamp {
				sums[r.Token] = sums[r.Token].Add(decimal.RequireFromString(r.Amount))
			}
		}
		for token, base := range initial {
			got := decimal.Zero
			if row, ok := rows[token]; ok {
				got = decimal.RequireFromString(row["holding"].(string))
			}
			if want := base.Add(sums[token]); !got.Equal(want) {
				t.Fatalf("answer %d at %d: %s holding %s, want %s + records %s", i, stamp, token, got, base, sums[token])
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
	if n := len(ex.ServedHistory("a")); n < 5 {
		t.Errorf("the generator added only %d records", n)
	}
}

// realTimeGet is a request signed by key a1 at the real time.
func realTimeGet(t *testing.T, url string) reply {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := strconv.FormatInt(time.Now().UnixMilli(), 10)
	req.Header.Set("x-api-key", "a1")
	req.Header.Set("x-api-timestamp", ts)
	req.Header.Set("x-api-signature", Sign(secrets["a1"], ts, http.MethodGet, req.URL.Path, ""))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return reply{status: resp.StatusCode, header: resp.Header, body: b}
}

// An unrecorded balance move moves the balance alone: no record explains it.
func TestUnrecordedBalanceMoveMovesOnlyTheBalance(t *testing.T) {
	s := testScenario()
	s.Accounts[0].Balances = []Balance{{Token: "USDT", Holding: "100", AvailableBalance: "90"}}
	h := newHarness(t, s)
	if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a", Records: historyRecords(2)}}); err != nil { // +1.10 -2.000
		t.Fatal(err)
	}
	if err := h.ex.Apply(Event{UnrecordedBalanceMove: &BalanceMoveEvent{Account: "a",
		Token: "USDT", Amount: "-3.000000000000000000000000000005"}}); err != nil {
		t.Fatal(err)
	}
	if err := h.ex.Apply(Event{UnrecordedBalanceMove: &BalanceMoveEvent{Account: "a", Token: "SOL", Amount: "4"}}); err != nil {
		t.Fatal(err)
	}
	rows, _ := balancesByToken(t, h.get(PathBalances, "", "a1"))
	if rows["USDT"]["holding"] != "96.099999999999999999999999999995" || rows["USDT"]["availableBalance"] != "86.099999999999999999999999999995" ||
		rows["SOL"]["holding"] != "4" {
		t.Errorf("balances = %v", rows)
	}
	if n := len(h.ex.ServedHistory("a")); n != 2 {
		t.Errorf("history holds %d records, want the 2 appended", n)
	}
	for _, err := range []error{
		h.ex.Apply(Event{UnrecordedBalanceMove: &BalanceMoveEvent{Account: "nobody", Token: "USDT", Amount: "1"}}),
		h.ex.Apply(Event{UnrecordedBalanceMove: &BalanceMoveEvent{Account: "a", Token: "", Amount: "1"}}),
		h.ex.Apply(Event{UnrecordedBalanceMove: &BalanceMoveEvent{Account: "a", Token: "USDT", Amount: "1,5"}}),
	} {
		if err == nil {
			t.Error("a bad move was accepted")
		}
	}
}

// A late record moves the balance when appended but is listed, on any page
// and in meta.total, only from its delay on.
func TestLateRecordMovesTheBalanceAtOnceAndIsListedAfterItsDelay(t *testing.T) {
	s := testScenario()
	s.Accounts[0].Balances = []Balance{{Token: "USDT", Holding: "100"}}
	h := newHarness(t, s, WithRateLimit(0, 0))
	if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a",
		Records: historyRecords(3)}}); err != nil { // +1.10 -2.000 +3.10
		t.Fatal(err)
	}
	for _, r := range []HistoryRecord{{ID: 20, Type: "WITHDRAW", Token: "USDT", Amount: "-50", Timestamp: histBase},
		{Type: "DEPOSIT", Token: "USDT", Amount: "250"}} {
		if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a",
			Records: []HistoryRecord{r}, ListedAfter: 10 * time.Minute}}); err != nil {
			t.Fatal(err)
		}
	}
	if rows, _ := balancesByToken(t, h.get(PathBalances, "", "a1")); rows["USDT"]["holding"] != "302.2" {
		t.Errorf("holding %v, want 302.2 at once", rows["USDT"]["holding"])
	}
	listed := func() string {
		var all []string
		for page := 1; page <= 3; page++ {
			m := wantOK(t, h.get(PathTokenHistory, "size=2&page="+strconv.Itoa(page), "a1"))
			all = append(all, ids(t, rowsOf(t, m))...)
			all = append(all, "total="+metaOf(t, m)["total"].(json.Number).String())
		}
		return strings.Join(all, " ")
	}
	if got := listed(); got != "3 2 total=3 1 total=3 total=3" {
		t.Errorf("before the delay: %s", got)
	}
	h.clock.Add(10*time.Minute - time.Millisecond)
	if got := listed(); got != "3 2 total=3 1 total=3 total=3" {
		t.Errorf("1 ms before the delay: %s", got)
	}
	h.clock.Add(time.Millisecond)
	// Id 21 is dated at the append (testStart), id 20 keeps its timestamp.
	if got := listed(); got != "21 3 total=5 2 1 total=5 20 total=5" {
		t.Errorf("at the delay: %s", got)
	}
	if hist := h.ex.ServedHistory("a"); hist[4].ID != 21 || hist[4].Timestamp != testStart.UnixMilli() {
		t.Errorf("late record = %+v, want id 21 dated %d", hist[4], testStart.UnixMilli())
	}
	if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a",
		Records: []HistoryRecord{{Type: "DEPOSIT", Token: "USDT", Amount: "1"}}, ListedAfter: -time.Second}}); err == nil {
		t.Error("a negative delay was accepted")
	}
	if err := h.ex.Apply(Event{History: &HistoryEvent{Account: "a",
		Records: []HistoryRecord{{ID: 3, Type: "DEPOSIT", Token: "USDT", Amount: "1"}}, ListedAfter: time.Second}}); err == nil {
		t.Error("a duplicate id was accepted")
	}
}

// The events move a balance with no record, and append a record listed
// late.
func TestBalanceMovingEvents(t *testing.T) {
	s, err := ParseScenario([]byte(`rate_limit: 0/0s
accounts:
  - name: a
    keys: [{api_key: a1, api_secret: s-a1, permissions: [READ]}]
    balances: [{token: USDT, holding: "10"}]
    history: [{id: 7, type: DEPOSIT, token: USDT, amount: "10", timestamp_ago: 1h}]
events:
  - unrecorded_balance_move: {account: a, token: USDT, amount: "-0.000000000000000000000000000001"}
  - history: {account: a, records: [{type: FUNDING_FEE, token: USDT, amount: "-2"}], listed_after: 5m}
`))
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h.ex.Start(ctx)
	const want = "7.999999999999999999999999999999"
	testsupport.WaitFor(t, "both events", func() bool { return holdingText(h.ex, "a", "USDT") == want })
	hist := h.ex.ServedHistory("a")
	if len(hist) != 2 || hist[1].ID != 8 || hist[1].Timestamp != testStart.UnixMilli() || hist[1].Amount != "-2" {
		t.Errorf("history = %+v, want the late record id 8 dated at the event", hist)
	}
	listed := func() string { return fmt.Sprint(ids(t, rowsOf(t, wantOK(t, h.get(PathTokenHistory, "", "a1"))))) }
	h.clock.Add(5*time.Minute - time.Millisecond)
	if got := listed(); got != "[7]" {
		t.Errorf("before the delay: %s", got)
	}
	h.clock.Add(time.Millisecond)
	if got := listed(); got != "[8 7]" {
		t.Errorf("at the delay: %s", got)
	}
}

// holdingText is the account's holding of token, "" without a row.
func holdingText(e *Exchange, account, token string) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	rows := balances.rowsOf(e, e.accounts[account])
	if i, ok := balances.find(*rows, Balance{Token: token}); ok {
		return (*rows)[i].row.Holding
	}
	return ""
}

func TestBalanceMovingEventsAreValidated(t *testing.T) {
	const account = "accounts: [{name: a}]\n"
	for _, tc := range []struct{ yaml, want string }{
		{"events: [{unrecorded_balance_move: {account: a, token: USDT, amount: '1'}}]\n", "events[0].unrecorded_balance_move.account: unknown account"},
		{account + "events: [{unrecorded_balance_move: {account: a, token: USDT, amount: x}}]\n", `events[0].unrecorded_balance_move.amount: not a decimal: "x"`},
		{account + "events: [{unrecorded_balance_move: {account: a, amount: '1'}}]\n", "events[0].unrecorded_balance_move.token: must not be empty"},
		{account + "events: [{after: 1s, clear_faults: true}, {history: {account: a, records: [{type: DEPOSIT, token: USDT, amount: '1,5'}]}}]\n", "events[1].history.records[0].amount: not a decimal"},
		{account + "events: [{history: {account: a, records: [{type: DEPOSITS, token: USDT, amount: '1'}]}}]\n", "events[0].history.records[0].type: unknown type"},
		{account + "events: [{history: {account: a, records: [{type: DEPOSIT, amount: '1'}]}}]\n", "events[0].history.records[0].token: must not be empty"},
		{account + "events: [{history: {account: a, records: [{type: DEPOSIT, token: U, amount: '1'}], listed_after: -1s}}]\n", "events[0].history.listed_after: must not be negative"},
		{account + "events: [{history: {account: a, records: [{type: DEPOSIT, token: U, amount: '1'}], listed_afte: 1s}}]\n", "field listed_afte not found"},
	} {
		if _, err := ParseScenario([]byte(tc.yaml)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want %q", tc.yaml, err, tc.want)
		}
	}
}
