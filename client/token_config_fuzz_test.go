package client

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"
)

// FuzzDecodeTokenConfig checks what decodeTokenConfigs returns against the
// raw rows, read by encoding/json: every field exactly, each flag by its
// text, no token twice, one row corrupted costing that row only.
func FuzzDecodeTokenConfig(f *testing.F) {
	addAnswerSeeds(f)
	f.Add([]byte(`{"success":true,"data":{"rows":[{"token":"BTC","collateralRatio":"0.85","marginFactor":"0.00000023","collateral":true,"canCollateral":true,"canShort":true,"marginMaxLeverage":10,"marginMaxPosition":100000000000},{"token":"WOO","collateralRatio":"0.6","marginFactor":0.00000025,"collateral":false,"canCollateral":false,"canShort":false,"marginMaxLeverage":5,"marginMaxPosition":100000000000}]},"timestamp":1721351502594}`))
	f.Add([]byte(`{"success":true,"data":{"rows":[{"token":"ETH","collateral_ratio":"0.85","collateral":"1","can_collateral":0,"can_short":"False","margin_max_leverage":"10"},{"token":"ETH","collateralRatio":1,"collateral":1,"canCollateral":1}],"meta":{"total":"2"}}}`))
	f.Add([]byte(`{"success":true,"data":{"rows":[{"token":"X","collateralRatio":"1e-3","collateral":"yes","canCollateral":null},{"token":"Y","collateralRatio":"0","collateral":2,"canCollateral":"0.0","canShort":""}]}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		decodeAnswer(t, body, func(d json.RawMessage) error {
			l, err := decodeTokenConfigs(d)
			if err != nil {
				return err
			}
			raw := rawRowsAnySpelling(t, d, "rows")
			seen := map[string]bool{}
			for j, i := range readIndexes(t, l, len(raw)) {
				c := l.rows[j]
				checkTokenConfigRow(t, raw[i], c)
				if seen[c.Token] {
					t.Fatalf("row %d: token %q listed twice but decoded", i, c.Token)
				}
				seen[c.Token] = true
			}
			checkOneRowCorrupted(t, "rows", raw, len(body), decodeTokenConfigs)
			return nil
		})
	})
}

// rawFlag is what a flag's raw text says: true and false in any case, or a
// number that is not 0; ok false when the text is neither.
func rawFlag(text string) (on, ok bool) {
	switch strings.ToLower(text) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	if strings.ContainsAny(text, "/xXbBoO_") { // big.Rat reads fractions and prefixes; the exchange sends neither
		return false, false
	}
	r, ok := new(big.Rat).SetString(text)
	return ok && r.Sign() != 0, ok
}

func checkTokenConfigRow(t *testing.T, raw json.RawMessage, c TokenConfig) {
	t.Helper()
	if want := rawField(t, raw, "token"); c.Token != want || c.Token == "" {
		t.Fatalf("token %q, raw %q", c.Token, want)
	}
	ratio := c.CollateralRatio
	assertDecimalField(t, raw, "collateralRatio", &ratio)
	assertDecimalField(t, raw, "marginFactor", c.MarginFactor)
	assertDecimalField(t, raw, "marginMaxLeverage", c.MarginMaxLeverage)
	assertDecimalField(t, raw, "marginMaxPosition", c.MarginMaxPosition)
	for field, got := range map[string]*bool{"collateral": &c.Collateral, "canCollateral": &c.CanCollateral, "canShort": c.CanShort} {
		text := rawField(t, raw, field)
		if got == nil {
			if text != "" {
				t.Fatalf("%s %q present but decoded as absent", field, text)
			}
			continue
		}
		if on, ok := rawFlag(text); !ok || on != *got {
			t.Fatalf("%s %q decoded as %v", field, text, *got)
		}
	}
}
