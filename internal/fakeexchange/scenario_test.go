package fakeexchange

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLoadScenarioExample(t *testing.T) {
	s, err := LoadScenario("testdata/example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Accounts) != 1 || len(s.Accounts[0].Keys) != 2 || len(s.Events) != 10 || s.Accounts[0].HistoryGenerator.Every != 5*time.Second {
		t.Errorf("scenario = %+v", s)
	}
	if s.SignatureQuery != "exact" || s.RowTimeUnit != "ms" || len(s.UnreadableRows) != len(UnreadableEndpoints()) || s.LateListing == nil || s.SystemStatus == nil || s.Events[5].SystemStatus.Row.Status != 2 {
		t.Errorf("new fields not loaded: %+v", s)
	}
	if a := s.Accounts[0]; a.AccountInfo == nil || a.AccountInfo.MarginRatioWalk == nil || len(a.Balances) != 1 || len(a.Transfers) != 1 ||
		len(a.SubAccounts) != 1 || len(s.MaintenanceWindows) != 1 || s.Events[6].Transfer == nil || s.Events[6].AddSubAccount == nil ||
		s.Events[7].UnrecordedBalanceMove == nil || s.Events[8].History == nil || s.Events[8].History.ListedAfter != 10*time.Minute {
		t.Errorf("account health fields not loaded: %+v", s)
	}
	h := newHarness(t, s)
	hist := h.ex.ServedHistory("main")
	// timestamp_ago is relative to New: 10 minutes before the test clock.
	if len(hist) != 2 || hist[0].ID != 2 || hist[0].Timestamp != testStart.Add(-10*time.Minute).UnixMilli() {
		t.Errorf("history = %+v", hist)
	}
}

func TestLoadScenarioErrorsNameFileAndField(t *testing.T) {
	const account = "accounts:\n  - name: main\n    keys: [{api_key: k, api_secret: s, permissions: [READ]}]\n"
	for _, tc := range []struct{ yaml, want string }{
		{"bogus: 1\n", "field bogus not found"},
		{"rate_limit: ten\n", "rate_limit:"},
		{"accounts:\n  - account_name: x\n", "accounts[0].name: must not be empty"},
		{account + "  - name: main\n", "accounts[1].name: duplicate account"},
		{"accounts:\n  - name: m\n    keys: [{api_key: k}]\n", "accounts[0].keys[0].api_secret: must not be empty"},
		{"accounts:\n  - name: m\n    keys: [{api_key: k, api_secret: s, allowed_ips: [localhost]}]\n", "accounts[0].keys[0].allowed_ips[0]: not an IP address"},
		{account + "    history: [{id: 1, type: DEPOSITS, token: USDT, amount: '1', timestamp: 1}]\n", "accounts[0].history[0].type: unknown type"},
		{account + "    history: [{id: 1, type: DEPOSIT, token: USDT, amount: 1,5, timestamp: 1}]\n", "decode"},
		{account + "    history: [{id: 1, type: DEPOSIT, token: USDT, amount: '1,5', timestamp: 1}]\n", "accounts[0].history[0].amount: not a decimal"},
		{account + "    history: [{id: 1, type: DEPOSIT, token: USDT, amount: '1', timestamp: 1, timestamp_ago: 1m}]\n", "accounts[0].history[0].timestamp_ago: set either"},
		{account + "    history: [{id: 1, type: DEPOSIT, token: U, amount: '1'}, {id: 1, type: DEPOSIT, token: U, amount: '2'}]\n", "accounts[0].history[1].id: duplicate id 1"},
		{account + "    history_generator: {every: 0s, types: [DEPOSIT], tokens: [USDT]}\n", "accounts[0].history_generator.every"},
		{"token_networks: [{token: USDT, network: ETH, minimum_withdrawal: '1', withdrawal_fee: x}]\n", "token_networks[0].withdrawal_fee: not a decimal"},
		{"token_networks: [{token: USDT, network: ETH, minimum_withdrawal: '1', withdrawal_fee: '1', allow_deposit: 2}]\n", "token_networks[0].allow_deposit"},
		{"events: [{after: 1s}]\n", "events[0]: no action"},
		{"events: [{after: 1s, fault: {kind: nope}}]\n", "events[0].fault.kind: unknown fault kind"},
		{"events: [{after: 1s, token_network: {token: USDT, network: ETH, minimum_withdrawal: '1', withdrawal_fee: '1', allow_withdraw: 3}}]\n", "events[0].token_network.allow_withdraw"},
	} {
		path := filepath.Join(t.TempDir(), "s.yaml")
		if err := os.WriteFile(path, []byte(tc.yaml), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := LoadScenario(path)
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want it to name %s and %q", tc.yaml, err, path, tc.want)
		}
	}
	if _, err := LoadScenario(filepath.Join(t.TempDir(), "missing.yaml")); err == nil || !strings.Contains(err.Error(), "missing.yaml") {
		t.Errorf("missing file: err = %v", err)
	}
}

