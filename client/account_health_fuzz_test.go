package client

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// The account health decoders read fields by any spelling; these targets
// check what they return against the raw object, read by encoding/json.

func addHealthSeeds(f *testing.F) {
	addAnswerSeeds(f)
	f.Add([]byte(`{"success":true,"data":{"accountMode":"FUTURES","leverage":"10","marginRatio":"3.5","maintenance_margin_ratio":0.03,"totalCollateral":"1e3","takerFeeRate":"-0.0001"}}`))
	f.Add([]byte(`{"success":true,"data":{"marginRatio":"1","margin_ratio":"1","MARGINRATIO":"2"}}`))
	f.Add([]byte(`{"success":true,"data":{"holding":[{"token":"BTC","holding":"1.5","frozen":0,"available_balance":"1.5","markPrice":"65000.123456789012345678"},{"token":"ETH","staked":"2"}]}}`))
	f.Add([]byte(`{"success":true,"data":{"rows":[{"id":"w1","token":"USDT","tokenSide":"WITHDRAW","amount":"1","status":"PROCESSING","createdTime":"1700000000.123"},{"id":7,"token":"BTC","token_side":"DEPOSIT","status":"NEW","created_time":1700000000123}]}}`))
	f.Add([]byte(`{"success":true,"data":{"rows":[{"applicationId":"a","account":"x","createdTime":1579399877041},{"application_id":"b"}]}}`))
}

// rawField finds field in a raw object under any spelling (case and
// underscores ignored); "" when absent, null or "".
func rawField(t *testing.T, obj json.RawMessage, field string) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(obj, &m); err != nil {
		t.Fatalf("decoded an object encoding/json cannot read: %v", err)
	}
	want := strings.ToLower(field)
	for k, v := range m {
		if strings.ToLower(strings.ReplaceAll(k, "_", "")) == want && string(v) != "null" {
			if s := strings.TrimSpace(jsonScalar(t, v)); s != "" {
				return s
			}
		}
	}
	return ""
}

// assertDecimalField fails unless d is exactly the raw field's number, or
// nil when the field is absent.
func assertDecimalField(t *testing.T, obj json.RawMessage, field string, d *decimal.Decimal) {
	t.Helper()
	assertScaledField(t, obj, field, d, 1)
}

// assertScaledField fails unless d is exactly the raw field's number divided
// by divisor, or nil when the field is absent.
func assertScaledField(t *testing.T, obj json.RawMessage, field string, d *decimal.Decimal, divisor int64) {
	t.Helper()
	text := rawField(t, obj, field)
	if d == nil {
		if text != "" {
			t.Fatalf("%s %q present but decoded as absent", field, text)
		}
		return
	}
	want, ok := new(big.Rat).SetString(text)
	if ok {
		want.Quo(want, big.NewRat(divisor, 1))
	}
	if !ok || want.Cmp(d.Rat()) != 0 {
		t.Fatalf("%s %q decoded as %s", field, text, d)
	}
}

func FuzzDecodeAccountInfo(f *testing.F) {
	addHealthSeeds(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		decodeAnswer(t, body, func(d json.RawMessage) error {
			info, err := decodeAccountInfo(d)
			if err != nil {
				return err
			}
			if info.AccountMode != rawField(t, d, "accountMode") || info.PositionMode != rawField(t, d, "positionMode") {
				t.Fatalf("account mode %q, position mode %q", info.AccountMode, info.PositionMode)
			}
			for field, v := range map[string]*decimal.Decimal{
				"leverage": info.Leverage, "marginRatio": info.MarginRatio, "openMarginRatio": info.OpenMarginRatio,
				"initialMarginRatio": info.InitialMarginRatio, "maintenanceMarginRatio": info.MaintenanceMarginRatio,
				"totalCollateral": info.TotalCollateral, "freeCollateral": info.FreeCollateral, "totalAccountValue": info.TotalAccountValue,
			} {
				assertDecimalField(t, d, field, v)
			}
			// Fee rates come in basis points and are read as ratios.
			for field, v := range map[string]*decimal.Decimal{
				"takerFeeRate": info.TakerFeeRate, "makerFeeRate": info.MakerFeeRate,
				"futuresTakerFeeRate": info.FuturesTakerFeeRate, "futuresMakerFeeRate": info.FuturesMakerFeeRate,
			} {
				assertScaledField(t, d, field, v, 10000)
			}
			return nil
		})
	})
}

func FuzzDecodeBalances(f *testing.F) {
	addHealthSeeds(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		decodeAnswer(t, body, func(d json.RawMessage) error {
			l, err := decodeBalances(d)
			if err != nil {
				return err
			}
			raw := rawRowsAnySpelling(t, d, "holding")
			tokens := map[string]bool{}
			for j, i := range readIndexes(t, l, len(raw)) {
				b := l.rows[j]
				if b.Token == "" || tokens[b.Token] || b.Token != rawField(t, raw[i], "token") {
					t.Fatalf("row %d: token %q (empty, repeated or not the row's)", i, b.Token)
				}
				tokens[b.Token] = true
				assertDecimalField(t, raw[i], "holding", b.Holding)
				assertDecimalField(t, raw[i], "frozen", b.Frozen)
				assertDecimalField(t, raw[i], "staked", b.Staked)
				assertDecimalField(t, raw[i], "availableBalance", b.Available)
				assertDecimalField(t, raw[i], "markPrice", b.MarkPrice)
			}
			checkOneRowCorrupted(t, "holding", raw, len(body), decodeBalances)
			return nil
		})
	})
}

func FuzzDecodeWalletHistory(f *testing.F) {
	addHealthSeeds(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		decodeAnswer(t, body, func(d json.RawMessage) error {
			l, err := decodeWalletHistory(d)
			if err != nil {
				return err
			}
			raw := rawRowsAnySpelling(t, d, "rows")
			for j, i := range readIndexes(t, l, len(raw)) {
				tr := l.rows[j]
				if tr.ID == "" || tr.ID != rawField(t, raw[i], "id") || tr.Token == "" || tr.Side == "" || tr.Status == "" {
					t.Fatalf("row %d decoded without a required field: %+v", i, tr)
				}
				created, _ := json.Marshal(rawField(t, raw[i], "createdTime"))
				if want, ok := timeOracle(t, created); !ok || want != tr.CreatedMs {
					t.Fatalf("row %d: created %s decoded as %d, want %d (valid %v)", i, created, tr.CreatedMs, want, ok)
				}
				assertDecimalField(t, raw[i], "amount", tr.Amount)
			}
			checkOneRowCorrupted(t, "rows", raw, len(body), decodeWalletHistory)
			return nil
		})
	})
}

func FuzzDecodeSubAccounts(f *testing.F) {
	addHealthSeeds(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		decodeAnswer(t, body, func(d json.RawMessage) error {
			l, err := decodeSubAccounts(d)
			if err != nil {
				return err
			}
			raw := rawRowsAnySpelling(t, d, "rows")
			for j, i := range readIndexes(t, l, len(raw)) {
				if s := l.rows[j]; s.ApplicationID == "" || s.ApplicationID != rawField(t, raw[i], "applicationId") || s.CreatedMs < 0 {
					t.Fatalf("row %d: %+v", i, s)
				}
			}
			checkOneRowCorrupted(t, "rows", raw, len(body), decodeSubAccounts)
			return nil
		})
	})
}
