package collector

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/ledger"
)

// Odd bytes in every label (TestInvalidUTF8AndOddLabelValuesDoNotBreakTheScrape);
// the account's own applicationId is the fake's "app-main".
var _ = addOddAnswer(endpoint.TransferHistory, oddAnswer{path: endpoint.PathOf(endpoint.TransferHistory), family: "woox_transfers_total",
	body: `{"success":true,"data":{"rows":[` +
		`{"id":"t\xff1","token":"U\xffSDT","amount":"1","status":"COMPLETED","from":{"applicationId":"app-main"},` +
		`"to":{"applicationId":"a\xffpp","accountName":"S\xffub"},"createdTime":` + oddCreated + `},` +
		`{"id":"t\xfe1","token":"U\xfeSDT","amount":"2","status":"PEN\xffDING","from":{"applicationId":"app-main"},` +
		`"to":{"applicationId":"a\xfepp"},"createdTime":` + oddCreated + `}` +
		`]},"timestamp":1700000000000}`})

// transferAccounts are "main" and "sub" (Sub-1), each signing with a key
// of its own.
func transferAccounts() []fakeexchange.Account {
	sub := fakeexchange.Account{Name: "sub", AccountName: "Sub-1", UserID: 12524,
		Keys: []fakeexchange.Key{{APIKey: "sub-key", APISecret: "SUBSECRET", Permissions: []string{"READ"}}}}
	return []fakeexchange.Account{mainAccount(), sub}
}

// transferExporter polls the endpoints named of every rig account, with
// the state store when not nil, once each.
func transferExporter(t *testing.T, r *rig, store StateStore, endpoints ...string) *Exporter {
	t.Helper()
	cfg := r.config()
	cfg.Public, cfg.Collectors, cfg.State = nil, map[string]bool{}, nil
	if store != nil {
		cfg.State = store
	}
	for _, ep := range endpoint.All {
		cfg.Collectors[ep.Name] = false
	}
	for _, name := range endpoints {
		cfg.Collectors[name] = true
	}
	e := newExporter(t, cfg)
	pollAll(e)
	return e
}

func transferOut(id int64, token, amount, to string, ago time.Duration) fakeexchange.AccountTransfer {
	return fakeexchange.AccountTransfer{ID: id, Token: token, Amount: amount, Counterparty: to, CreatedTime: historyNow.Add(-ago).UnixMilli()}
}

// Completed transfers counted by token, direction and counterparty on both
// sides; a counterparty outside the scenario named by its account name, or
// its applicationId without one; transfers in flight by status; failed ones
// nowhere; each account's own applicationId.
func TestTransferHistoryMetrics(t *testing.T) {
	s := &fakeexchange.Scenario{Accounts: transferAccounts()}
	s.Accounts[0].AccountTransfers = []fakeexchange.AccountTransfer{
		transferOut(1, "USDT", "250", "sub", 30*time.Minute),
		transferOut(2, "USDT", "50.5", "sub", 20*time.Minute),
		{ID: 3, Token: "BTC", Amount: "0.01", Direction: "in", Counterparty: "sub", CreatedTime: historyNow.Add(-10 * time.Minute).UnixMilli()},
		{ID: 4, Token: "USDT", Amount: "100", CounterpartyApplicationID: "app-cold", CounterpartyAccountName: "Cold", CreatedTime: historyNow.Add(-5 * time.Minute).UnixMilli()},
		{ID: 5, Token: "USDT", Amount: "7", CounterpartyApplicationID: "app-nameless", CreatedTime: historyNow.Add(-4 * time.Minute).UnixMilli()},
		{ID: 6, Token: "USDT", Amount: "5", Status: "PENDING", CounterpartyApplicationID: "app-cold", CreatedTime: historyNow.Add(-time.Minute).UnixMilli()},
		{ID: 7, Token: "USDT", Amount: "9", Status: "FAILED", Counterparty: "sub", CreatedTime: historyNow.Add(-time.Minute).UnixMilli()},
	}
	r := newRig(t, s)
	e := transferExporter(t, r, nil, endpoint.TransferHistory)
	expectMetrics(t, e.byName[endpoint.TransferHistory], "transfer_history.metrics")
}