func TestDefaultScenarioServesItsKeys(t *testing.T) {
	s := DefaultScenario()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, s)
	for key, secret := range map[string]string{DefaultMainKey: DefaultMainSecret, DefaultMainReadKey: DefaultMainReadSecret, DefaultSubKey: DefaultSubSecret} {
		secrets[key] = secret
		wantOK(t, h.get(PathTokenHistory, "", key))
	}
	secrets[DefaultMainTradeKey] = DefaultMainTradeSecret
	wantError(t, h.get(PathCredentials, "", DefaultMainTradeKey), 401, "-1002")

	rows := rowsOf(t, wantOK(t, h.public()))
	var closed int
	for _, r := range rows {
		if r["allowWithdraw"] == "0" {
			closed++
		}
	}
	if len(rows) < 8 || closed != 1 {
		t.Errorf("%d token networks, %d with withdrawals disabled", len(rows), closed)
	}
	hist := h.ex.ServedHistory("main")
	if len(hist) == 0 || hist[len(hist)-1].Timestamp > testStart.UnixMilli() || hist[0].Timestamp < testStart.Add(-time.Hour).UnixMilli() {
		t.Errorf("default history not in the hour before start: %+v", hist)
	}
}

func TestStartRunsEventsAndGenerator(t *testing.T) {
	s := testScenario()
	s.Accounts[0].HistoryGenerator = &HistoryGenerator{Every: 10 * time.Millisecond, Types: []string{"DEPOSIT", "WITHDRAW"}, Tokens: []string{"USDT"}}
	noDeposit := s.TokenNetworks[0]
	noDeposit.AllowDeposit = 0
	s.Events = []Event{
		{After: 10 * time.Millisecond, TokenNetwork: &Change[TokenNetworkRow]{Row: noDeposit}},
		{After: 20 * time.Millisecond, Fault: &Fault{Kind: FaultMaintenance, Endpoint: EndpointTokenNetwork}},
	}
	ex, err := New(s)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ex.Start(ctx)
	ex.Start(ctx) // a second call starts nothing more

	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		ex.mu.Lock()
		done := len(ex.faults) == 1
		ex.mu.Unlock()
		if done && len(ex.ServedHistory("a")) >= 3 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	ex.mu.Lock()
	got := (*tokenNetworks.rowsOf(ex, nil))[0].row.AllowDeposit
	ex.mu.Unlock()
	if got != 0 {
		t.Errorf("allow_deposit after event = %d, want 0", got)
	}
	hist := ex.ServedHistory("a")
	if len(hist) < 3 {
		t.Fatalf("generator added %d records", len(hist))
	}
	for i, r := range hist {
		if r.ID != int64(i+1) || !decimalText.MatchString(r.Amount) || (r.Type == "WITHDRAW") != strings.HasPrefix(r.Amount, "-") {
			t.Errorf("generated record %d = %+v", i, r)
		}
	}
	cancel()
	time.Sleep(50 * time.Millisecond)
	n := len(ex.ServedHistory("a"))
	time.Sleep(50 * time.Millisecond)
	if m := len(ex.ServedHistory("a")); m != n {
		t.Errorf("generator still running after cancel: %d -> %d", n, m)
	}
}

func FuzzParseScenario(f *testing.F) {
	b, err := os.ReadFile("testdata/example.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte("accounts: [{name: a, history: [{id: 1, type: DEPOSIT, token: U, amount: '1'}]}]"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ParseScenario(b)
		if err != nil {
			return
		}
		// A scenario that validates must build an exchange.
		if _, err := New(s); err != nil {
			t.Fatalf("valid scenario rejected by New: %v", err)
		}
	})
}

func TestNumbersAsStringsExcludesNumbersAsJSONNumbers(t *testing.T) {
	s, err := ParseScenario([]byte("numbers_as_strings: true\n"))
	if err != nil || !s.NumbersAsStrings {
		t.Fatalf("numbers_as_strings: %+v, %v", s, err)
	}
	_, err = ParseScenario([]byte("numbers_as_strings: true\nnumbers_as_json_numbers: true\n"))
	if err == nil || !strings.Contains(err.Error(), "numbers_as_strings") {
		t.Errorf("both number modes: err = %v", err)
	}
}

