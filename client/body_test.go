package client

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// What a poll returns of an answer keeps nothing of the answer's bytes,
// which are a pooled buffer the next answer is read into: overwriting them
// after the decode changes nothing decoded, rows rejected included.
func TestDecodedAnswersKeepNothingOfTheBody(t *testing.T) {
	c := decodeClient(t)
	cases := append(decodeCases(t), moreDecodeCases(t)...)
	for _, endpointCase := range endpointDecodeCases {
		cases = append(cases, endpointCase(t))
	}
	for _, dc := range cases {
		t.Run(dc.name, func(t *testing.T) {
			decode := func(body []byte) (v any, rows int) {
				r := request{op: "test", decode: func(data json.RawMessage, serverMs int64) (err error) {
					rows, _, err = dc.decode(c, data, serverMs, &v)
					return err
				}}
				if err := c.decodeAnswer(r, 200, body, time.Now(), time.Now()); err != nil {
					t.Fatal(err)
				}
				return v, rows
			}
			body := bytes.Clone(dc.body)
			got, rows := decode(body)
			for i := range body {
				body[i] = 'x'
			}
			if want, _ := decode(bytes.Clone(dc.body)); !reflect.DeepEqual(got, want) {
				t.Errorf("after the answer's bytes changed:\n%+v\nwant\n%+v", got, want)
			}
			if dc.rows != 0 && rows != dc.rows {
				t.Errorf("%d rows, want %d", rows, dc.rows)
			}
		})
	}
}

// endpointDecodeCases are answers an endpoint's own test file adds, at
// init: a new endpoint's answer is checked without an edit here.
var endpointDecodeCases []func(testing.TB) decodeCase

// moreDecodeCases are the answers of the other endpoints, and answers with
// rows that are rejected.
func moreDecodeCases(t *testing.T) []decodeCase {
	networks, err := os.ReadFile(filepath.Join("testdata", "token_network_strings.json"))
	if err != nil {
		t.Fatal(err)
	}
	rejected := `{"success":true,"data":{"holding":[{"token":"USDT","holding":"1","mark_price":"1","markPrice":"2"},` +
		`{"token":"BTC","holding":"x1"},{"token":"ETH","holding":"\u0031.5"}]},"timestamp":"1752646332743"}`
	malformed := `{"success":true,"data":{"rows":[{"id":"7","type":"DEPOSIT","token":"USDT","amount":"x"},{"id":"a\u00e9",` +
		`"amount":"1","timestamp":"1"}]},"timestamp":"1752646332743"}`
	return []decodeCase{
		{"token_networks", networks, func(c *Client, data json.RawMessage, _ int64, out *any) (int, int, error) {
			l, err := decodeTokenNetworks(data)
			rows, rejected := listOf(c, l, out)
			return rows, rejected, err
		}, 2},
		{"token_config", readCapture(t, "docs_token_config_strings.json"), func(c *Client, data json.RawMessage, _ int64, out *any) (int, int, error) {
			l, meta, err := decodeTokenConfigPage(data)
			l.rejected = c.onPage(l.rejected, 1)
			keep(out, struct {
				list any
				meta *PageMeta
			}{l, meta})
			return len(l.rows), len(l.rejected), err
		}, 0},
		{"sub_accounts", readCapture(t, "docs_sub_accounts_strings.json"), func(c *Client, data json.RawMessage, _ int64, out *any) (int, int, error) {
			l, meta, err := decodeSubAccountsPage(data)
			l.rejected = c.onPage(l.rejected, 1)
			keep(out, struct {
				list any
				meta *PageMeta
			}{l, meta})
			return len(l.rows), len(l.rejected), err
		}, 0},
		{"system_info", readCapture(t, "system_info_strings.json"), func(_ *Client, data json.RawMessage, _ int64, out *any) (int, int, error) {
			info, err := decodeSystemInfo(data)
			keep(out, info)
			return 1, 0, err
		}, 1},
		{"balances_rejected", []byte(rejected), func(c *Client, data json.RawMessage, _ int64, out *any) (int, int, error) {
			l, err := decodeBalances(data)
			rows, rejected := listOf(c, l, out)
			return rows, rejected, err
		}, 1},
		{"token_history_malformed", []byte(malformed), func(_ *Client, data json.RawMessage, _ int64, out *any) (int, int, error) {
			p, err := decodeHistory(data)
			keep(out, p)
			return len(p.Records), len(p.Malformed), err
		}, 0},
	}
}
