package client

import (
	"encoding/json"
	"testing"

	"github.com/shopspring/decimal"
)

// Every field in every encoding: numbers or strings, camelCase or
// snake_case, the next funding time in ms or seconds; a null or absent
// field is nil and the rest of the row stands.
func TestDecodePerpetualsReadings(t *testing.T) {
	for name, row := range map[string]string{
		"docs":        `{"symbol":"PERP_BTC_USDT","indexPrice":null,"markPrice":"65000.5","estFundingRate":"0.00008","lastFundingRate":"-0.0001","nextFundingTime":1721376000000,"24hOpen":"64000"}`,
		"all numbers": `{"symbol":"PERP_BTC_USDT","markPrice":65000.5,"estFundingRate":8e-05,"lastFundingRate":-0.0001,"nextFundingTime":"1721376000000"}`,
		"snake_case":  `{"symbol":"PERP_BTC_USDT","index_price":"","mark_price":"65000.5","est_funding_rate":"0.00008","last_funding_rate":"-0.0001","next_funding_time":"1721376000.000"}`,
	} {
		t.Run(name, func(t *testing.T) {
			l, err := decodePerpetuals(mustData(t, `{"success":true,"data":{"rows":[`+row+`]}}`))
			if err != nil || len(l.rejected) != 0 || len(l.rows) != 1 {
				t.Fatal(err, l)
			}
			p := l.rows[0]
			for _, c := range []struct {
				got  *decimal.Decimal
				want string
			}{{p.MarkPrice, "65000.5"}, {p.EstFundingRate, "0.00008"}, {p.LastFundingRate, "-0.0001"}} {
				if c.got == nil || !c.got.Equal(decimal.RequireFromString(c.want)) {
					t.Errorf("got %v, want %s", c.got, c.want)
				}
			}
			if p.Symbol != "PERP_BTC_USDT" || p.IndexPrice != nil || p.NextFundingTimeMs != 1721376000000 {
				t.Errorf("got %+v", p)
			}
		})
	}
}

// A field that is sent but cannot be read is the row's fault: the row is
// left out naming the field, the others are read.
func TestDecodePerpetualsRejectsOddRows(t *testing.T) {
	checkOddRows(t, "rows", `{"symbol":"PERP_BTC_USDT","markPrice":"65000"}`, `{"symbol":"PERP_ETH_USDT","estFundingRate":-0.00002}`, decodePerpetuals, []oddRow{
		{"no symbol", `{"markPrice":"1"}`, "", "symbol", "symbol: missing"},
		{"rate not a number", `{"symbol":"PERP_X_USDT","estFundingRate":"high"}`, "symbol PERP_X_USDT", "estFundingRate", "estFundingRate: invalid decimal"},
		{"time not a time", `{"symbol":"PERP_X_USDT","nextFundingTime":"soon"}`, "symbol PERP_X_USDT", "nextFundingTime", `nextFundingTime: invalid time "soon"`},
	})
}

// Every row read is the raw row's symbol and fields, as encoding/json reads
// them; a row made unreadable is rejected alone.
func FuzzDecodePerpetuals(f *testing.F) {
	addAnswerSeeds(f)
	f.Add([]byte(`{"success":true,"data":{"rows":[{"symbol":"PERP_BTC_USDT","indexPrice":null,"markPrice":"65000.5","estFundingRate":"0.00008","lastFundingRate":"0.0001","nextFundingTime":1721376000000}]},"timestamp":1721351502594}`))
	f.Add([]byte(`{"success":true,"data":{"rows":[{"symbol":"X","mark_price":1e3,"next_funding_time":"1721376000.5"},{"symbol":"X"},{"markPrice":"1"}]}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		decodeAnswer(t, body, func(d json.RawMessage) error {
			l, err := decodePerpetuals(d)
			if err != nil {
				return err
			}
			raw := rawRowsAnySpelling(t, d, "rows")
			for j, i := range readIndexes(t, l, len(raw)) {
				p := l.rows[j]
				if p.Symbol == "" || p.Symbol != rawField(t, raw[i], "symbol") {
					t.Fatalf("row %d decoded as %+v", i, p)
				}
				assertDecimalField(t, raw[i], "markPrice", p.MarkPrice)
				assertDecimalField(t, raw[i], "estFundingRate", p.EstFundingRate)
				assertDecimalField(t, raw[i], "lastFundingRate", p.LastFundingRate)
				assertDecimalField(t, raw[i], "indexPrice", p.IndexPrice)
			}
			checkOneRowCorrupted(t, "rows", raw, len(body), decodePerpetuals)
			return nil
		})
	})
}
