package client

import (
	"encoding/json"
	"strings"
	"testing"
)

// meta.total in every spelling and encoding is the count; the rows are not
// read, so a row no decoder could read changes nothing.
func TestDecodeOpenOrderCountReadings(t *testing.T) {
	for name, body := range map[string]string{
		"docs":          `{"success":true,"data":{"meta":{"total":31,"recordsPerPage":25,"currentPage":1},"rows":[{"orderId":135,"status":"NEW"}]}}`,
		"partly filled": `{"success":true,"data":{"meta":{"total":31},"rows":[{"orderId":135,"status":"PARTIAL_FILLED"}]}}`,
		"strings":       `{"success":true,"data":{"meta":{"total":"31","recordsPerPage":"1","currentPage":"1"},"rows":[]}}`,
		"snake_case":    `{"success":true,"data":{"meta":{"total":31,"records_per_page":1,"current_page":1},"rows":[{}]}}`,
		"odd row":       `{"success":true,"data":{"meta":{"total":31},"rows":["not an order"]}}`,
		"no rows key":   `{"success":true,"data":{"meta":{"total":31}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			n, err := decodeOpenOrderCount(mustData(t, body))
			if err != nil || n != 31 {
				t.Errorf("got %d, %v; want 31", n, err)
			}
		})
	}
}

// Without a total there is no count: an error, never 0.
func TestDecodeOpenOrderCountErrors(t *testing.T) {
	for body, want := range map[string]string{
		`{"success":true,"data":{"rows":[]}}`:                             "open orders: answer has no meta.total",
		`{"success":true,"data":{"meta":null,"rows":[]}}`:                 "open orders: answer has no meta.total",
		`{"success":true,"data":{"meta":{"currentPage":1}}}`:              "open orders: answer has no meta.total",
		`{"success":true,"data":{"meta":{"total":-1}}}`:                   "open orders: meta.total -1 is negative",
		`{"success":true,"data":{"meta":{"total":"many"}}}`:               "open orders: meta: ",
		`{"success":true,"data":{"meta":{"total":1.5}}}`:                  "open orders: meta: ",
		`{"success":true,"data":[]}`:                                      "open orders",
		`{"success":true,"data":{"meta":{"total":99999999999999999999}}}`: "open orders: meta: ",
	} {
		_, err := decodeOpenOrderCount(mustData(t, body))
		if err == nil || len(err.Error()) < len(want) || err.Error()[:len(want)] != want {
			t.Errorf("%s: error %v, want it to start %q", body, err, want)
		}
	}
}

// The count read is meta.total as encoding/json reads the meta object
// (pageMeta, held to encoding/json by FuzzPageMetaMatchesEncodingJSON): set,
// not negative, and the same number.
func FuzzDecodeOpenOrderCount(f *testing.F) {
	addAnswerSeeds(f)
	f.Add([]byte(`{"success":true,"data":{"meta":{"total":31,"recordsPerPage":25,"currentPage":1},"rows":[{"orderId":135}]}}`))
	f.Add([]byte(`{"success":true,"data":{"meta":{"total":"2500","records_per_page":"1"}}}`))
	f.Add([]byte(`{"success":true,"data":{"meta":{"total":"000 "},"rows":[{"status":"NEW"}]}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		decodeAnswer(t, body, func(d json.RawMessage) error {
			n, err := decodeOpenOrderCount(d)
			if err != nil {
				return err
			}
			var data map[string]json.RawMessage
			if uerr := json.Unmarshal(d, &data); uerr != nil {
				t.Fatalf("read %d from data encoding/json refuses: %v", n, uerr)
			}
			var metas []json.RawMessage
			for k, v := range data {
				if strings.ReplaceAll(strings.ToLower(k), "_", "") == "meta" {
					metas = append(metas, v)
				}
			}
			if len(metas) != 1 {
				return nil // spellings of meta side by side: which one is read is the field reader's, fuzzed elsewhere
			}
			var want pageMeta
			if uerr := json.Unmarshal(metas[0], &want); uerr != nil || !want.Total.set || want.Total.Value != n || n < 0 {
				t.Fatalf("count %d, meta %s reads as %+v (%v)", n, metas[0], want.Total, uerr)
			}
			return nil
		})
	})
}
