package client

import (
	"encoding/json"
	"strings"
	"testing"
)

// rawParty is the raw object of a transfer's side under any spelling, or
// nil.
func rawParty(t *testing.T, row json.RawMessage, side string) json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	_ = json.Unmarshal(row, &m)
	for k, v := range m {
		if strings.EqualFold(strings.ReplaceAll(k, "_", ""), side) {
			return v
		}
	}
	return nil
}

// Every row read is the raw row's id, token, amount, status (upper case),
// sides and created time, as encoding/json reads them; a row made
// unreadable is rejected alone.
func FuzzDecodeTransferHistory(f *testing.F) {
	addHealthSeeds(f)
	f.Add([]byte(`{"success":true,"data":{"rows":[{"id":225,"token":"USDT","amount":"1000000","status":"COMPLETED","from":{"applicationId":"a","accountName":"Main"},"to":{"applicationId":"b","accountName":"sub001"},"createdTime":"1642660941.534","updatedTime":"1642660941.950"}],"meta":{"total":1}}}`))
	f.Add([]byte(`{"success":true,"data":{"rows":[{"id":"7","token":"BTC","amount":1e-8,"status":"pending","from":{"application_id":"a"},"to":{"application_id":"b","account_name":""},"created_time":1642660941534},{"id":8}]}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		decodeAnswer(t, body, func(d json.RawMessage) error {
			l, err := decodeTransferHistory(d)
			if err != nil {
				return err
			}
			raw := rawRowsAnySpelling(t, d, "rows")
			for j, i := range readIndexes(t, l, len(raw)) {
				tr := l.rows[j]
				if tr.ID == "" || tr.ID != rawField(t, raw[i], "id") || tr.Token != rawField(t, raw[i], "token") ||
					tr.Status != strings.ToUpper(rawField(t, raw[i], "status")) {
					t.Fatalf("row %d decoded as %+v", i, tr)
				}
				for side, p := range map[string]TransferParty{"from": tr.From, "to": tr.To} {
					obj := rawParty(t, raw[i], side)
					if p.ApplicationID == "" || p.ApplicationID != rawField(t, obj, "applicationId") || p.AccountName != rawField(t, obj, "accountName") {
						t.Fatalf("row %d: %s %+v, raw %s", i, side, p, obj)
					}
				}
				created, _ := json.Marshal(rawField(t, raw[i], "createdTime"))
				if want, ok := timeOracle(t, created); !ok || want != tr.CreatedMs {
					t.Fatalf("row %d: created %s decoded as %d, want %d (valid %v)", i, created, tr.CreatedMs, want, ok)
				}
				amount := tr.Amount
				assertDecimalField(t, raw[i], "amount", &amount)
			}
			checkOneRowCorrupted(t, "rows", raw, len(body), decodeTransferHistory)
			return nil
		})
	})
}
