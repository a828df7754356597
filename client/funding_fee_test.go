package client

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// Every field in every encoding the other histories are read in: numbers
// or strings, ids too; camelCase or snake_case; times in milliseconds or
// seconds, as strings or numbers; the direction in any letter case.
func TestDecodeFundingFeeReadings(t *testing.T) {
	rate, mark := decimal.RequireFromString("-0.00001445"), decimal.RequireFromString("26930.6")
	want := FundingFee{ID: "1286360", Symbol: "PERP_BTC_USDT", Amount: decimal.RequireFromString("9.56021744"), Paid: true,
		Rate: &rate, MarkPrice: &mark, Status: "COMPLETED", CreatedMs: 1696060873259, UpdatedMs: 1696060873286}
	for name, row := range map[string]string{
		"docs":        `{"id":1286360,"symbol":"PERP_BTC_USDT","fundingRate":-1.445e-05,"markPrice":"26930.60000000","fundingFee":"9.56021744","fundingIntervalHours":8,"paymentType":"Pay","status":"COMPLETED","createdTime":1696060873259,"updatedTime":1696060873286}`,
		"all strings": `{"id":"1286360","symbol":"PERP_BTC_USDT","fundingRate":"-0.00001445","markPrice":"26930.6","fundingFee":"9.56021744","fundingIntervalHours":"8","paymentType":"PAY","status":"completed","createdTime":"1696060873259","updatedTime":"1696060873286"}`,
		"snake_case":  `{"id":1286360,"symbol":"PERP_BTC_USDT","funding_rate":-0.00001445,"mark_price":26930.6,"funding_fee":9.56021744,"payment_type":"pay","status":"COMPLETED","created_time":"1696060873.259","updated_time":1696060873.286}`,
	} {
		t.Run(name, func(t *testing.T) {
			l, err := decodeFundingFees(mustData(t, `{"success":true,"data":{"rows":[`+row+`]}}`))
			if err != nil || len(l.rejected) != 0 || len(l.rows) != 1 {
				t.Fatal(err, l)
			}
			got := l.rows[0]
			if !got.Amount.Equal(want.Amount) || !got.Rate.Equal(*want.Rate) || !got.MarkPrice.Equal(*want.MarkPrice) {
				t.Errorf("decimals %s %s %s", got.Amount, got.Rate, got.MarkPrice)
			}
			got.Amount, got.Rate, got.MarkPrice = want.Amount, want.Rate, want.MarkPrice
			if got != want {
				t.Errorf("got %+v\nwant %+v", got, want)
			}
		})
	}
}

// A row that cannot be read is left out naming its field; the others are
// read.
func TestDecodeFundingFeeRejectsOddRows(t *testing.T) {
	a := `{"id":1,"symbol":"PERP_BTC_USDT","fundingFee":"1","paymentType":"Pay","createdTime":1696060873259}`
	b := `{"id":"2","symbol":"PERP_ETH_USDT","funding_fee":2,"payment_type":"Receive","created_time":"1696060873.259","status":"COMPLETED"}`
	checkOddRows(t, "rows", a, b, decodeFundingFees, []oddRow{
		{"no id", `{"symbol":"PERP_BTC_USDT"}`, "", "id", "id: missing"},
		{"no symbol", `{"id":3,"fundingFee":"1"}`, "id 3", "symbol", "symbol: missing"},
		{"no fee", `{"id":3,"symbol":"X","paymentType":"Pay"}`, "id 3", "fundingFee", "fundingFee: missing"},
		{"fee not a number", `{"id":3,"symbol":"X","fundingFee":"1.2.3","paymentType":"Pay"}`, "id 3", "fundingFee", "fundingFee: invalid decimal"},
		{"no direction", `{"id":3,"symbol":"X","fundingFee":"1"}`, "id 3", "paymentType", "paymentType: missing"},
		{"another direction", `{"id":3,"symbol":"X","fundingFee":"1","paymentType":"Refund"}`, "id 3", "paymentType", `paymentType: neither Pay nor Receive: "Refund"`},
		{"rate not a number", `{"id":3,"symbol":"X","fundingFee":"1","paymentType":"Pay","fundingRate":"high"}`, "id 3", "fundingRate", "fundingRate: invalid decimal"},
		{"no created time", `{"id":3,"symbol":"X","fundingFee":"1","paymentType":"Pay"}`, "id 3", "createdTime", "createdTime: missing"},
		{"created time not a time", `{"id":3,"symbol":"X","fundingFee":"1","paymentType":"Pay","createdTime":"soon"}`, "id 3", "createdTime", `createdTime: invalid time "soon"`},
	})
}

// Every row read is the raw row's id, symbol, fee and direction and created
// time, as encoding/json reads them; a row made unreadable is rejected
// alone.
func FuzzDecodeFundingFees(f *testing.F) {
	addHealthSeeds(f)
	f.Add([]byte(`{"success":true,"data":{"meta":{"total":1},"rows":[{"id":1286360,"symbol":"PERP_BTC_USDT","fundingRate":-0.00001445,"markPrice":"26930.6","fundingFee":"9.56021744","paymentType":"Pay","status":"COMPLETED","createdTime":1696060873259}]}}`))
	f.Add([]byte(`{"success":true,"data":{"rows":[{"id":"7","symbol":"S","funding_fee":1e-8,"payment_type":"receive","created_time":"1696060873.259"},{"id":8}]}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		decodeAnswer(t, body, func(d json.RawMessage) error {
			l, err := decodeFundingFees(d)
			if err != nil {
				return err
			}
			raw := rawRowsAnySpelling(t, d, "rows")
			for j, i := range readIndexes(t, l, len(raw)) {
				p := l.rows[j]
				if p.ID == "" || p.ID != rawField(t, raw[i], "id") || p.Symbol != rawField(t, raw[i], "symbol") ||
					p.Paid != strings.EqualFold(rawField(t, raw[i], "paymentType"), "pay") {
					t.Fatalf("row %d decoded as %+v", i, p)
				}
				created, _ := json.Marshal(rawField(t, raw[i], "createdTime"))
				if want, ok := timeOracle(t, created); !ok || want != p.CreatedMs {
					t.Fatalf("row %d: created %s decoded as %d, want %d (valid %v)", i, created, p.CreatedMs, want, ok)
				}
				amount := p.Amount
				assertDecimalField(t, raw[i], "fundingFee", &amount)
			}
			checkOneRowCorrupted(t, "rows", raw, len(body), decodeFundingFees)
			return nil
		})
	})
}

func init() {
	endpointDecodeCases = append(endpointDecodeCases, func(tb testing.TB) decodeCase {
		return decodeCase{"funding_fee", readCapture(tb, "docs_funding_fee_strings.json"), func(c *Client, data json.RawMessage, _ int64, out *any) (int, int, error) {
			l, err := decodeFundingFees(data)
			rows, rejected := listOf(c, l, out)
			return rows, rejected, err
		}, 2}
	})
}
