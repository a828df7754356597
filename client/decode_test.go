package client

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

func mustData(t *testing.T, body string) json.RawMessage {
	t.Helper()
	var env envelope
	if err := json.Unmarshal([]byte(body), &env); err != nil {
		t.Fatalf("envelope: %v", err)
	}
	return env.Data
}

func TestDecodeTokenNetworksAcceptsStringsAndNumbers(t *testing.T) {
	for _, file := range []string{"token_network_strings.json", "token_network_numbers.json"} {
		t.Run(file, func(t *testing.T) {
			body, err := os.ReadFile(filepath.Join("testdata", file))
			if err != nil {
				t.Fatal(err)
			}
			rows, err := decodeTokenNetworks(mustData(t, string(body)))
			if err != nil {
				t.Fatal(err)
			}
			if len(rows) != 2 {
				t.Fatalf("got %d rows, want 2", len(rows))
			}
			eth := rows[0]
			if eth.Token != "USDT" || eth.Network != "ETH" || eth.Protocol != "ERC20" || eth.Name != "Ethereum" {
				t.Errorf("labels: %+v", eth)
			}
			if !eth.WithdrawalFee.Equal(decimal.RequireFromString("4.1")) || !eth.MinimumWithdrawal.Equal(decimal.RequireFromString("10")) {
				t.Errorf("amounts: fee %s minimum %s", eth.WithdrawalFee, eth.MinimumWithdrawal)
			}
			if !eth.AllowDeposit || eth.AllowWithdraw {
				t.Errorf("flags: deposit %v withdraw %v, want true false", eth.AllowDeposit, eth.AllowWithdraw)
			}
			if !rows[1].AllowWithdraw {
				t.Errorf("second row should allow withdrawals")
			}
		})
	}
}

func TestDecodeCredentialsAllowedIPsVariants(t *testing.T) {
	body := `{"success":true,"data":{"rows":[
		{"accountName":"Main","userId":12523,"apiKey":"k-absent","permissions":["READ"]},
		{"accountName":"Main","userId":"12523","apiKey":"k-null","permissions":["READ"],"allowedIPs":null},
		{"accountName":"Main","userId":12523,"apiKey":"k-empty","permissions":["READ"],"allowedIPs":[]},
		{"accountName":"Main","userId":12523,"apiKey":"k-set","permissions":["READ","TRADE","WITHDRAWAL","FUTURES"],"allowedIPs":["123.0.0.1","124.2.1.1"],"newField":{"x":1}}
	],"meta":{"total":4,"recordsPerPage":25,"currentPage":1}},"timestamp":1721295317627}`
	rows, meta, err := decodeCredentials(mustData(t, body))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows[:3] {
		if len(r.AllowedIPs) != 0 {
			t.Errorf("%s: AllowedIPs = %v, want none", r.APIKey, r.AllowedIPs)
		}
		if r.UserID != "12523" {
			t.Errorf("%s: UserID = %q", r.APIKey, r.UserID)
		}
	}
	if got := rows[3]; len(got.AllowedIPs) != 2 || len(got.Permissions) != 4 || got.Permissions[3] != "FUTURES" {
		t.Errorf("restricted key decoded as %+v", got)
	}
	if meta == nil || meta.Total != 4 || meta.RecordsPerPage != 25 || meta.CurrentPage != 1 {
		t.Errorf("meta = %+v", meta)
	}
}

func TestDecodeMetaAcceptsSnakeCase(t *testing.T) {
	body := `{"success":true,"data":{"rows":[],"meta":{"total":"46","records_per_page":1,"current_page":3}},"timestamp":1}`
	_, meta, err := decodeCredentials(mustData(t, body))
	if err != nil {
		t.Fatal(err)
	}
	if meta.Total != 46 || meta.RecordsPerPage != 1 || meta.CurrentPage != 3 {
		t.Errorf("meta = %+v", meta)
	}
}

func TestDecodeHistoryAmountsExactly(t *testing.T) {
	body := `{"success":true,"data":{"rows":[
		{"id":1,"type":"DEPOSIT","token":"BTC","amount":"0.123456789012345678901234567890","timestamp":1721295317627},
		{"id":"2","type":"REALIZED_PNL","token":"USDT","amount":-12.5,"timestamp":"1721295317628","symbol":"PERP_BTC_USDT"},
		{"id":3,"type":"NEW_TYPE","token":"ETH","amount":"0","timestamp":1721295317629}
	],"meta":{"total":3,"recordsPerPage":1000,"currentPage":1}},"timestamp":1}`
	rows, _, err := decodeHistory(mustData(t, body))
	if err != nil {
		t.Fatal(err)
	}
	if got := rows[0].Amount.String(); got != "0.12345678901234567890123456789" {
		t.Errorf("30-place amount = %s", got)
	}
	if !rows[1].Amount.Equal(decimal.RequireFromString("-12.5")) || rows[1].ID != 2 || rows[1].Timestamp != 1721295317628 {
		t.Errorf("numeric row = %+v", rows[1])
	}
	if rows[2].Type != "NEW_TYPE" || !rows[2].Amount.IsZero() {
		t.Errorf("unknown type row = %+v", rows[2])
	}
}

