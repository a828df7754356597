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
			l, err := decodeTokenNetworks(mustData(t, string(body)))
			if err != nil || len(l.rejected) != 0 {
				t.Fatal(err, l.rejected)
			}
			rows := l.rows
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
	l, meta, err := decodeCredentials(mustData(t, body))
	if err != nil || len(l.rejected) != 0 {
		t.Fatal(err, l.rejected)
	}
	rows := l.rows
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
	p, err := decodeHistory(mustData(t, body))
	if err != nil {
		t.Fatal(err)
	}
	rows := p.Records
	if len(rows) != 3 || len(p.Malformed) != 0 {
		t.Fatalf("%d records and malformed rows %+v, want 3 and none", len(rows), p.Malformed)
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

// A row that cannot be counted exactly once is reported, naming the field,
// and does not cost the page.
func TestDecodeReportsUnusableHistoryRows(t *testing.T) {
	good := `{"id":99,"type":"DEPOSIT","token":"BTC","amount":"1","timestamp":1721295317627}`
	for _, tc := range []struct {
		name, row, id, err string
		ts                 int64
	}{
		{"no id", `{"type":"DEPOSIT","token":"BTC","amount":"1","timestamp":1721295317627}`, "", "id: missing", 1721295317627},
		{"null id", `{"id":null,"type":"DEPOSIT","token":"BTC","amount":"1","timestamp":1721295317627}`, "", "id: missing", 1721295317627},
		{"no amount", `{"id":1,"type":"DEPOSIT","token":"BTC","timestamp":1721295317627}`, "1", "amount: missing", 1721295317627},
		{"bad amount", `{"id":1,"type":"DEPOSIT","token":"BTC","amount":"1e","timestamp":1721295317627}`, "1", `amount: invalid decimal "1e"`, 1721295317627},
		{"object amount", `{"id":1,"type":"DEPOSIT","token":"BTC","amount":{},"timestamp":1721295317627}`, "1", "amount: expected a number or string", 1721295317627},
		{"fractional id", `{"id":1.5,"type":"DEPOSIT","token":"BTC","amount":"1","timestamp":1721295317627}`, "1.5", `id: invalid integer "1.5"`, 1721295317627},
		{"no timestamp", `{"id":"7","type":"DEPOSIT","token":"BTC","amount":"1"}`, "7", "timestamp: missing", 0},
		{"garbage timestamp", `{"id":7,"type":"DEPOSIT","token":"BTC","amount":"1","timestamp":"yesterday"}`, "7", `timestamp: invalid time "yesterday": not a decimal number`, 0},
		{"numeric type", `{"id":7,"type":5,"token":"BTC","amount":"1","timestamp":1721295317627}`, "7", "type: expected a string, got 5", 1721295317627},
		{"two bad fields", `{"id":7,"type":"DEPOSIT","token":"BTC","amount":"x","timestamp":-1}`, "7", `timestamp: invalid time "-1": negative; amount: invalid decimal "x"`, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := decodeHistory(mustData(t, `{"success":true,"data":{"rows":[`+good+`,`+tc.row+`,`+good+`]}}`))
			if err != nil {
				t.Fatalf("one bad row failed the page: %v", err)
			}
			if len(p.Records) != 2 || p.Records[0].ID != 99 || p.Records[1].ID != 99 {
				t.Errorf("records = %+v, want the two good rows", p.Records)
			}
			if len(p.Malformed) != 1 {
				t.Fatalf("malformed = %+v, want one row", p.Malformed)
			}
			m := p.Malformed[0]
			if m.ID != tc.id || m.Timestamp != tc.ts || !strings.HasPrefix(m.Err, tc.err) {
				t.Errorf("malformed row = %+v, want id %q, timestamp %d, error starting %q", m, tc.id, tc.ts, tc.err)
			}
			if tc.id != "" && m.Key != "id:"+tc.id {
				t.Errorf("key = %q, want id:%s", m.Key, tc.id)
			}
			if tc.id == "" && (!strings.HasPrefix(m.Key, "sha256:") || len(m.Key) != len("sha256:")+16) {
				t.Errorf("key = %q, want sha256: and 16 hex digits", m.Key)
			}
		})
	}
	if _, err := decodeHistory(mustData(t, `{"success":true}`)); err == nil {
		t.Error("history with no data decoded without error")
	}
}

