package client

import "testing"

// Every encoding of a flag seen elsewhere reads the same, in camelCase and
// snake_case: true/false, 1/0, and strings of either.
func TestDecodeTokenConfigFlagsInEveryEncoding(t *testing.T) {
	for _, c := range []struct {
		on, off string
	}{{`true`, `false`}, {`1`, `0`}, {`"true"`, `"false"`}, {`"1"`, `"0"`}, {`"TRUE"`, `"False"`}, {`1.0`, `0.0`}} {
		for _, spelling := range [][4]string{
			{"collateralRatio", "collateral", "canCollateral", "canShort"},
			{"collateral_ratio", "collateral", "can_collateral", "can_short"},
		} {
			body := `{"success":true,"data":{"rows":[{"token":"BTC","` + spelling[0] + `":"0.85","` + spelling[1] + `":` + c.on +
				`,"` + spelling[2] + `":` + c.off + `,"` + spelling[3] + `":` + c.on + `}]}}`
			l, err := decodeTokenConfigs(mustData(t, body))
			if err != nil || len(l.rejected) != 0 || len(l.rows) != 1 {
				t.Fatalf("%s: %+v, %v", body, l, err)
			}
			r := l.rows[0]
			if !r.Collateral || r.CanCollateral || r.CanShort == nil || !*r.CanShort || r.CollateralRatio.String() != "0.85" {
				t.Errorf("%s: %+v", body, r)
			}
		}
	}
}

// A token config row that cannot be read is left out naming its token and
// field; the other rows are read.
func TestDecodeTokenConfigRejectsOddRows(t *testing.T) {
	row := `"token":"LTC","collateralRatio":"0.5","collateral":true,"canCollateral":true`
	checkOddRows(t, "rows", `{"token":"BTC","collateralRatio":"0.85","collateral":true,"canCollateral":true,"marginMaxLeverage":10}`,
		`{"token":"WOO","collateral_ratio":0.6,"collateral":0,"can_collateral":"0","can_short":"false","margin_factor":"0.00000025"}`,
		decodeTokenConfigs, []oddRow{
			{"no token", `{"collateralRatio":"0.5","collateral":true,"canCollateral":true}`, "", "token", "token: missing"},
			{"no ratio", `{"token":"LTC","collateral":true,"canCollateral":true}`, "token LTC", "collateralRatio", "collateralRatio: missing"},
			{"ratio not a number", `{"token":"LTC","collateralRatio":"85%","collateral":true,"canCollateral":true}`,
				"token LTC", "collateralRatio", `collateralRatio: invalid decimal "85%"`},
			{"no collateral flag", `{"token":"LTC","collateralRatio":"0.5","canCollateral":true}`, "token LTC", "collateral", "collateral: missing"},
			{"no can-collateral flag", `{"token":"LTC","collateralRatio":"0.5","collateral":true}`, "token LTC", "canCollateral", "canCollateral: missing"},
			{"flag a word", `{` + row + `,"canShort":"yes"}`, "token LTC", "canShort", `canShort: invalid flag "yes"`},
			{"flag an object", `{"token":"LTC","collateralRatio":"0.5","collateral":{},"canCollateral":true}`, "token LTC", "collateral", "collateral: expected a number or string"},
			{"leverage not a number", `{` + row + `,"marginMaxLeverage":"ten"}`, "token LTC", "marginMaxLeverage", `marginMaxLeverage: invalid decimal "ten"`},
			{"two spellings", `{` + row + `,"collateral_ratio":"0.4"}`, "", "collateralRatio", `fields "collateralRatio" and "collateral_ratio" disagree`},
		})
}
