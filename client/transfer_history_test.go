package client

import (
	"testing"

	"github.com/shopspring/decimal"
)

// Every field in every encoding seen elsewhere: numbers or strings, ids
// too; camelCase or snake_case; times as seconds with a fraction, whole
// seconds or milliseconds, as strings or numbers.
func TestDecodeTransferHistoryReadings(t *testing.T) {
	want := AccountTransfer{ID: "225", Token: "USDT", Amount: decimal.RequireFromString("1000000"), Status: "COMPLETED",
		From: TransferParty{ApplicationID: "046b", AccountName: "Main"}, To: TransferParty{ApplicationID: "082a", AccountName: "sub001"},
		CreatedMs: 1642660941534, UpdatedMs: 1642660941950}
	for name, row := range map[string]string{
		"docs":              `{"id":225,"token":"USDT","amount":"1000000","status":"COMPLETED","from":{"applicationId":"046b","accountName":"Main"},"to":{"applicationId":"082a","accountName":"sub001"},"createdTime":"1642660941.534","updatedTime":"1642660941.950"}`,
		"all strings":       `{"id":"225","token":"USDT","amount":"1000000","status":"completed","from":{"applicationId":"046b","accountName":"Main"},"to":{"applicationId":"082a","accountName":"sub001"},"createdTime":"1642660941534","updatedTime":"1642660941950"}`,
		"numbers, ms":       `{"id":225,"token":"USDT","amount":1000000,"status":"COMPLETED","from":{"applicationId":"046b","accountName":"Main"},"to":{"applicationId":"082a","accountName":"sub001"},"createdTime":1642660941534,"updatedTime":1642660941950}`,
		"snake_case":        `{"id":225,"token":"USDT","amount":"1000000","status":"COMPLETED","from":{"application_id":"046b","account_name":"Main"},"to":{"application_id":"082a","account_name":"sub001"},"created_time":"1642660941.534","updated_time":1642660941.95}`,
		"seconds as number": `{"id":225,"token":"USDT","amount":"1e6","status":"COMPLETED","from":{"applicationId":"046b","accountName":"Main"},"to":{"applicationId":"082a","accountName":"sub001"},"createdTime":1642660941.534,"updatedTime":"1642660941.950"}`,
	} {
		t.Run(name, func(t *testing.T) {
			l, err := decodeTransferHistory(mustData(t, `{"success":true,"data":{"rows":[`+row+`]}}`))
			if err != nil || len(l.rejected) != 0 || len(l.rows) != 1 {
				t.Fatal(err, l)
			}
			got := l.rows[0]
			if !got.Amount.Equal(want.Amount) {
				t.Errorf("amount %s", got.Amount)
			}
			got.Amount = want.Amount
			if got != want {
				t.Errorf("got %+v\nwant %+v", got, want)
			}
		})
	}
}

// A row that cannot be read is left out naming its field; the others are
// read.
func TestDecodeTransferHistoryRejectsOddRows(t *testing.T) {
	a := `{"id":1,"token":"USDT","amount":"1","status":"COMPLETED","from":{"applicationId":"x"},"to":{"applicationId":"y"},"createdTime":"1642660941.534"}`
	b := `{"id":"2","token":"BTC","amount":2,"status":"PENDING","from":{"application_id":"y","account_name":"Y"},"to":{"application_id":"x"},"created_time":1642660941534}`
	checkOddRows(t, "rows", a, b, decodeTransferHistory, []oddRow{
		{"no id", `{"token":"USDT"}`, "", "id", "id: missing"},
		{"no amount", `{"id":3,"token":"USDT","status":"COMPLETED"}`, "id 3", "amount", "amount: missing"},
		{"amount not a number", `{"id":3,"token":"USDT","amount":"1.2.3","status":"COMPLETED"}`, "id 3", "amount", "amount: invalid decimal"},
		{"no from", `{"id":3,"token":"USDT","amount":"1","status":"COMPLETED","to":{"applicationId":"y"}}`, "id 3", "from", "from: missing"},
		{"from not an object", `{"id":3,"token":"USDT","amount":"1","status":"COMPLETED","from":"x"}`, "id 3", "from", "from: expected an object"},
		{"to without application id", `{"id":3,"token":"USDT","amount":"1","status":"COMPLETED","from":{"applicationId":"x"},"to":{"accountName":"y"}}`,
			"id 3", "to.applicationId", "to.applicationId: missing"},
		{"no created time", `{"id":3,"token":"USDT","amount":"1","status":"COMPLETED","from":{"applicationId":"x"},"to":{"applicationId":"y"}}`,
			"id 3", "createdTime", "createdTime: missing"},
		{"created time not a time", `{"id":3,"token":"USDT","amount":"1","status":"COMPLETED","from":{"applicationId":"x"},"to":{"applicationId":"y"},"createdTime":"soon"}`,
			"id 3", "createdTime", `createdTime: invalid time "soon"`},
	})
}
