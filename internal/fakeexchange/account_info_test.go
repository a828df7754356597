package fakeexchange

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"
)

func dataOf(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	d, ok := m["data"].(map[string]any)
	if !ok {
		t.Fatalf("no data object in %v", m)
	}
	return d
}

func TestAccountInfoSpellingsNumberModesAndOmittedFields(t *testing.T) {
	for _, tc := range []struct {
		name     string
		mod      func(*Scenario)
		ratioKey string
		want     any
	}{
		{"camelCase strings", func(*Scenario) {}, "marginRatio", "2.5"},
		{"snake_case", func(s *Scenario) { s.SnakeCaseBodies = true }, "margin_ratio", "2.5"},
		{"numbers", func(s *Scenario) { s.NumbersAsJSONNumbers = true }, "marginRatio", json.Number("2.5")},
		{"numbers as strings", func(s *Scenario) { s.NumbersAsStrings = true }, "marginRatio", "2.5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := testScenario()
			s.Accounts[0].AccountInfo = &AccountInfo{AccountMode: "FUTURES", MarginRatio: "2.5", MaintenanceMarginRatio: "0.03", TakerFeeRate: "0.0005"}
			tc.mod(s)
			h := newHarness(t, s)
			d := dataOf(t, wantOK(t, h.get(PathAccountInfo, "", "a1")))
			if d[tc.ratioKey] != tc.want {
				t.Errorf("%s = %#v, want %#v in %v", tc.ratioKey, d[tc.ratioKey], tc.want, d)
			}
			for _, absent := range []string{"leverage", "totalCollateral", "total_collateral", "makerFeeRate", "maker_fee_rate"} {
				if _, ok := d[absent]; ok {
					t.Errorf("%s served although the scenario leaves it empty: %v", absent, d)
				}
			}
			// The other account gets the default spot account.
			if b := dataOf(t, wantOK(t, h.get(PathAccountInfo, "", "b1"))); b["accountMode"] != "PURE_SPOT" && b["account_mode"] != "PURE_SPOT" {
				t.Errorf("default account info %v", b)
			}
		})
	}
}

func TestAccountInfoRejectsParametersAndCountsItsOwnBudget(t *testing.T) {
	h := newHarness(t, testScenario(), WithRateLimit(2, time.Minute))
	wantError(t, h.get(PathAccountInfo, "x=1", "a1"), http.StatusBadRequest, "-1004")
	wantOK(t, h.get(PathAccountInfo, "", "a1"))
	wantError(t, h.get(PathAccountInfo, "", "a2"), http.StatusTooManyRequests, "-1003")
	// Another endpoint of the same account, and another account, have
	// their own budgets.
	wantOK(t, h.get(PathBalances, "", "a1"))
	wantOK(t, h.get(PathAccountInfo, "", "b1"))
}

// The margin ratio walks down by its step every interval after Start and
// stops at the maintenance margin ratio; an event changes fields it sets.
func TestMarginRatioWalksToMaintenance(t *testing.T) {
	s := testScenario()
	s.Accounts[0].AccountInfo = &AccountInfo{MarginRatio: "0.1", MaintenanceMarginRatio: "0.03", TakerFeeRate: "0.0005",
		MarginRatioWalk: &Walk{Every: 5 * time.Second, Step: "0.02"}}
	h := newHarness(t, s, WithRateLimit(0, 0))
	ratio := func() any { return dataOf(t, wantOK(t, h.get(PathAccountInfo, "", "a1")))["marginRatio"] }
	if got := ratio(); got != "0.1" {
		t.Fatalf("before Start: %v", got)
	}
	h.ex.Start(context.Background())
	for _, want := range []string{"0.1", "0.08", "0.06", "0.04", "0.03", "0.03"} {
		if got := ratio(); got != want {
			t.Errorf("margin ratio %v, want %s", got, want)
		}
		h.clock.Add(5 * time.Second)
	}
	if err := h.ex.Apply(Event{AccountInfo: &Change[AccountInfo]{Account: "a", Row: AccountInfo{TakerFeeRate: "0.0008"}}}); err != nil {
		t.Fatal(err)
	}
	d := dataOf(t, wantOK(t, h.get(PathAccountInfo, "", "a1")))
	if d["takerFeeRate"] != "0.0008" || d["maintenanceMarginRatio"] != "0.03" {
		t.Errorf("after the event: %v", d)
	}
}
