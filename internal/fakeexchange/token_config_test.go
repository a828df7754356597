package fakeexchange

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

func tokenConfigRows(t *testing.T, r reply) []map[string]any {
	t.Helper()
	raw, ok := dataOf(t, wantOK(t, r))["rows"].([]any)
	if !ok {
		t.Fatalf("no rows array in %s", r.body)
	}
	out := make([]map[string]any, len(raw))
	for i, row := range raw {
		out[i] = row.(map[string]any)
	}
	return out
}

// The demo's rows take the shape of the docs example: flags JSON booleans,
// ratios strings, the maxima JSON numbers; with every number a string, the
// flags are strings too.
func TestTokenConfigHasTheDocsShape(t *testing.T) {
	for _, suffix := range []string{".json", "_strings.json"} {
		t.Run("docs_token_config"+suffix, func(t *testing.T) {
			s := testScenario()
			s.NumbersAsStrings = suffix == "_strings.json"
			s.Accounts[0].TokenConfig = DefaultScenario().Accounts[0].TokenConfig
			r := newHarness(t, s).get(PathTokenConfig, "", "a1")
			want := captureShape(t, "docs_token_config"+suffix)
			if s.NumbersAsStrings {
				for _, f := range []string{"collateral", "canCollateral", "canShort"} {
					want[".data.rows[]."+f] = "string"
				}
			}
			compareShapes(t, shapeOf(t, r), want)
		})
	}
}

// Each reading sends the flags its way: true/false, 1/0, "true"/"false",
// "1"/"0"; snake_case bodies spell the fields in snake_case.
func TestTokenConfigFlagsInEveryReading(t *testing.T) {
	for _, c := range []struct {
		name        string
		mode        func(*Scenario)
		field, want string
	}{
		{"docs", func(*Scenario) {}, "canCollateral", "true false"},
		{"json numbers", func(s *Scenario) { s.NumbersAsJSONNumbers = true }, "canCollateral", "1 0"},
		{"all strings", func(s *Scenario) { s.NumbersAsStrings = true }, "canCollateral", `"true" "false"`},
		{"snake case", func(s *Scenario) { s.SnakeCaseBodies = true }, "can_collateral", "1 0"},
		{"snake case, all strings", func(s *Scenario) { s.SnakeCaseBodies, s.NumbersAsStrings = true, true }, "can_collateral", `"1" "0"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := testScenario()
			c.mode(s)
			s.Accounts[0].TokenConfig = []TokenConfig{TokenConfigRow("BTC", "0.85", true), TokenConfigRow("WOO", "0.6", false)}
			rows := tokenConfigRows(t, newHarness(t, s).get(PathTokenConfig, "", "a1"))
			var got []string
			for _, row := range rows {
				v, ok := row[c.field]
				if !ok {
					t.Fatalf("no %s in %v", c.field, row)
				}
				if str, isString := v.(string); isString {
					v = `"` + str + `"`
				}
				got = append(got, fmt.Sprint(v))
			}
			if strings.Join(got, " ") != c.want {
				t.Errorf("%s = %v, want %s", c.field, got, c.want)
			}
		})
	}
}

// An event cuts a ratio and stops a token counting as collateral, adds a
// token and removes one; other accounts see none of it; the endpoint takes
// no query parameter.
func TestTokenConfigEvents(t *testing.T) {
	s := testScenario()
	s.Accounts[0].TokenConfig = []TokenConfig{TokenConfigRow("BTC", "0.85", true), TokenConfigRow("WOO", "0.6", false)}
	h := newHarness(t, s)
	no := false
	for _, c := range []Change[TokenConfig]{
		{Account: "a", Row: TokenConfig{Token: "BTC", CollateralRatio: "0.5", Collateral: &no}},
		{Account: "a", Row: TokenConfigRow("ETH", "0.8", true)},
		{Account: "a", Row: TokenConfig{Token: "WOO"}, Remove: true},
	} {
		if err := h.ex.Apply(Event{TokenConfig: &c}); err != nil {
			t.Fatal(err)
		}
	}
	rows := tokenConfigRows(t, h.get(PathTokenConfig, "", "a1"))
	got := fmt.Sprint(rows)
	want := "[map[canCollateral:true collateral:false collateralRatio:0.5 token:BTC] map[canCollateral:true collateral:true collateralRatio:0.8 token:ETH]]"
	if got != want {
		t.Errorf("rows %s,\nwant %s", got, want)
	}
	if err := h.ex.Apply(Event{TokenConfig: &Change[TokenConfig]{Account: "a", Row: TokenConfig{Token: "WOO"}, Remove: true}}); err == nil {
		t.Error("removing a token the account does not list succeeded")
	}
	if rows := tokenConfigRows(t, h.get(PathTokenConfig, "", "b1")); len(rows) != 0 {
		t.Errorf("account b sees a's rows: %v", rows)
	}
	wantError(t, h.get(PathTokenConfig, "page=2", "a1"), http.StatusBadRequest, "-1004")
}

func TestTokenConfigScenarioErrors(t *testing.T) {
	for yaml, want := range map[string]string{
		"accounts: [{name: a, token_config: [{collateral_ratio: '1'}]}]":                                          "token_config[0].token: must not be empty",
		"accounts: [{name: a, token_config: [{token: X, collateral_ratio: '85%'}]}]":                              "collateral_ratio: not a decimal",
		"accounts: [{name: a, token_config: [{token: X, margin_max_position: '.5'}]}]":                            "margin_max_position: not a decimal",
		"accounts: [{name: a, token_config: [{token: X}, {token: X}]}]":                                           `token_config[1].token: duplicate "X"`,
		"accounts: [{name: a}]\nevents: [{after: 1s, token_config: {account: z, token: X}}]":                      "events[0].token_config.account: unknown account",
		"accounts: [{name: a}]\nevents: [{after: 1s, token_config: {account: a, remove: true}}]":                  "events[0].token_config.token: must not be empty",
		"accounts: [{name: a}]\nevents: [{after: 1s, token_config: {account: a, token: X, collateral_ratio: x}}]": "collateral_ratio: not a decimal",
	} {
		if _, err := ParseScenario([]byte(yaml)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want it to contain %q", yaml, err, want)
		}
	}
}