func TestScenarioModeFieldsAreValidated(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"signature_query: alphabetical\n", `signature_query: must be "exact" or "sorted"`},
		{"row_time_unit: us\n", `row_time_unit: must be "ms", "s" or "s_fraction"`},
		{"malformed_ids: [3, 4, 3]\n", "malformed_ids[2]: duplicate id 3"},
		{"unreadable_rows: {balances: 1, token_history: 1}\n", "unreadable_rows.token_history: not a list endpoint with unreadable rows " +
			"(" + strings.Join(UnreadableEndpoints(), ", ") + ")"},
		{"unreadable_rows: {system_info: 1}\n", "unreadable_rows.system_info: not a list endpoint"},
		{"unreadable_rows: {wallet: -1}\n", "unreadable_rows.wallet: must not be negative, got -1"},
		{"late_listing: {share: 1.5, delay: 1m}\n", "late_listing.share: must be between 0 and 1"},
		{"late_listing: {share: -0.1}\n", "late_listing.share: must be between 0 and 1"},
		{"late_listing: {share: .nan}\n", "late_listing.share: must be between 0 and 1"},
		{"late_listing: {share: 0.5, delay: -1m}\n", "late_listing.delay: must not be negative"},
		{"page_cap: -1\n", "page_cap: must not be negative"},
		{"system_status: {status: -1}\n", "system_status.status: must not be negative"},
		{"system_status: {status: 2, estimated_end_time: -5}\n", "system_status.estimated_end_time: must not be negative"},
		{"events: [{after: 1s, system_status: {status: -2}}]\n", "events[0].system_status.status: must not be negative"},
		{"error_timestamp: {offset: 1h, unit: s}\n", `error_timestamp.unit: must be "ms" or "us"`},
		{"understate_total: -5\n", "understate_total: must not be negative"},
		{"overstate_total: -5\n", "overstate_total: must not be negative"},
		{"accounts: [{name: a, history: [{id: 1, type: SOMETHING_NEW, token: U, amount: '1'}]}]\n", `accounts[0].history[0].type: unknown type "SOMETHING_NEW"`},
		{"shared_ids: true\naccounts: [{name: a, history: [{id: 1, type: DEPOSIT, token: U, amount: '1'}, {id: 1, type: DEPOSIT, token: U, amount: '2'}]}]\n",
			"accounts[0].history[1].id: duplicate id 1 with token U and type DEPOSIT"},
	} {
		if _, err := ParseScenario([]byte(tc.yaml)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want %q", tc.yaml, err, tc.want)
		}
	}
	for _, y := range []string{
		"signature_query: exact\n",
		"signature_query: sorted\n",
		"row_time_unit: ms\nmalformed_ids: [1, 2]\n",
		"unreadable_rows: {token_network: 2, credentials: 1, balances: 1, positions: 1, wallet: 1, sub_accounts: 0}\n",
		"row_time_unit: s\n",
		"row_time_unit: s_fraction\n",
		"shared_ids: true\naccounts: [{name: a, history: [{id: 1, type: DEPOSIT, token: U, amount: '1'}, {id: 1, type: DEPOSIT, token: V, amount: '2'}]}]\n",
		"error_timestamp: {offset: -2h}\n",
		"system_status: {status: 7, msg: new, estimated_end_time: 1749963600362}\n",
		"error_timestamp: {offset: 1h, unit: us}\n",
		"late_listing: {share: 0.25, delay: 30m}\nunstable_tie_order: true\npage_cap: 500\nunderstate_total: 1200\nclamp_pages: true\n",
		"overstate_total: 3\nundocumented_types: [SOMETHING_NEW]\naccounts: [{name: a, history: [{id: 1, type: SOMETHING_NEW, token: U, amount: '1'}]}]\n",
	} {
		if _, err := ParseScenario([]byte(y)); err != nil {
			t.Errorf("%q: %v", y, err)
		}
	}
}

// The scenario the end-to-end check runs loads: a field it misspells would
// otherwise fail only there.
func TestEndToEndScenarioLoads(t *testing.T) {
	s, err := LoadScenario("../../e2e/testdata/scenario.yml")
	if err != nil {
		t.Fatal(err)
	}
	if len(s.MaintenanceWindows) == 0 || s.Accounts[0].AccountInfo == nil || len(s.Accounts[0].Transfers) == 0 {
		t.Errorf("the end-to-end scenario lost its account health: %+v", s)
	}
}
