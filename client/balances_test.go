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
			got, err := decodeBalances(mustData(t, body))
			if err != nil {
				t.Fatal(err)
			}
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

func TestDecodeBalancesErrors(t *testing.T) {
	for body, want := range map[string]string{
		`{"success":true,"data":{}}`:                                                             "no rows",
		`{"success":true,"data":{"holding":[{"holding":"1"}]}}`:                                  "holding row 0: token: missing",
		`{"success":true,"data":{"holding":[{"token":"BTC","holding":"x"}]}}`:                    "holding row 0: token BTC: holding: invalid decimal",
		`{"success":true,"data":{"holding":[{"token":"BTC"},{"token":"BTC"}]}}`:                  "holding row 1: token BTC listed twice",
		`{"success":true,"data":{"holding":[1]}}`:                                                "holding row 0: expected an object",
		`{"success":true,"data":{"holding":{"token":"BTC"}}}`:                                    "holding",
		`{"success":true,"data":{"holding":[{"token":"BTC","mark_price":"1","markPrice":"2"}]}}`: "disagree",
	} {
		_, err := decodeBalances(mustData(t, body))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want it to contain %q", body, err, want)
		}
	}
	if got, err := decodeBalances(mustData(t, `{"success":true,"data":{"holding":[]}}`)); err != nil || len(got) != 0 {
		t.Errorf("an empty holding list is an account without balances: %v, %v", got, err)
	}
}
