package client

import (
	"strings"
	"testing"
)

func TestDecodeWalletHistorySpellingsAndTimeUnits(t *testing.T) {
	for name, body := range map[string]string{
		"v3 camelCase, ms": `{"success":true,"data":{"rows":[
			{"id":"w1","token":"USDT","tokenSide":"WITHDRAW","amount":"100.5","status":"PROCESSING","createdTime":1700000000123,"updatedTime":1700000100000,"feeToken":"USDT","feeAmount":"1","txId":"","targetAddress":"rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh","extra":104},
			{"id":2,"token":"BTC","tokenSide":"deposit","amount":0.1,"status":"COMPLETED","createdTime":"1700000000124","targetAddress":"","extra":null}],"meta":{"total":2}}}`,
		"v1 snake_case, seconds with a fraction": `{"success":true,"data":{"rows":[
			{"id":"w1","token":"USDT","token_side":"WITHDRAW","amount":"100.5","status":"PROCESSING","created_time":"1700000000.123","updated_time":"1700000100.000","fee_token":"USDT","fee_amount":"1","tx_id":"","target_address":"rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh","extra":"104"},
			{"id":"2","token":"BTC","token_side":"DEPOSIT","amount":"0.1","status":"completed","created_time":"1700000000.124"}],"meta":{"total":"2"}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			l, err := decodeWalletHistory(mustData(t, body))
			if err != nil || len(l.rejected) != 0 {
				t.Fatal(err, l.rejected)
			}
			rows := l.rows
			if len(rows) != 2 {
				t.Fatalf("rows %+v", rows)
			}
			w, d := rows[0], rows[1]
			if w.ID != "w1" || w.Token != "USDT" || w.Side != "WITHDRAW" || w.Status != "PROCESSING" || w.Amount.String() != "100.5" ||
				w.CreatedMs != 1700000000123 || w.UpdatedMs != 1700000100000 || w.Final() ||
				w.TargetAddress != "rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh" || w.Tag != "104" {
				t.Errorf("withdrawal %+v", w)
			}
			if d.ID != "2" || d.Side != "DEPOSIT" || d.Status != "COMPLETED" || d.CreatedMs != 1700000000124 || d.UpdatedMs != 0 || !d.Final() ||
				d.TargetAddress != "" || d.Tag != "" {
				t.Errorf("deposit %+v", d)
			}
		})
	}
}

func TestTransferFinalStatuses(t *testing.T) {
	for status, final := range map[string]bool{"COMPLETED": true, "CANCELED": true, "CANCELLED": true, "FAILED": true,
		"NEW": false, "CONFIRMING": false, "PROCESSING": false, "PENDING_REVIEW": false, "": false} {
		if got := (Transfer{Status: status}).Final(); got != final {
			t.Errorf("%q: final %v, want %v", status, got, final)
		}
	}
}

// A transfer row that cannot be read is left out naming its id and field;
// the other rows are read.
func TestDecodeWalletHistoryRejectsOddRows(t *testing.T) {
	checkOddRows(t, "rows", `{"id":"g","token":"USDT","tokenSide":"WITHDRAW","status":"NEW","createdTime":1700000000123}`,
		`{"id":"h","token":"BTC","token_side":"DEPOSIT","status":"COMPLETED","created_time":"1700000000.5","amount":"0.1"}`, decodeWalletHistory, []oddRow{
			{"no id", `{"token":"USDT","tokenSide":"WITHDRAW","status":"NEW","createdTime":1700000000123}`, "", "id", "id: missing"},
			{"no token", `{"id":"a","tokenSide":"WITHDRAW","status":"NEW","createdTime":1700000000123}`, "id a", "token", "token: missing"},
			{"no side", `{"id":"a","token":"USDT","status":"NEW","createdTime":1700000000123}`, "id a", "tokenSide", "tokenSide: missing"},
			{"no status", `{"id":"a","token":"USDT","tokenSide":"WITHDRAW","createdTime":1700000000123}`, "id a", "status", "status: missing"},
			{"no created time", `{"id":"a","token":"USDT","tokenSide":"WITHDRAW","status":"NEW"}`, "id a", "createdTime", "createdTime: missing"},
			{"created time not a time", `{"id":"a","token":"USDT","tokenSide":"WITHDRAW","status":"NEW","createdTime":"yesterday"}`, "id a", "createdTime", `createdTime: invalid time "yesterday"`},
			{"updated time not a time", `{"id":"a","token":"USDT","tokenSide":"WITHDRAW","status":"NEW","createdTime":1,"updatedTime":-1}`, "id a", "updatedTime", "updatedTime: invalid time"},
			{"amount not a number", `{"id":"a","token":"USDT","tokenSide":"WITHDRAW","status":"NEW","createdTime":1,"amount":"x"}`, "id a", "amount", "amount: invalid decimal"},
			{"address not text", `{"id":"a","token":"USDT","tokenSide":"WITHDRAW","status":"NEW","createdTime":1,"targetAddress":{"x":1}}`, "id a", "targetAddress", "targetAddress:"},
			{"tag not text", `{"id":"a","token":"USDT","tokenSide":"WITHDRAW","status":"NEW","createdTime":1,"extra":[1]}`, "id a", "extra", "extra:"},
		})
	for body, want := range map[string]string{
		`{"success":true,"data":{"meta":{}}}`:  "no rows",
		`{"success":true,"data":{"rows":"x"}}`: "rows",
		`{"success":true,"data":[]}`:           "expected an object",
	} {
		if _, err := decodeWalletHistory(mustData(t, body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want it to contain %q", body, err, want)
		}
	}
}
