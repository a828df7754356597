package client

import (
	"encoding/json"
	"testing"
)

func decodeAlgoOrders(data json.RawMessage) (list[AlgoOrder], error) {
	l, _, err := decodeAlgoOrdersPage(data)
	return l, err
}

// The docs' row, and ids and statuses in the other encodings.
func TestDecodeAlgoOrdersReadings(t *testing.T) {
	for name, row := range map[string]string{
		"docs":       `{"algoOrderId":792419,"symbol":"SPOT_WOO_USDT","algoType":"TRAILING_STOP","algoStatus":"NEW","isTriggered":false,"quantity":1}`,
		"strings":    `{"algoOrderId":"792419","symbol":"SPOT_WOO_USDT","algoType":"TRAILING_STOP","algoStatus":"NEW","isTriggered":"false"}`,
		"snake_case": `{"algo_order_id":792419,"symbol":"SPOT_WOO_USDT","algo_type":"TRAILING_STOP","algo_status":"NEW"}`,
	} {
		t.Run(name, func(t *testing.T) {
			l, meta, err := decodeAlgoOrdersPage(mustData(t, `{"success":true,"data":{"meta":{"total":1},"rows":[`+row+`]}}`))
			if err != nil || len(l.rejected) != 0 || len(l.rows) != 1 || meta == nil || meta.Total != 1 {
				t.Fatal(err, l, meta)
			}
			if o := l.rows[0]; o != (AlgoOrder{ID: "792419", Symbol: "SPOT_WOO_USDT", AlgoType: "TRAILING_STOP", Status: "NEW"}) {
				t.Errorf("got %+v", o)
			}
		})
	}
}

// A row without its id, symbol or type is left out naming the field.
func TestDecodeAlgoOrdersRejectsOddRows(t *testing.T) {
	checkOddRows(t, "rows", `{"algoOrderId":1,"symbol":"PERP_BTC_USDT","algoType":"STOP","algoStatus":"NEW"}`,
		`{"algoOrderId":2,"symbol":"PERP_ETH_USDT","algoType":"TP_SL"}`, decodeAlgoOrders, []oddRow{
			{"no id", `{"symbol":"PERP_BTC_USDT","algoType":"STOP"}`, "", "algoOrderId", "algoOrderId: missing"},
			{"no symbol", `{"algoOrderId":3,"algoType":"STOP"}`, "algo order 3", "symbol", "symbol: missing"},
			{"no type", `{"algoOrderId":4,"symbol":"PERP_BTC_USDT"}`, "algo order 4", "algoType", "algoType: missing"},
		})
}

// Every row read is the raw row's id, symbol and type, as encoding/json
// reads them; a row made unreadable is rejected alone.
func FuzzDecodeAlgoOrders(f *testing.F) {
	addAnswerSeeds(f)
	f.Add([]byte(`{"success":true,"data":{"meta":{"total":2,"recordsPerPage":25,"currentPage":1},"rows":[{"algoOrderId":792419,"symbol":"SPOT_WOO_USDT","algoType":"TRAILING_STOP","algoStatus":"NEW"},{"algoOrderId":"7","symbol":"PERP_BTC_USDT","algoType":"STOP","algoStatus":"CANCELLED"}]}}`))
	f.Add([]byte(`{"success":true,"data":{"rows":[{"algoOrderId":1,"symbol":"X","algoType":"STOP"},{"symbol":"X"},{"algoOrderId":2}]}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		decodeAnswer(t, body, func(d json.RawMessage) error {
			l, err := decodeAlgoOrders(d)
			if err != nil {
				return err
			}
			raw := rawRowsAnySpelling(t, d, "rows")
			for j, i := range readIndexes(t, l, len(raw)) {
				o := l.rows[j]
				if o.ID == "" || o.ID != rawField(t, raw[i], "algoOrderId") || o.Symbol != rawField(t, raw[i], "symbol") ||
					o.AlgoType != rawField(t, raw[i], "algoType") || o.Status != rawField(t, raw[i], "algoStatus") {
					t.Fatalf("row %d decoded as %+v", i, o)
				}
			}
			checkOneRowCorrupted(t, "rows", raw, len(body), decodeAlgoOrders)
			return nil
		})
	})
}
