package client

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"
)

// FuzzDecodePositions checks what decodePositions returns against the raw
// rows, read by encoding/json: every field exactly, closed positions by
// exact rational arithmetic, no symbol and side twice, one row corrupted
// costing that row only.
func FuzzDecodePositions(f *testing.F) {
	addAnswerSeeds(f)
	f.Add([]byte(`{"success":true,"data":{"positions":[{"symbol":"PERP_LTC_USDT","holding":"0.1","pendingLongQty":"0","pendingShortQty":"0","settlePrice":"96.87","averageOpenPrice":"96.87","pnl24H":"0","fee24H":"0.0048435","markPrice":"96.83793449","estLiqPrice":"0","timestamp":1752500555823,"adlQuantile":2,"positionSide":"BOTH","marginMode":"CROSS","isolatedMarginToken":"","isolatedMarginAmount":"0","isolatedFrozenLong":"0","isolatedFrozenShort":"0","leverage":10}]},"timestamp":1752500579848}`))
	f.Add([]byte(`{"success":true,"data":{"positions":[{"symbol":"PERP_BTC_USDT","holding":"-0.5","position_side":"SHORT","margin_mode":"ISOLATED","isolated_margin_amount":"300","adl_quantile":"5","leverage":"12.5","timestamp":"1752500555.823"},{"symbol":"PERP_BTC_USDT","holding":0,"positionSide":"LONG","marginMode":"CROSS","pendingLongQty":"0.0","pending_short_qty":"-0"}]}}`))
	f.Add([]byte(`{"success":true,"data":{"positions":[{"symbol":"X","holding":"1e-3","positionSide":"BOTH","marginMode":"CROSS","estLiqPrice":null,"markPrice":""}]}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		decodeAnswer(t, body, func(d json.RawMessage) error {
			l, err := decodePositions(d)
			if err != nil {
				return err
			}
			raw := rawRowsAnySpelling(t, d, "positions")
			seen := map[[2]string]bool{}
			for j, i := range readIndexes(t, l, len(raw)) {
				p := l.rows[j]
				checkPositionRow(t, raw[i], p)
				key := [2]string{p.Symbol, p.Side}
				if seen[key] {
					t.Fatalf("row %d: %v listed twice but decoded", i, key)
				}
				seen[key] = true
			}
			checkOneRowCorrupted(t, "positions", raw, len(body), decodePositions)
			return nil
		})
	})
}

// rawRowsAnySpelling returns the rows of data's array field, found without
// regard to case and underscores.
func rawRowsAnySpelling(t *testing.T, data json.RawMessage, field string) []json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	_ = json.Unmarshal(data, &m)
	var rows []json.RawMessage
	for k, v := range m {
		if strings.EqualFold(strings.ReplaceAll(k, "_", ""), field) {
			_ = json.Unmarshal(v, &rows)
		}
	}
	return rows
}

func checkPositionRow(t *testing.T, raw json.RawMessage, p Position) {
	t.Helper()
	for field, got := range map[string]string{"symbol": p.Symbol, "positionSide": p.Side, "marginMode": p.MarginMode,
		"isolatedMarginToken": p.IsolatedMarginToken} {
		if want := rawField(t, raw, field); got != want {
			t.Fatalf("%s %q, raw %q", field, got, want)
		}
	}
	if p.Symbol == "" || p.Side == "" || p.MarginMode == "" {
		t.Fatalf("a row without symbol, side or margin mode decoded: %+v", p)
	}
	holding := p.Holding
	assertDecimalField(t, raw, "holding", &holding)
	assertDecimalField(t, raw, "pendingLongQty", p.PendingLongQty)
	assertDecimalField(t, raw, "pendingShortQty", p.PendingShortQty)
	assertDecimalField(t, raw, "averageOpenPrice", p.AverageOpenPrice)
	assertDecimalField(t, raw, "markPrice", p.MarkPrice)
	assertDecimalField(t, raw, "estLiqPrice", p.EstLiqPrice)
	assertDecimalField(t, raw, "pnl24H", p.Pnl24H)
	assertDecimalField(t, raw, "fee24H", p.Fee24H)
	assertDecimalField(t, raw, "leverage", p.Leverage)
	assertDecimalField(t, raw, "adlQuantile", p.AdlQuantile)
	assertDecimalField(t, raw, "isolatedMarginAmount", p.IsolatedMarginAmount)
	closed := true
	for _, field := range []string{"holding", "pendingLongQty", "pendingShortQty"} {
		if text := rawField(t, raw, field); text != "" {
			r, ok := new(big.Rat).SetString(text)
			closed = closed && ok && r.Sign() == 0
		}
	}
	if p.Closed() != closed {
		t.Fatalf("closed = %v, the raw row says %v", p.Closed(), closed)
	}
}
