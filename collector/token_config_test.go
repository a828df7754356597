package collector

import (
	"context"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// Odd bytes in every label (TestInvalidUTF8AndOddLabelValuesDoNotBreakTheScrape).
var _ = addOddAnswer(endpoint.TokenConfig, oddAnswer{path: endpoint.PathOf(endpoint.TokenConfig), family: "woox_token_collateral_ratio",
	body: `{"success":true,"data":{"rows":[` +
		`{"token":"B\xffTC","collateralRatio":"0.85","collateral":true,"canCollateral":true},` +
		`{"token":"` + oddLong + `","collateralRatio":"0.5","collateral":false,"canCollateral":"\ud800"},` +
		`{"token":"E\xc3\x28TH","collateral_ratio":1,"collateral":1,"can_collateral":1}` +
		`]},"timestamp":1700000000000}`})

// tokenConfigRig polls the token config of account "main" of a fake
// exchange listing rows, encoded as mode asks.
func tokenConfigRig(t *testing.T, mode func(*fakeexchange.Scenario), rows ...fakeexchange.TokenConfig) (*rig, *Exporter) {
	t.Helper()
	main := mainAccount()
	main.TokenConfig = rows
	s := &fakeexchange.Scenario{Accounts: []fakeexchange.Account{main}}
	mode(s)
	r := newRig(t, s)
	return r, onlyEndpoint(t, r, endpoint.TokenConfig)
}

// The docs example's rows, USDT counted in full, and a token with only the
// required fields.
func tokenConfigRows() []fakeexchange.TokenConfig {
	return append(fakeexchange.DefaultScenario().Accounts[0].TokenConfig, fakeexchange.TokenConfigRow("SOL", "0.000001", false))
}

func TestTokenConfigMetricsInEveryEncoding(t *testing.T) {
	for name, mode := range map[string]func(*fakeexchange.Scenario){
		"docs":                        func(*fakeexchange.Scenario) {},
		"all strings":                 func(s *fakeexchange.Scenario) { s.NumbersAsStrings = true },
		"all numbers":                 func(s *fakeexchange.Scenario) { s.NumbersAsJSONNumbers = true },
		"snake_case (v1)":             func(s *fakeexchange.Scenario) { s.SnakeCaseBodies = true },
		"snake_case with all strings": func(s *fakeexchange.Scenario) { s.SnakeCaseBodies, s.NumbersAsStrings = true, true },
	} {
		t.Run(name, func(t *testing.T) {
			_, e := tokenConfigRig(t, mode, tokenConfigRows()...)
			expectMetrics(t, e.byName[endpoint.TokenConfig], "token_config.metrics")
		})
	}
}

// A ratio cut and a token no longer used as collateral show with the next
// poll; a token the exchange stops listing disappears; the series cap holds
// the tokens exported.
func TestTokenConfigCutRemoveAndCap(t *testing.T) {
	r, e := tokenConfigRig(t, func(*fakeexchange.Scenario) {}, tokenConfigRows()...)
	c := e.byName[endpoint.TokenConfig]
	poll := func() {
		t.Helper()
		e.pollers[0].pollOnce(context.Background())
		if st := e.pollers[0].lastStatus(); !st.success {
			t.Fatal("token config poll failed")
		}
	}
	// set replaces a token's row of "main", or adds it.
	set := func(row fakeexchange.TokenConfig) {
		t.Helper()
		change := fakeexchange.Change[fakeexchange.TokenConfig]{Account: "main", Row: row, Replace: true}
		if err := r.fake.Apply(fakeexchange.Event{TokenConfig: &change}); err != nil {
			t.Fatal(err)
		}
	}
	set(fakeexchange.TokenConfigRow("BTC", "0.5", false))
	no := false
	set(fakeexchange.TokenConfig{Token: "ETH", CollateralRatio: "0.85", Collateral: &no, CanCollateral: &no})
	set(fakeexchange.TokenConfigRow("SOL", "0.000001", true))
	poll()
	expectMetrics(t, c, "token_config_cut.metrics")

	for _, token := range []string{"BTC", "ETH", "SOL", "USDT", "WOO"} {
		set(fakeexchange.TokenConfig{Token: token})
	}
	poll()
	if n := testutil.CollectAndCount(c); n != 0 {
		t.Errorf("%d series after every row lost its collateral fields (rows rejected)", n)
	}

	// Two rows kept under a cap of 2, the other three counted.
	cfg := r.config()
	cfg.SeriesPerEndpoint, cfg.Public, cfg.Collectors = 2, nil, map[string]bool{}
	for _, ep := range endpoint.All {
		cfg.Collectors[ep.Name] = ep.Name == endpoint.TokenConfig
	}
	for _, token := range []string{"BTC", "ETH", "SOL", "USDT", "WOO"} {
		set(fakeexchange.TokenConfigRow(token, "0.5", true))
	}
	capped := newExporter(t, cfg)
	pollAll(capped)
	if n := testutil.CollectAndCount(capped.byName[endpoint.TokenConfig], "woox_token_collateral_ratio"); n != 2 {
		t.Errorf("%d ratios under a cap of 2", n)
	}
	if n := capped.caps[0].capped.Load(); n != 3 {
		t.Errorf("%d rows counted capped, want 3", n)
	}
}