// transferTotal is the amount counted of account's transfers of token in
// direction, over every counterparty.
func transferTotal(e *Exporter, account, token, direction string) decimal.Decimal {
	var sum decimal.Decimal
	for _, a := range e.byName[endpoint.TransferHistory].(*TransferHistoryCollector).accounts {
		if a.account != account {
			continue
		}
		for _, tot := range a.snap.Load().totals {
			if tot.Labels[0] == token && tot.Labels[1] == direction {
				sum = sum.Add(tot.Amount)
			}
		}
	}
	return sum
}

// Every completed transfer is counted once: polled again, completed after
// it was first read in flight, listed late, and across a restart from the
// state file, which also keeps the token history's state.
func TestTransfersAreCountedOnceAcrossPollsLateRowsAndARestart(t *testing.T) {
	s := &fakeexchange.Scenario{Accounts: transferAccounts(), LateListing: &fakeexchange.LateListing{Share: 0, Delay: 30 * time.Minute}}
	s.Accounts[0].AccountTransfers = []fakeexchange.AccountTransfer{transferOut(1, "USDT", "10", "sub", 10*time.Minute)}
	r := newRig(t, s)
	path := filepath.Join(t.TempDir(), "state.json")
	store, err := openState(path, historyNow)
	if err != nil {
		t.Fatal(err)
	}
	e := transferExporter(t, r, store, endpoint.TransferHistory)
	// In flight, then completed; a transfer created 20 minutes ago that the
	// exchange lists only now (late).
	put := func(tr fakeexchange.AccountTransfer) {
		t.Helper()
		if err := r.fake.Apply(fakeexchange.Event{AccountTransfer: &fakeexchange.Change[fakeexchange.AccountTransfer]{Account: "main",
			Row: tr}}); err != nil {
			t.Fatal(err)
		}
	}
	pending := transferOut(2, "USDT", "5", "sub", 0)
	pending.Status = "PENDING"
	put(pending)
	for range 3 {
		r.clock.Add(time.Minute)
		pollAll(e)
	}
	if got := transferTotal(e, "main", "USDT", ledger.DirectionOut); !got.Equal(dec("10")) {
		t.Fatalf("out %s, want 10 before the pending one completes", got)
	}
	pending.Status = "COMPLETED"
	pending.CreatedTime = 0
	put(pending)
	late := transferOut(3, "USDT", "1", "sub", 20*time.Minute)
	put(late)
	for range 2 {
		r.clock.Add(time.Minute)
		pollAll(e)
	}
	if got := transferTotal(e, "sub", "USDT", ledger.DirectionIn); !got.Equal(dec("16")) {
		t.Fatalf("sub in %s, want 16", got)
	}
	// A restart from the saved state counts nothing again.
	store2, err := openState(path, historyNow)
	if err != nil {
		t.Fatal(err)
	}
	r.clock.Add(time.Minute)
	e2 := transferExporter(t, r, store2, endpoint.TransferHistory)
	for _, acct := range []string{"main", "sub"} {
		dir := map[string]string{"main": ledger.DirectionOut, "sub": ledger.DirectionIn}[acct]
		if got := transferTotal(e2, acct, "USDT", dir); !got.Equal(dec("16")) {
			t.Errorf("%s after the restart: %s, want 16", acct, got)
		}
	}
	put(transferOut(4, "USDT", "4", "sub", 0))
	r.clock.Add(time.Minute)
	pollAll(e2)
	if got := transferTotal(e2, "main", "USDT", ledger.DirectionOut); !got.Equal(dec("20")) {
		t.Errorf("out after a new transfer: %s, want 20", got)
	}
}

