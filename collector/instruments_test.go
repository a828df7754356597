package collector

import (
	"context"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// Odd bytes in every label (TestInvalidUTF8AndOddLabelValuesDoNotBreakTheScrape).
var _ = addOddAnswer(endpoint.Instruments, oddAnswer{path: endpoint.PathOf(endpoint.Instruments), family: "woox_instrument_trading",
	body: `{"success":true,"data":{"rows":[` +
		`{"symbol":"SPOT_B\xffTC_USDT","status":"TRADING"},` +
		`{"symbol":"` + oddLong + `","status":"\ud800"},` +
		`{"symbol":"PERP_E\xc3\x28TH_USDT","status":"SUSPENDED"}` +
		`]},"timestamp":1700000000000}`})

// onlyPublic is an exporter of the public endpoint name alone over r,
// polled once.
func onlyPublic(t *testing.T, r *rig, name string) *Exporter {
	t.Helper()
	cfg := r.config()
	cfg.Collectors = map[string]bool{}
	for _, ep := range endpoint.All {
		cfg.Collectors[ep.Name] = ep.Name == name
	}
	cfg.Accounts = nil
	e := newExporter(t, cfg)
	if len(e.pollers) != 1 || e.pollers[0].endpoint != name {
		t.Fatalf("pollers %v, want one of %s", e.pollers, name)
	}
	e.pollers[0].pollOnce(context.Background())
	return e
}

// Every status but TRADING, in any letter case, reads as not trading: one
// the docs do not name included.
func TestInstrumentTradingInEveryEncoding(t *testing.T) {
	for name, mode := range encodings {
		t.Run(name, func(t *testing.T) {
			s := &fakeexchange.Scenario{Venue: fakeexchange.Venue{Instruments: []fakeexchange.Instrument{
				{Symbol: "PERP_BTC_USDT", Status: "TRADING", BaseMin: "0.0001", FundingIntervalHours: 8},
				{Symbol: "SPOT_ETH_USDT", Status: "trading"},
				{Symbol: "PERP_WOO_USDT", Status: "SUSPENDED"},
				{Symbol: "SPOT_NEW_USDT", Status: "TESTING"},
				{Symbol: "PERP_ODD_USDT", Status: "HALTED"},
			}}}
			mode(s)
			e := onlyPublic(t, newRig(t, s), endpoint.Instruments)
			expectMetrics(t, e.byName[endpoint.Instruments], "instruments.metrics")
		})
	}
}

// encodings are the readings of the API the fake can send a list in.
var encodings = map[string]func(*fakeexchange.Scenario){
	"docs":                        func(*fakeexchange.Scenario) {},
	"all strings":                 func(s *fakeexchange.Scenario) { s.NumbersAsStrings = true },
	"all numbers":                 func(s *fakeexchange.Scenario) { s.NumbersAsJSONNumbers = true },
	"snake_case (v1)":             func(s *fakeexchange.Scenario) { s.SnakeCaseBodies = true },
	"snake_case with all strings": func(s *fakeexchange.Scenario) { s.SnakeCaseBodies, s.NumbersAsStrings = true, true },
}

// A suspension, a resumption and a new symbol show with the next poll, and
// a symbol the exchange stops listing has no series.
func TestInstrumentSuspendedResumedDelisted(t *testing.T) {
	r := newRig(t, &fakeexchange.Scenario{Venue: fakeexchange.Venue{Instruments: []fakeexchange.Instrument{
		{Symbol: "PERP_BTC_USDT", Status: "TRADING"}, {Symbol: "PERP_WOO_USDT", Status: "TRADING"}, {Symbol: "SPOT_WOO_USDT", Status: "TRADING"}}}})
	e := onlyPublic(t, r, endpoint.Instruments)
	for _, c := range []fakeexchange.Change[fakeexchange.Instrument]{
		{Row: fakeexchange.Instrument{Symbol: "PERP_BTC_USDT", Status: "SUSPENDED"}},
		{Row: fakeexchange.Instrument{Symbol: "PERP_BTC_USDT", Status: "TRADING"}},
		{Row: fakeexchange.Instrument{Symbol: "SPOT_WOO_USDT", Status: "SUSPENDED"}},
		{Row: fakeexchange.Instrument{Symbol: "PERP_WOO_USDT"}, Remove: true},
		{Row: fakeexchange.Instrument{Symbol: "PERP_NEW_USDT", Status: "TESTING"}},
	} {
		if err := r.fake.Apply(fakeexchange.Event{Instrument: &c}); err != nil {
			t.Fatal(err)
		}
	}
	e.pollers[0].pollOnce(context.Background())
	if st := e.pollers[0].lastStatus(); !st.success {
		t.Fatal("instruments poll failed")
	}
	expectMetrics(t, e.byName[endpoint.Instruments], "instruments_changed.metrics")
	if n := testutil.CollectAndCount(e.byName[endpoint.Instruments], "woox_instrument_trading"); n != 3 {
		t.Errorf("%d series, want 3: PERP_WOO_USDT delisted", n)
	}
}
