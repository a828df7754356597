package collector

import (
	"context"
	"testing"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// Odd bytes in every label (TestInvalidUTF8AndOddLabelValuesDoNotBreakTheScrape).
var _ = addOddAnswer(endpoint.SymbolConfig, oddAnswer{path: endpoint.PathOf(endpoint.SymbolConfig), family: "woox_symbol_max_leverage",
	body: `{"success":true,"data":{"rows":[` +
		`{"symbol":"PERP_B\xffTC_USDT","margin_factor":"0.00000023","maxLeverage":50,"maxPosition":100000000000},` +
		`{"symbol":"` + oddLong + `","maxLeverage":"20"},` +
		`{"symbol":"PERP_E\xc3\x28TH_USDT","marginFactor":"0.1","max_leverage":10}` +
		`]},"timestamp":1700000000000}`})

// symbolConfigRig polls the symbol config of account "main" listing the
// docs example's rows, encoded as mode asks.
func symbolConfigRig(t *testing.T, mode func(*fakeexchange.Scenario)) (*rig, *Exporter) {
	t.Helper()
	main := mainAccount()
	main.SymbolConfig = fakeexchange.DefaultScenario().Accounts[0].SymbolConfig
	s := &fakeexchange.Scenario{Accounts: []fakeexchange.Account{main}}
	mode(s)
	r := newRig(t, s)
	return r, onlyEndpoint(t, r, endpoint.SymbolConfig)
}

func TestSymbolConfigInEveryEncoding(t *testing.T) {
	for name, mode := range encodings {
		t.Run(name, func(t *testing.T) {
			_, e := symbolConfigRig(t, mode)
			expectMetrics(t, e.byName[endpoint.SymbolConfig], "symbol_config.metrics")
		})
	}
}

// A max leverage cut and a margin factor raised show with the next poll; a
// symbol the exchange stops listing disappears, a new one appears.
func TestSymbolConfigCut(t *testing.T) {
	r, e := symbolConfigRig(t, func(*fakeexchange.Scenario) {})
	for _, c := range []fakeexchange.Change[fakeexchange.SymbolConfig]{
		{Account: "main", Row: fakeexchange.SymbolConfig{Symbol: "PERP_BTC_USDT", MaxLeverage: "20"}},
		{Account: "main", Row: fakeexchange.SymbolConfig{Symbol: "PERP_ETH_USDT", MarginFactor: "0.0000005"}},
		{Account: "main", Row: fakeexchange.SymbolConfig{Symbol: "PERP_WOO_USDT"}, Remove: true},
		{Account: "main", Row: fakeexchange.SymbolConfig{Symbol: "PERP_SOL_USDT", MaxLeverage: "10"}},
	} {
		if err := r.fake.Apply(fakeexchange.Event{SymbolConfig: &c}); err != nil {
			t.Fatal(err)
		}
	}
	e.pollers[0].pollOnce(context.Background())
	if st := e.pollers[0].lastStatus(); !st.success {
		t.Fatal("symbol config poll failed")
	}
	expectMetrics(t, e.byName[endpoint.SymbolConfig], "symbol_config_cut.metrics")
}