// A transfer listed later than it happened (the fake's late listing) is
// counted once by the next poll that sees it.
func TestLateListedTransfersAreCountedOnce(t *testing.T) {
	s := &fakeexchange.Scenario{Accounts: transferAccounts(), LateListing: &fakeexchange.LateListing{Share: 1, Delay: 30 * time.Minute}}
	s.Accounts[0].AccountTransfers = []fakeexchange.AccountTransfer{transferOut(1, "USDT", "10", "sub", 10*time.Minute)}
	r := newRig(t, s)
	e := transferExporter(t, r, nil, endpoint.TransferHistory)
	if got := transferTotal(e, "main", "USDT", ledger.DirectionOut); !got.IsZero() {
		t.Fatalf("counted %s before it was listed", got)
	}
	for range 25 {
		r.clock.Add(time.Minute)
		pollAll(e)
	}
	if got := transferTotal(e, "main", "USDT", ledger.DirectionOut); !got.Equal(dec("10")) {
		t.Fatalf("out %s, want 10 once listed", got)
	}
}

// The token history's SUB_ACCOUNT_TRANSFER inflow and outflow of each
// account equal its transfers in and out.
func TestSubAccountTransferHistoryAgreesWithTransfers(t *testing.T) {
	s := &fakeexchange.Scenario{Accounts: transferAccounts()}
	s.Accounts[0].AccountTransfers = []fakeexchange.AccountTransfer{
		transferOut(1, "USDT", "250", "sub", 30*time.Minute),
		{ID: 2, Token: "USDT", Amount: "0.125", Direction: "in", Counterparty: "sub", CreatedTime: historyNow.Add(-20 * time.Minute).UnixMilli()},
	}
	s.Accounts[1].AccountTransfers = []fakeexchange.AccountTransfer{transferOut(3, "BTC", "0.5", "main", 15*time.Minute)}
	r := newRig(t, s)
	e := transferExporter(t, r, nil, endpoint.TransferHistory, endpoint.TokenHistory)
	if err := r.fake.Apply(fakeexchange.Event{AccountTransfer: &fakeexchange.Change[fakeexchange.AccountTransfer]{Account: "sub",
		Row: transferOut(4, "USDT", "3", "main", 0)}}); err != nil {
		t.Fatal(err)
	}
	r.clock.Add(time.Minute)
	pollAll(e)
	checked := 0
	for _, acct := range []string{"main", "sub"} {
		for _, tot := range e.ledgers[acct].Load().Snapshot().Totals {
			if tot.Type != "SUB_ACCOUNT_TRANSFER" {
				continue
			}
			checked++
			if in := transferTotal(e, acct, tot.Token, ledger.DirectionIn); !in.Equal(tot.Inflow) {
				t.Errorf("%s %s: token history inflow %s, transfers in %s", acct, tot.Token, tot.Inflow, in)
			}
			if out := transferTotal(e, acct, tot.Token, ledger.DirectionOut); !out.Equal(tot.Outflow) {
				t.Errorf("%s %s: token history outflow %s, transfers out %s", acct, tot.Token, tot.Outflow, out)
			}
		}
	}
	if checked != 4 {
		t.Errorf("%d token history totals of SUB_ACCOUNT_TRANSFER, want 4 (USDT and BTC of each account)", checked)
	}
}

// A poll that cannot learn the account's applicationId fails and exports
// nothing; the next one learns it.
func TestTransfersNeedTheAccountsApplicationID(t *testing.T) {
	s := &fakeexchange.Scenario{Accounts: transferAccounts()[:1]}
	s.Accounts[0].AccountTransfers = []fakeexchange.AccountTransfer{{ID: 1, Token: "USDT", Amount: "1", CounterpartyApplicationID: "x"}}
	r := newRig(t, s)
	r.fake.InjectFault(fakeexchange.Fault{Kind: fakeexchange.FaultSuccessFalse, Endpoint: endpoint.AccountInfo, Count: 1})
	e := transferExporter(t, r, nil, endpoint.TransferHistory)
	if st := e.pollers[0].lastStatus(); st.success {
		t.Fatal("a poll without the applicationId succeeded")
	}
	e.pollers[0].pollOnce(context.Background())
	if got := transferTotal(e, "main", "USDT", ledger.DirectionOut); !got.Equal(dec("1")) {
		t.Errorf("out %s after the applicationId was learned, want 1", got)
	}
}
