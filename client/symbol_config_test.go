package client

import (
	"encoding/json"
	"testing"
)

// The docs' mix of snake_case margin_factor and camelCase integers, and each
// field in the other spelling and encoding.
func TestDecodeSymbolConfigsReadings(t *testing.T) {
	for name, row := range map[string]string{
		"docs":       `{"symbol":"PERP_WOO_USDT","margin_factor":"0.00000023","maxLeverage":20,"maxPosition":100000000000}`,
		"camelCase":  `{"symbol":"PERP_WOO_USDT","marginFactor":2.3e-7,"maxLeverage":"20","maxPosition":"100000000000"}`,
		"snake_case": `{"symbol":"PERP_WOO_USDT","margin_factor":"0.00000023","max_leverage":"20","max_position":1e11}`,
		"both agree": `{"symbol":"PERP_WOO_USDT","margin_factor":"0.00000023","marginFactor":"0.00000023","maxLeverage":20,"maxPosition":100000000000}`,
	} {
		t.Run(name, func(t *testing.T) {
			l, err := decodeSymbolConfigs(mustData(t, `{"success":true,"data":{"rows":[`+row+`]}}`))
			if err != nil || len(l.rejected) != 0 || len(l.rows) != 1 {
				t.Fatal(err, l)
			}
			s := l.rows[0]
			if s.Symbol != "PERP_WOO_USDT" || s.MarginFactor == nil || s.MarginFactor.String() != "0.00000023" ||
				s.MaxLeverage == nil || s.MaxLeverage.String() != "20" || s.MaxPosition == nil || s.MaxPosition.String() != "100000000000" {
				t.Errorf("got %+v", s)
			}
		})
	}
}

// A row without a symbol, or whose limit cannot be read, is left out naming
// the field; two spellings that disagree are the row's fault too.
func TestDecodeSymbolConfigsRejectsOddRows(t *testing.T) {
	checkOddRows(t, "rows", `{"symbol":"PERP_BTC_USDT","margin_factor":"0.00000023","maxLeverage":50}`, `{"symbol":"PERP_ETH_USDT","maxLeverage":"20"}`, decodeSymbolConfigs, []oddRow{
		{"no symbol", `{"maxLeverage":50}`, "", "symbol", "symbol: missing"},
		{"leverage not a number", `{"symbol":"PERP_X_USDT","maxLeverage":"fifty"}`, "symbol PERP_X_USDT", "maxLeverage", "maxLeverage: invalid decimal"},
		{"spellings disagree", `{"symbol":"PERP_X_USDT","margin_factor":"0.1","marginFactor":"0.2"}`, "", "marginFactor", `fields "marginFactor" and "margin_factor" disagree`},
	})
}

// Every row read is the raw row's symbol and limits, as encoding/json reads
// them; a row made unreadable is rejected alone.
func FuzzDecodeSymbolConfigs(f *testing.F) {
	addAnswerSeeds(f)
	f.Add([]byte(`{"success":true,"data":{"rows":[{"symbol":"PERP_BTC_USDT","margin_factor":"0.00000023","maxLeverage":50,"maxPosition":100000000000},{"symbol":"PERP_WOO_USDT","margin_factor":"0.00000023","maxLeverage":20,"maxPosition":100000000000}]},"timestamp":1721351502594}`))
	f.Add([]byte(`{"success":true,"data":{"rows":[{"symbol":"X","marginFactor":1,"max_leverage":"2"},{"symbol":"X"},{"maxLeverage":1}]}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		decodeAnswer(t, body, func(d json.RawMessage) error {
			l, err := decodeSymbolConfigs(d)
			if err != nil {
				return err
			}
			raw := rawRowsAnySpelling(t, d, "rows")
			for j, i := range readIndexes(t, l, len(raw)) {
				s := l.rows[j]
				if s.Symbol == "" || s.Symbol != rawField(t, raw[i], "symbol") {
					t.Fatalf("row %d decoded as %+v", i, s)
				}
				assertDecimalField(t, raw[i], "maxLeverage", s.MaxLeverage)
				assertDecimalField(t, raw[i], "marginFactor", s.MarginFactor)
				assertDecimalField(t, raw[i], "maxPosition", s.MaxPosition)
			}
			checkOneRowCorrupted(t, "rows", raw, len(body), decodeSymbolConfigs)
			return nil
		})
	})
}