func TestDecodeRejectsUnusableRows(t *testing.T) {
	for name, body := range map[string]string{
		"history without id":         `{"success":true,"data":{"rows":[{"type":"DEPOSIT","token":"BTC","amount":"1","timestamp":1}]}}`,
		"history without amount":     `{"success":true,"data":{"rows":[{"id":1,"type":"DEPOSIT","token":"BTC","timestamp":1}]}}`,
		"history with bad amount":    `{"success":true,"data":{"rows":[{"id":1,"type":"DEPOSIT","token":"BTC","amount":"1e","timestamp":1}]}}`,
		"history with object amount": `{"success":true,"data":{"rows":[{"id":1,"type":"DEPOSIT","token":"BTC","amount":{},"timestamp":1}]}}`,
		"history with no data":       `{"success":true}`,
		"history with fractional id": `{"success":true,"data":{"rows":[{"id":1.5,"type":"DEPOSIT","token":"BTC","amount":"1","timestamp":1}]}}`,
	} {
		if _, _, err := decodeHistory(mustData(t, body)); err == nil {
			t.Errorf("%s: decoded without error", name)
		}
	}
	if _, _, err := decodeCredentials(mustData(t, `{"success":true,"data":{"rows":[{"permissions":["READ"]}]}}`)); err == nil {
		t.Error("credential without apiKey decoded without error")
	}
	if _, err := decodeTokenNetworks(mustData(t, `{"success":true,"data":{"rows":[{"token":"","network":"ETH"}]}}`)); err == nil {
		t.Error("network without token decoded without error")
	}
}

func TestFlexIntAcceptsIntegralForms(t *testing.T) {
	for in, want := range map[string]int64{`5`: 5, `"5"`: 5, `"-1011"`: -1011, `1.0`: 1, `1e3`: 1000} {
		var n flexInt
		if err := json.Unmarshal([]byte(in), &n); err != nil || n.Value != want {
			t.Errorf("%s: got %d, %v; want %d", in, n.Value, err, want)
		}
	}
	var n flexInt
	if err := json.Unmarshal([]byte(`"abc"`), &n); err == nil || !strings.Contains(err.Error(), "invalid integer") {
		t.Errorf("bad integer: err = %v", err)
	}
}

func TestFlexIntKeepsEveryInt64Exactly(t *testing.T) {
	for in, want := range map[string]int64{
		`9223372036854775807`:     math.MaxInt64,
		`"-9223372036854775808"`:  math.MinInt64,
		`9.223372036854775807e18`: math.MaxInt64,
		`"1721295317627.000"`:     1721295317627,
		`-0`:                      0,
		`0e5000`:                  0,
		`"1000e-3"`:               1,
	} {
		var n flexInt
		if err := json.Unmarshal([]byte(in), &n); err != nil || n.Value != want {
			t.Errorf("%s: got %d, %v; want %d", in, n.Value, err, want)
		}
	}
}

// A value beyond int64 used to wrap silently (18446744073709551617 became
// 1), which would turn one history id into another.
func TestDecodeRejectsIntegersBeyondInt64NamingTheField(t *testing.T) {
	for _, tc := range []struct {
		field, value string
	}{
		{"id", `18446744073709551617`},
		{"id", `"18446744073709551617"`},
		{"id", `9223372036854775808`},
		{"id", `-9223372036854775809`},
		{"id", `1e19`},
		{"id", `"1e19"`},
		{"id", `1e400`},
		{"id", `-1e400`},
		{"id", `1e1000000000`},
		{"id", `"1e5000"`},
		{"timestamp", `18446744073709551617`},
		{"timestamp", `"1e19"`},
		{"timestamp", `1e400`},
	} {
		row := map[string]string{"id": `1`, "timestamp": `1721295317627`}
		row[tc.field] = tc.value
		body := `{"success":true,"data":{"rows":[{"id":` + row["id"] + `,"type":"DEPOSIT","token":"BTC","amount":"1","timestamp":` + row["timestamp"] + `}]}}`
		rows, _, err := decodeHistory(mustData(t, body))
		if err == nil {
			t.Errorf("%s %s: decoded as %+v", tc.field, tc.value, rows)
			continue
		}
		if !strings.Contains(err.Error(), "."+tc.field+" ") || !strings.Contains(err.Error(), "not an integer within int64") {
			t.Errorf("%s %s: error %q does not name the field and the reason", tc.field, tc.value, err)
		}
	}
	for _, meta := range []string{`{"total":1e19}`, `{"total":18446744073709551617}`, `{"records_per_page":"1e400"}`} {
		body := `{"success":true,"data":{"rows":[],"meta":` + meta + `}}`
		if _, m, err := decodeCredentials(mustData(t, body)); err == nil {
			t.Errorf("meta %s: decoded as %+v", meta, m)
		}
	}
}

// Through the client, an overflowing id is a bad response.
func TestOverflowingIDIsABadResponse(t *testing.T) {
	srv, _ := cannedServer(t, 200, `{"success":true,"data":{"rows":[{"id":18446744073709551617,"type":"DEPOSIT","token":"BTC","amount":"1","timestamp":1}],"meta":{"total":1}},"timestamp":1}`)
	_, err := newTestClient(t, srv.URL, nil).TokenHistory(context.Background(), HistoryQuery{})
	if !IsBadResponse(err) || !strings.Contains(err.Error(), "id") {
		t.Fatalf("err = %v, want a bad response naming id", err)
	}
}
