package collector

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/ledger"
)

// Odd bytes in every label (TestInvalidUTF8AndOddLabelValuesDoNotBreakTheScrape).
var _ = addOddAnswer(endpoint.FundingFee, oddAnswer{path: endpoint.PathOf(endpoint.FundingFee), family: "woox_funding_fee_payments_total",
	body: `{"success":true,"data":{"rows":[` +
		`{"id":"f\xff1","symbol":"PERP_\xffBTC_USDT","fundingFee":"1","paymentType":"Pay","createdTime":` + oddCreated + `},` +
		`{"id":"f\xfe1","symbol":"` + oddLong + `","fundingFee":"2","paymentType":"Receive","status":"COMPLETED","createdTime":` + oddCreated + `}` +
		`]},"timestamp":1700000000000}`})

// payment is a completed funding payment of main's, ago before the rig's
// start.
func payment(id int64, symbol, fee, kind string, ago time.Duration) fakeexchange.FundingFee {
	return fakeexchange.FundingFee{ID: id, Symbol: symbol, FundingFee: fee, PaymentType: kind, Status: "COMPLETED",
		CreatedTime: historyNow.Add(-ago).UnixMilli()}
}

// fundingFeeExporter polls main's funding fees alone, with the state store
// when not nil (and a handoff when not nil), once.
func fundingFeeExporter(t *testing.T, r *rig, store StateStore, handoff *Handoff) *Exporter {
	t.Helper()
	cfg := r.config()
	cfg.Public, cfg.Collectors, cfg.State, cfg.Handoff = nil, map[string]bool{}, nil, handoff
	if store != nil {
		cfg.State = store
	}
	for _, ep := range endpoint.All {
		cfg.Collectors[ep.Name] = ep.Name == endpoint.FundingFee
	}
	e := newExporter(t, cfg)
	pollAll(e)
	return e
}

// fundingPaid is the amount main shows paid (or received) of symbol.
func fundingShown(e *Exporter, symbol, direction string) decimal.Decimal {
	c := e.byName[endpoint.FundingFee].(*perAccount[[]ledger.TallyTotal])
	for _, tot := range *c.accounts[0].load() {
		if tot.Labels[0] == symbol && tot.Labels[1] == direction {
			return tot.Amount
		}
	}
	return decimal.Zero
}

// Payments by symbol and direction, fees summed unsigned; one not completed
// nowhere.
func TestFundingFeeMetrics(t *testing.T) {
	a := mainAccount()
	pending := payment(5, "PERP_BTC_USDT", "100", "Pay", time.Minute)
	pending.Status = "PENDING"
	a.FundingFees = []fakeexchange.FundingFee{payment(1, "PERP_BTC_USDT", "9.56021744", "Pay", 40*time.Minute),
		payment(2, "PERP_BTC_USDT", "0.43", "Pay", 30*time.Minute), payment(3, "PERP_BTC_USDT", "43.14503239", "Receive", 20*time.Minute),
		payment(4, "PERP_ETH_USDT", "1.5", "Receive", 10*time.Minute), pending}
	r := newRig(t, &fakeexchange.Scenario{Accounts: []fakeexchange.Account{a}})
	e := fundingFeeExporter(t, r, nil, nil)
	expectMetrics(t, e.byName[endpoint.FundingFee], "funding_fee.metrics")
}

