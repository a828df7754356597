package client

import (
	"bytes"
	"encoding/json"
	"math/big"
	"strings"
	"testing"
)

// The fuzz targets feed whole answers to the decoders: whatever the exchange
// sends, decoding returns rows or an error and never panics, and what it
// returns is exact.

func addAnswerSeeds(f *testing.F) {
	f.Add([]byte(`{"success":true,"data":{"rows":[{"id":1,"type":"DEPOSIT","token":"BTC","amount":"0.5","timestamp":1721295317627}],"meta":{"total":1,"recordsPerPage":25,"currentPage":1}},"timestamp":1721295317627}`))
	f.Add([]byte(`{"success":true,"data":{"rows":[{"accountName":"Main","userId":12523,"apiKey":"+Pxx==","permissions":["READ","TRADE","WITHDRAWAL"],"allowedIPs":["123.0.0.1"]}],"meta":{"total":46,"records_per_page":1,"current_page":1}},"timestamp":1721295317627}`))
	f.Add([]byte(`{"success":true,"data":{"rows":[{"protocol":"ERC20","network":"ETH","token":"USDT","name":"Ethereum","minimumWithdrawal":"10.00000000","withdrawalFee":4.1,"allowDeposit":"1","allowWithdraw":0}]},"timestamp":"1721295317627"}`))
	f.Add([]byte(`{"success":false,"code":"-1011","message":"maintenance"}`))
	f.Add([]byte(`{"success":true,"data":{"rows":[{"id":1e400,"amount":"1e-400","timestamp":-1}]}}`))
}

func decodeAnswer(t *testing.T, body []byte, decode func(json.RawMessage) error) {
	var env envelope
	if err := json.Unmarshal(body, &env); err != nil {
		return
	}
	_ = decode(env.Data)
}

func FuzzDecodeHistory(f *testing.F) {
	addAnswerSeeds(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		decodeAnswer(t, body, func(d json.RawMessage) error {
			rows, _, err := decodeHistory(d)
			if err != nil {
				return err
			}
			// The same rows, read by a decoder that shares no code with
			// the client's, give the exact values of id and timestamp.
			var raw struct {
				Rows []struct {
					ID        json.RawMessage `json:"id"`
					Timestamp json.RawMessage `json:"timestamp"`
				} `json:"rows"`
			}
			if jerr := json.Unmarshal(d, &raw); jerr != nil || len(raw.Rows) != len(rows) {
				t.Fatalf("decoded %d rows from data encoding/json reads as %d rows (%v)", len(rows), len(raw.Rows), jerr)
			}
			for i, r := range rows {
				// What was decoded must survive a round trip exactly.
				if _, perr := r.Amount.MarshalText(); perr != nil {
					t.Fatalf("amount %v does not print: %v", r.Amount, perr)
				}
				assertExactInt(t, "id", raw.Rows[i].ID, r.ID)
				assertExactInt(t, "timestamp", raw.Rows[i].Timestamp, r.Timestamp)
			}
			return nil
		})
	})
}

// assertExactInt fails unless got is exactly the number the JSON value in
// raw (a number, or a string holding one) denotes.
func assertExactInt(t *testing.T, field string, raw json.RawMessage, got int64) {
	t.Helper()
	text := string(bytes.TrimSpace(raw))
	if strings.HasPrefix(text, `"`) {
		if err := json.Unmarshal(raw, &text); err != nil {
			t.Fatalf("%s %s: %v", field, raw, err)
		}
		text = strings.TrimSpace(text)
	}
	want, ok := new(big.Rat).SetString(text)
	if !ok {
		t.Fatalf("%s %s decoded as %d but is not a number", field, raw, got)
	}
	if want.Cmp(new(big.Rat).SetInt64(got)) != 0 {
		t.Fatalf("%s %s decoded as %d", field, raw, got)
	}
}

func FuzzDecodeCredentials(f *testing.F) {
	addAnswerSeeds(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		decodeAnswer(t, body, func(d json.RawMessage) error {
			rows, _, err := decodeCredentials(d)
			for _, r := range rows {
				if r.APIKey == "" {
					t.Fatal("credential without key decoded")
				}
			}
			return err
		})
	})
}

func FuzzDecodeTokenNetworks(f *testing.F) {
	addAnswerSeeds(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		decodeAnswer(t, body, func(d json.RawMessage) error {
			_, err := decodeTokenNetworks(d)
			return err
		})
	})
}
