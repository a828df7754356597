package client

import (
	"encoding/json"
	"strings"
	"testing"
)

// The status in any letter case; TRADING alone trades.
func TestDecodeInstrumentsReadings(t *testing.T) {
	l, err := decodeInstruments(mustData(t, `{"success":true,"data":{"rows":[`+
		`{"symbol":"SPOT_BTC_USDT","status":"TRADING","baseMin":"0.00001","priceScope":null},`+
		`{"symbol":"PERP_BTC_USDT","status":"trading","fundingIntervalHours":"8"},`+
		`{"symbol":"PERP_WOO_USDT","status":"SUSPENDED"},{"symbol":"SPOT_NEW_USDT","status":"TESTING"},`+
		`{"symbol":"PERP_ODD_USDT","status":"DELISTING"}]}}`))
	if err != nil || len(l.rejected) != 0 {
		t.Fatal(err, l.rejected)
	}
	var got []string
	for _, i := range l.rows {
		got = append(got, i.Symbol+"="+map[bool]string{true: "trading", false: "not"}[i.Trading()])
	}
	if want := "SPOT_BTC_USDT=trading PERP_BTC_USDT=trading PERP_WOO_USDT=not SPOT_NEW_USDT=not PERP_ODD_USDT=not"; strings.Join(got, " ") != want {
		t.Errorf("got %s\nwant %s", strings.Join(got, " "), want)
	}
}

// A row without a symbol or a status is left out naming the field: read as
// not trading it would page whoever holds the symbol.
func TestDecodeInstrumentsRejectsOddRows(t *testing.T) {
	checkOddRows(t, "rows", `{"symbol":"SPOT_BTC_USDT","status":"TRADING"}`, `{"symbol":"PERP_BTC_USDT","status":"SUSPENDED"}`, decodeInstruments, []oddRow{
		{"no symbol", `{"status":"TRADING"}`, "", "symbol", "symbol: missing"},
		{"no status", `{"symbol":"PERP_ETH_USDT"}`, "symbol PERP_ETH_USDT", "status", "status: missing"},
		{"null status", `{"symbol":"PERP_ETH_USDT","status":null}`, "symbol PERP_ETH_USDT", "status", "status: missing"},
		{"status an object", `{"symbol":"PERP_ETH_USDT","status":{}}`, "symbol PERP_ETH_USDT", "status", "status"},
	})
}

// Every row read is the raw row's symbol and status, as encoding/json reads
// them; no symbol twice; a row made unreadable is rejected alone.
func FuzzDecodeInstruments(f *testing.F) {
	addAnswerSeeds(f)
	f.Add([]byte(`{"success":true,"data":{"rows":[{"symbol":"SPOT_BTC_USDT","status":"TRADING","baseMin":"0.00001"},{"symbol":"PERP_WOO_USDT","status":"SUSPENDED","fundingIntervalHours":4}]},"timestamp":1721351502594}`))
	f.Add([]byte(`{"success":true,"data":{"rows":[{"symbol":"X","status":1},{"symbol":"X","status":"trading"},{"status":"TESTING"}]}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		decodeAnswer(t, body, func(d json.RawMessage) error {
			l, err := decodeInstruments(d)
			if err != nil {
				return err
			}
			raw := rawRowsAnySpelling(t, d, "rows")
			seen := map[string]bool{}
			for j, i := range readIndexes(t, l, len(raw)) {
				r := l.rows[j]
				if r.Symbol == "" || r.Symbol != rawField(t, raw[i], "symbol") || r.Status == "" || r.Status != rawField(t, raw[i], "status") || seen[r.Symbol] {
					t.Fatalf("row %d decoded as %+v", i, r)
				}
				seen[r.Symbol] = true
			}
			checkOneRowCorrupted(t, "rows", raw, len(body), decodeInstruments)
			return nil
		})
	})
}
