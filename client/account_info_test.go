package client

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// Fee rates arrive in basis points (2 is 0.02 %) and are read as ratios.
func TestDecodeAccountInfoSpellingsAndNumberForms(t *testing.T) {
	for name, body := range map[string]string{
		"camelCase strings": `{"success":true,"data":{"applicationId":"a1","account":"main","accountMode":"FUTURES","leverage":"10",
			"marginRatio":"3.5","openMarginRatio":"3.4","initialMarginRatio":"0.1","maintenanceMarginRatio":"0.03",
			"totalCollateral":"12345.678901234567890123","freeCollateral":"1000","totalAccountValue":"13000",
			"takerFeeRate":"5","makerFeeRate":"2","futuresTakerFeeRate":"6","futuresMakerFeeRate":"-1","newField":{"x":1}}}`,
		"snake_case numbers": `{"success":true,"data":{"application_id":"a1","account":"main","account_mode":"FUTURES","leverage":10,
			"margin_ratio":3.5,"open_margin_ratio":3.4,"initial_margin_ratio":0.1,"maintenance_margin_ratio":0.03,
			"total_collateral":12345.678901234567890123,"free_collateral":1000,"total_account_value":13000,
			"taker_fee_rate":5,"maker_fee_rate":2,"futures_taker_fee_rate":6,"futures_maker_fee_rate":-1}}`,
	} {
		t.Run(name, func(t *testing.T) {
			info, err := decodeAccountInfo(mustData(t, body))
			if err != nil {
				t.Fatal(err)
			}
			if info.AccountMode != "FUTURES" {
				t.Errorf("account mode %q", info.AccountMode)
			}
			for field, got := range map[string]*decimal.Decimal{
				"10": info.Leverage, "3.5": info.MarginRatio, "3.4": info.OpenMarginRatio, "0.1": info.InitialMarginRatio,
				"0.03": info.MaintenanceMarginRatio, "12345.678901234567890123": info.TotalCollateral, "1000": info.FreeCollateral,
				"13000": info.TotalAccountValue, "0.0005": info.TakerFeeRate, "0.0002": info.MakerFeeRate,
				"0.0006": info.FuturesTakerFeeRate, "-0.0001": info.FuturesMakerFeeRate,
			} {
				if got == nil || !got.Equal(decimal.RequireFromString(field)) {
					t.Errorf("want %s, got %v", field, got)
				}
			}
		})
	}
}

func TestDecodeAccountInfoMissingFieldsAreNil(t *testing.T) {
	info, err := decodeAccountInfo(mustData(t, `{"success":true,"data":{"marginRatio":"","leverage":null,"takerFeeRate":"5"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if info.AccountMode != "" || info.MarginRatio != nil || info.Leverage != nil || info.TotalCollateral != nil || info.MakerFeeRate != nil {
		t.Errorf("absent, empty and null fields should be nil: %+v", info)
	}
	if info.TakerFeeRate == nil || info.TakerFeeRate.String() != "0.0005" {
		t.Errorf("taker fee rate %v", info.TakerFeeRate)
	}
}

func TestDecodeAccountInfoErrorsNameTheField(t *testing.T) {
	for body, want := range map[string]string{
		`{"success":true,"data":{"marginRatio":"1.2.3"}}`:                      "marginRatio: invalid decimal",
		`{"success":true,"data":{"marginRatio":"1","margin_ratio":"2"}}`:       `fields "marginRatio" and "margin_ratio" disagree`,
		`{"success":true,"data":{"totalCollateral":{"v":1}}}`:                  "totalCollateral",
		`{"success":true,"data":[1,2]}`:                                        "expected an object",
		`{"success":true,"data":null}`:                                         "no data",
		`{"success":true,"data":{"leverage":true}}`:                            "leverage: invalid decimal",
		`{"success":true,"data":{"accountMode":["FUTURES"],"leverage":"1"}}`:   "accountMode",
		`{"success":true,"data":{"margin_ratio":"1e99999999999999999999"}}`:    "marginRatio: invalid decimal",
		`{"success":true,"data":{"marginRatio":"1","margin_ratio":"1","x":1}}`: "",
	} {
		_, err := decodeAccountInfo(mustData(t, body))
		if want == "" {
			if err != nil {
				t.Errorf("%s: two spellings with one value should decode, got %v", body, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want it to contain %q", body, err, want)
		}
	}
}