// A row that is not an object has no id: its key is the hash of its bytes,
// the same on every poll and different for different rows.
func TestMalformedRowWithoutIDIsKeyedByItsBytes(t *testing.T) {
	p, err := decodeHistory(mustData(t, `{"success":true,"data":{"rows":[5,"x",null,[1],{"amount":"1","timestamp":1721295317627}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Records) != 0 || len(p.Malformed) != 5 {
		t.Fatalf("records %+v, malformed %+v; want 0 and 5", p.Records, p.Malformed)
	}
	keys := map[string]bool{}
	for _, m := range p.Malformed {
		keys[m.Key] = true
		if m.ID != "" {
			t.Errorf("row %+v has an id", m)
		}
	}
	if len(keys) != 5 {
		t.Errorf("keys %v are not distinct", keys)
	}
	if p.Malformed[0].Err != "row is not a JSON object" {
		t.Errorf("err = %q", p.Malformed[0].Err)
	}
	// sha256("5") begins ef2d127de37b942b.
	if p.Malformed[0].Key != "sha256:ef2d127de37b942b" {
		t.Errorf("key of row 5 = %q", p.Malformed[0].Key)
	}
	if p.Malformed[4].Timestamp != 1721295317627 {
		t.Errorf("readable timestamp of an id-less row lost: %+v", p.Malformed[4])
	}
}

// Only data that is not an object with a rows array fails the page.
func TestHistoryDataThatIsNotARowsArrayIsAnError(t *testing.T) {
	for _, data := range []string{`{"rows":{}}`, `{"rows":"x"}`, `[]`, `5`} {
		if p, err := decodeHistory(json.RawMessage(data)); err == nil {
			t.Errorf("%s decoded as %+v", data, p)
		}
	}
}

// A value of a few megabytes in a bad row shows in the error only in part,
// and an overlong id is not kept.
func TestMalformedRowErrorQuotesLittleOfTheValue(t *testing.T) {
	long := strings.Repeat("9", 5000)
	p, err := decodeHistory(mustData(t, `{"success":true,"data":{"rows":[{"id":`+long+`,"amount":"`+long+`x","timestamp":"`+long+`"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	m := p.Malformed[0]
	if len(m.Err) > 400 || m.ID != "" || !strings.HasPrefix(m.Key, "sha256:") {
		t.Errorf("malformed row of %d-character values: id %q, key %q, error of %d characters: %s", len(long), m.ID, m.Key, len(m.Err), m.Err)
	}
	for _, field := range []string{"id: ", "timestamp: ", "amount: "} {
		if !strings.Contains(m.Err, field) {
			t.Errorf("error %q does not name %s", m.Err, field)
		}
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
		field, value, reason string
	}{
		{"id", `18446744073709551617`, "not an integer within int64"},
		{"id", `"18446744073709551617"`, "not an integer within int64"},
		{"id", `9223372036854775808`, "not an integer within int64"},
		{"id", `-9223372036854775809`, "not an integer within int64"},
		{"id", `1e19`, "not an integer within int64"},
		{"id", `"1e19"`, "not an integer within int64"},
		{"id", `1e400`, "not an integer within int64"},
		{"id", `-1e400`, "not an integer within int64"},
		{"id", `1e1000000000`, "not an integer within int64"},
		{"id", `"1e5000"`, "not an integer within int64"},
		{"timestamp", `18446744073709551617`, "beyond nanoseconds"},
		{"timestamp", `9223372036854775808`, "beyond nanoseconds"},
		{"timestamp", `"1e19"`, "beyond nanoseconds"},
		{"timestamp", `1e400`, "beyond nanoseconds"},
		{"timestamp", `1e1000000000`, "beyond nanoseconds"},
	} {
		row := map[string]string{"id": `1`, "timestamp": `1721295317627`}
		row[tc.field] = tc.value
		body := `{"success":true,"data":{"rows":[{"id":` + row["id"] + `,"type":"DEPOSIT","token":"BTC","amount":"1","timestamp":` + row["timestamp"] + `}]}}`
		p, err := decodeHistory(mustData(t, body))
		if err != nil || len(p.Records) != 0 || len(p.Malformed) != 1 {
			t.Errorf("%s %s: decoded as %+v, %v; want one malformed row", tc.field, tc.value, p, err)
			continue
		}
		if e := p.Malformed[0].Err; !strings.HasPrefix(e, tc.field+": ") || !strings.Contains(e, tc.reason) {
			t.Errorf("%s %s: error %q does not name the field and the reason", tc.field, tc.value, e)
		}
	}
	for _, meta := range []string{`{"total":1e19}`, `{"total":18446744073709551617}`, `{"records_per_page":"1e400"}`} {
		body := `{"success":true,"data":{"rows":[],"meta":` + meta + `}}`
		if _, m, err := decodeCredentials(mustData(t, body)); err == nil {
			t.Errorf("meta %s: decoded as %+v", meta, m)
		}
	}
}

// Through the client, a row with an overflowing id is reported with its id
// as sent, and the rest of the page arrives.
func TestOverflowingIDIsAMalformedRowOfThePage(t *testing.T) {
	srv := pagesServer(t, `[{"id":18446744073709551617,"type":"DEPOSIT","token":"BTC","amount":"1","timestamp":1721295317627},{"id":2,"type":"DEPOSIT","token":"BTC","amount":"1","timestamp":1721295317628}]`)
	recs, bad, err := newTestClient(t, srv.URL, nil).TokenHistory(context.Background(), HistoryQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].ID != 2 {
		t.Errorf("records = %+v, want the row with id 2", recs)
	}
	if len(bad) != 1 || bad[0].ID != "18446744073709551617" || bad[0].Key != "id:18446744073709551617" ||
		bad[0].Timestamp != 1721295317627 || !strings.HasPrefix(bad[0].Err, "id: ") {
		t.Errorf("malformed = %+v", bad)
	}
}

// A token network row that lacks a flag, fee or minimum is rejected naming
// the field (read as 0 or false it would be a free withdrawal or a disabled
// network), and the other rows are read. The v1 snake_case names are the
// same fields.
func TestDecodeTokenNetworksRejectsOddRows(t *testing.T) {
	full := `"token":"USDT","network":"TRON","protocol":"TRC20","name":"Tron","minimumWithdrawal":"2","withdrawalFee":"1","allowDeposit":1,"allowWithdraw":1`
	without := func(field string) string { return `{` + strings.Replace(full, field, `"x":0`, 1) + `}` }
	checkOddRows(t, "rows", `{`+full+`}`, `{"token":"BTC","network":"BTC","minimum_withdrawal":"0.001","withdrawal_fee":"0.0005","allow_deposit":"1","allow_withdraw":"0"}`, decodeTokenNetworks, []oddRow{
		{"no allowWithdraw", without(`"allowWithdraw":1`), "token USDT network TRON", "allowWithdraw", "allowWithdraw: missing"},
		{"no allowDeposit", without(`"allowDeposit":1`), "token USDT network TRON", "allowDeposit", "allowDeposit: missing"},
		{"no withdrawalFee", without(`"withdrawalFee":"1"`), "token USDT network TRON", "withdrawalFee", "withdrawalFee: missing"},
		{"no minimumWithdrawal", without(`"minimumWithdrawal":"2"`), "token USDT network TRON", "minimumWithdrawal", "minimumWithdrawal: missing"},
		{"no network", without(`"network":"TRON"`), "token USDT", "network", "network: missing"},
		{"blank network", `{` + strings.Replace(full, `"network":"TRON"`, `"network":"  "`, 1) + `}`, "token USDT", "network", "network: missing"},
		{"no token", without(`"token":"USDT"`), "", "token", "token: missing"},
		{"flag not a flag", `{"token":"A","network":"B","minimumWithdrawal":"1","withdrawalFee":"1","allowDeposit":"yes","allowWithdraw":1}`,
			"token A network B", "allowDeposit", `allowDeposit: invalid flag "yes"`},
		{"null fee", `{"token":"A","network":"B","minimumWithdrawal":"1","withdrawalFee":null,"allowDeposit":1,"allowWithdraw":1}`,
			"token A network B", "withdrawalFee", "withdrawalFee: missing"},
		{"v1 empty fee", `{"token":"A","network":"B","minimum_withdrawal":"1","withdrawal_fee":"","allow_deposit":1,"allow_withdraw":1}`,
			"token A network B", "withdrawalFee", "withdrawalFee: missing"},
	})
	if _, err := decodeTokenNetworks(mustData(t, `{"success":true,"data":{}}`)); err == nil || !strings.Contains(err.Error(), "no rows") {
		t.Errorf("an answer without rows: error %v", err)
	}
	l, err := decodeTokenNetworks(mustData(t, `{"success":true,"data":{"rows":[{"token":"A","network":"B","minimum_withdrawal":"1","withdrawal_fee":"0.5","allow_deposit":"0","allow_withdraw":true}]}}`))
	if rows := l.rows; err != nil || len(rows) != 1 || rows[0].AllowDeposit || !rows[0].AllowWithdraw || rows[0].WithdrawalFee.String() != "0.5" {
		t.Errorf("v1 spelling: %+v, %v", l, err)
	}
}
