package client

import "testing"

// A position row that cannot be read is left out naming its symbol and
// field; the other positions are read.
func TestDecodePositionsRejectsOddRows(t *testing.T) {
	row := `"symbol":"PERP_BTC_USDT","positionSide":"BOTH","marginMode":"CROSS","holding":"1"`
	checkOddRows(t, "positions", `{`+row+`,"markPrice":"65000.5","estLiqPrice":"0"}`,
		`{"symbol":"PERP_ETH_USDT","position_side":"SHORT","margin_mode":"ISOLATED","holding":"-2","isolated_margin_amount":"300"}`,
		decodePositions, []oddRow{
			{"no symbol", `{"positionSide":"BOTH","marginMode":"CROSS","holding":"1"}`, "", "symbol", "symbol: missing"},
			{"no side", `{"symbol":"PERP_LTC_USDT","marginMode":"CROSS","holding":"1"}`, "symbol PERP_LTC_USDT", "positionSide", "positionSide: missing"},
			{"no margin mode", `{"symbol":"PERP_LTC_USDT","positionSide":"BOTH","holding":"1"}`, "symbol PERP_LTC_USDT side BOTH", "marginMode", "marginMode: missing"},
			{"no holding", `{"symbol":"PERP_LTC_USDT","positionSide":"BOTH","marginMode":"CROSS"}`, "symbol PERP_LTC_USDT side BOTH", "holding", "holding: missing"},
			{"mark price not a number", `{"symbol":"PERP_LTC_USDT","positionSide":"BOTH","marginMode":"CROSS","holding":"1","markPrice":"1.2.3"}`,
				"symbol PERP_LTC_USDT side BOTH", "markPrice", `markPrice: invalid decimal "1.2.3"`},
			{"timestamp not a time", `{"symbol":"PERP_LTC_USDT","positionSide":"BOTH","marginMode":"CROSS","holding":"1","timestamp":"yesterday"}`,
				"symbol PERP_LTC_USDT side BOTH", "timestamp", `timestamp: invalid time "yesterday"`},
			{"two spellings", `{"symbol":"PERP_LTC_USDT","positionSide":"BOTH","marginMode":"CROSS","holding":"1","estLiqPrice":"1","est_liq_price":"2"}`,
				"", "estLiqPrice", `fields "estLiqPrice" and "est_liq_price" disagree`},
		})
}