// Every payment is counted once: polled again, completed after it was first
// read pending, listed late within the late window, across a reload
// (handoff) and a restart from the state file; the totals are shown only
// once the state file holds them.
func TestFundingFeesAreCountedOnceAcrossPollsLateRowsReloadsAndRestarts(t *testing.T) {
	a := mainAccount()
	a.FundingFees = []fakeexchange.FundingFee{payment(1, "PERP_BTC_USDT", "10", "Pay", 10*time.Minute)}
	r := newRig(t, &fakeexchange.Scenario{Accounts: []fakeexchange.Account{a}})
	put := func(f fakeexchange.FundingFee) {
		t.Helper()
		if err := r.fake.Apply(fakeexchange.Event{FundingFee: &fakeexchange.Change[fakeexchange.FundingFee]{Account: "main",
			Row: f}}); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "state.json")
	store, err := openState(path, historyNow)
	if err != nil {
		t.Fatal(err)
	}
	e := fundingFeeExporter(t, r, store, nil)
	pending := payment(2, "PERP_BTC_USDT", "5", "Pay", 0)
	pending.Status = "PENDING"
	put(pending)
	for range 2 {
		r.clock.Add(time.Minute)
		pollAll(e)
	}
	if got := fundingShown(e, "PERP_BTC_USDT", "paid"); !got.Equal(dec("10")) {
		t.Fatalf("paid %s, want 10 before the pending one completes", got)
	}
	pending.Status = "COMPLETED"
	put(pending)
	put(payment(3, "PERP_BTC_USDT", "1", "Pay", 20*time.Minute)) // listed late
	for range 2 {
		r.clock.Add(time.Minute)
		pollAll(e)
	}
	if got := fundingShown(e, "PERP_BTC_USDT", "paid"); !got.Equal(dec("16")) {
		t.Fatalf("paid %s, want 16", got)
	}
	e = fundingFeeExporter(t, r, store, e.Handoff())
	if got := fundingShown(e, "PERP_BTC_USDT", "paid"); !got.Equal(dec("16")) {
		t.Fatalf("paid after a reload %s, want 16", got)
	}
	store2, err := openState(path, historyNow)
	if err != nil {
		t.Fatal(err)
	}
	r.clock.Add(time.Minute)
	failing := &failingStore{StateStore: store2}
	e = fundingFeeExporter(t, r, failing, nil)
	if got := fundingShown(e, "PERP_BTC_USDT", "paid"); !got.Equal(dec("16")) {
		t.Fatalf("paid after a restart %s, want 16", got)
	}
	// A save that fails keeps the totals shown as they were.
	failing.failing = true
	put(payment(4, "PERP_BTC_USDT", "4", "Receive", 0))
	r.clock.Add(time.Minute)
	pollAll(e)
	if got := fundingShown(e, "PERP_BTC_USDT", "received"); !got.IsZero() {
		t.Errorf("received %s shown before it was saved", got)
	}
	failing.failing = false
	r.clock.Add(time.Minute)
	pollAll(e)
	if got := fundingShown(e, "PERP_BTC_USDT", "received"); !got.Equal(dec("4")) {
		t.Errorf("received %s once saved, want 4", got)
	}
}

// Beyond the series cap, symbols are counted under __other__.
func TestFundingFeeSymbolsBeyondTheCapAreFolded(t *testing.T) {
	a := mainAccount()
	for i, symbol := range []string{"PERP_A_USDT", "PERP_B_USDT", "PERP_C_USDT"} {
		a.FundingFees = append(a.FundingFees, payment(int64(i+1), symbol, "1", "Pay", time.Duration(i+1)*time.Minute))
	}
	r := newRig(t, &fakeexchange.Scenario{Accounts: []fakeexchange.Account{a}})
	cfg := r.config()
	cfg.Public, cfg.Collectors, cfg.SeriesPerEndpoint = nil, map[string]bool{}, 2
	for _, ep := range endpoint.All {
		cfg.Collectors[ep.Name] = ep.Name == endpoint.FundingFee
	}
	e := newExporter(t, cfg)
	pollAll(e)
	if got := fundingShown(e, ledger.Other, "paid"); !got.Equal(dec("1")) {
		t.Errorf("__other__ paid %s, want the third symbol's 1", got)
	}
}

// A funding fee section as the exporter wrote it before restores exactly.
func TestAFundingFeeSectionWrittenBeforeRestores(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	doc := `{"version": 1, "accounts": {}, "funding_fees": {"main": {"cursor_ms": 1700000200000, "horizon_ms": 1699913800000,
  "seen": [{"id": "7", "latest_ms": 1700000100000}],
  "totals": [{"labels": ["PERP_BTC_USDT", "paid"], "records": 1, "amount": "0.000123456789", "last_ms": 1700000100000}]}}}`
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := openState(path, historyNow)
	if err != nil || s.Corruption() != nil {
		t.Fatalf("open: %v, corruption %v", err, s.Corruption())
	}
	want := ledger.TallyState{CursorMs: 1700000200000, HorizonMs: 1699913800000, Seen: []ledger.SeenTransfer{{ID: "7", LatestMs: 1700000100000}},
		Totals: []ledger.TallyTotalText{{Labels: []string{"PERP_BTC_USDT", "paid"}, Records: 1, Amount: "0.000123456789", LastMs: 1700000100000}}}
	if got, ok := s.SectionState(fundingFees.section, "main"); !ok || !reflect.DeepEqual(got, want) {
		t.Errorf("restored %+v, want %+v", got, want)
	}
}
