package client

import (
	"strings"
	"testing"
)

func TestDecodeBalancesSpellingsAndNumberForms(t *testing.T) {
	for name, body := range map[string]string{
		"camelCase strings": `{"success":true,"data":{"holding":[
			{"token":"BTC","holding":"1.23456789","frozen":"0.1","staked":"0","unbonding":"0","availableBalance":"1.13456789","markPrice":"65000.5","pnl24H":"1","timestamp":"1579399877.041"},
			{"token":"USDT","holding":"100","availableBalance":"100"}],"userId":1}}`,
		"snake_case numbers": `{"success":true,"data":{"holding":[
			{"token":"BTC","holding":1.23456789,"frozen":0.1,"staked":0,"available_balance":1.13456789,"mark_price":65000.5,"pnl_24h":1,"timestamp":1579399877041},
			{"token":"USDT","holding":100,"available_balance":100}]}}`,
	} {
		t.Run(name, func(t *testing.T) {
			l, err := decodeBalances(mustData(t, body))
			if err != nil || len(l.rejected) != 0 {
				t.Fatal(err, l.rejected)
			}
			got := l.rows
			if len(got) != 2 || got[0].Token != "BTC" || got[1].Token != "USDT" {
				t.Fatalf("rows %+v", got)
			}
			btc, usdt := got[0], got[1]
			for want, d := range map[string]string{"1.23456789": btc.Holding.String(), "0.1": btc.Frozen.String(), "0": btc.Staked.String(),
				"1.13456789": btc.Available.String(), "65000.5": btc.MarkPrice.String(), "100": usdt.Holding.String()} {
				if d != want {
					t.Errorf("got %s, want %s", d, want)
				}
			}
			if usdt.Frozen != nil || usdt.Staked != nil || usdt.MarkPrice != nil {
				t.Errorf("fields USDT does not send must be nil: %+v", usdt)
			}
		})
	}
}

// A balance row that cannot be read is left out naming its field; the
// other rows are read.
func TestDecodeBalancesRejectsOddRows(t *testing.T) {
	checkOddRows(t, "holding", `{"token":"USDT","holding":"100","availableBalance":"100"}`, `{"token":"ETH","holding":2,"markPrice":"3000"}`, decodeBalances, []oddRow{
		{"no token", `{"holding":"1"}`, "", "token", "token: missing"},
		{"holding not a number", `{"token":"BTC","holding":"x"}`, "token BTC", "holding", `holding: invalid decimal "x"`},
		{"mark price an object", `{"token":"BTC","markPrice":{}}`, "token BTC", "markPrice", "markPrice: expected a number or string"},
		{"not an object", `1`, "", "", "row is not a JSON object"},
		{"two spellings", `{"token":"BTC","mark_price":"1","markPrice":"2"}`, "", "markPrice", `fields "markPrice" and "mark_price" disagree`},
	})
}

// An answer that cannot be read as a whole fails.
func TestDecodeBalancesErrors(t *testing.T) {
	for body, want := range map[string]string{
		`{"success":true,"data":{}}`: "no rows",
		`{"success":true,"data":{"holding":[{"token":"BTC"},{"token":"BTC"}]}}`: "holding: token BTC listed twice",
		`{"success":true,"data":{"holding":{"token":"BTC"}}}`:                   "holding",
	} {
		_, err := decodeBalances(mustData(t, body))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want it to contain %q", body, err, want)
		}
	}
	if got, err := decodeBalances(mustData(t, `{"success":true,"data":{"holding":[]}}`)); err != nil || len(got.rows)+len(got.rejected) != 0 {
		t.Errorf("an empty holding list is an account without balances: %v, %v", got, err)
	}
}
