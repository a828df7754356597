package client

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"math/big"
	"regexp"
	"strconv"
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
	f.Add([]byte(`{"success":true,"data":{"rows":[{"id":"5","type":"DEPOSIT","token":"BTC","amount":"1","timestamp":"1579399877.041"},{"id":6,"amount":"x","timestamp":1579399877},7,null]},"timestamp":"1579399877.5"}`))
	f.Add([]byte(`{"success":true,"data":{"status":"2","msg":"maintenance","estimated_end_time":"1749963600.362"},"timestamp":1749960000000123}`))
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
			page, err := decodeHistory(d)
			if err != nil {
				return err
			}
			var raw struct {
				Rows []json.RawMessage `json:"rows"`
			}
			if jerr := json.Unmarshal(d, &raw); jerr != nil {
				t.Fatalf("decoded data that encoding/json cannot read as rows: %v", jerr)
			}
			// A malformed row is still a row: none is lost or invented.
			if n := len(page.Records) + len(page.Malformed); n != len(raw.Rows) {
				t.Fatalf("%d records and %d malformed rows from %d rows", len(page.Records), len(page.Malformed), len(raw.Rows))
			}
			// Rows are independent: each alone decodes as it did within
			// the page, and is checked against the raw row by a reader
			// that shares no code with the client's.
			var recs, bad int
			for _, row := range raw.Rows {
				alone, err := decodeHistory(json.RawMessage(`{"rows":[` + string(row) + `]}`))
				if err != nil || len(alone.Records)+len(alone.Malformed) != 1 {
					t.Fatalf("row %s alone: %+v, %v", row, alone, err)
				}
				var fields struct {
					ID        json.RawMessage `json:"id"`
					Timestamp json.RawMessage `json:"timestamp"`
				}
				isObject := json.Unmarshal(row, &fields) == nil
				if len(alone.Records) == 1 {
					r := alone.Records[0]
					if recs >= len(page.Records) || !sameRecord(page.Records[recs], r) {
						t.Fatalf("row %s decodes alone as %+v, not as within the page", row, r)
					}
					recs++
					if _, perr := r.Amount.MarshalText(); perr != nil {
						t.Fatalf("amount %v does not print: %v", r.Amount, perr)
					}
					assertExactInt(t, "id", fields.ID, r.ID)
					if want, ok := timeOracle(t, fields.Timestamp); !ok || want != r.Timestamp {
						t.Fatalf("timestamp %s decoded as %d, want %d (valid %v)", fields.Timestamp, r.Timestamp, want, ok)
					}
					continue
				}
				m := alone.Malformed[0]
				if bad >= len(page.Malformed) || page.Malformed[bad] != m {
					t.Fatalf("row %s decodes alone as %+v, not as within the page", row, m)
				}
				bad++
				checkMalformed(t, row, m)
				if m.Timestamp != 0 {
					if want, ok := timeOracle(t, fields.Timestamp); !isObject || !ok || want != m.Timestamp {
						t.Fatalf("malformed row %s keeps timestamp %d, want %d (valid %v)", row, m.Timestamp, want, ok)
					}
				}
			}
			return nil
		})
	})
}

// maxQuotedError bounds an error that quotes a value: 64 bytes of it, each
// escaped in at most 4 characters, and the words around.
const maxQuotedError = 64*4 + 64

func sameRecord(a, b HistoryRecord) bool {
	return a.ID == b.ID && a.Type == b.Type && a.Token == b.Token && a.Timestamp == b.Timestamp && a.Amount.Equal(b.Amount)
}

// checkMalformed holds a malformed row to its documented form.
func checkMalformed(t *testing.T, row json.RawMessage, m MalformedRow) {
	t.Helper()
	if m.Err == "" || len(m.Err) > 5*maxQuotedError {
		t.Fatalf("malformed row %s: error of %d bytes: %q", row, len(m.Err), m.Err)
	}
	if len(m.ID) > maxIDText {
		t.Fatalf("malformed row keeps an id of %d characters", len(m.ID))
	}
	if m.ID != "" {
		if m.Key != "id:"+m.ID {
			t.Fatalf("malformed row with id %q has key %q", m.ID, m.Key)
		}
		return
	}
	sum := sha256.Sum256(row)
	if want := "sha256:" + hex.EncodeToString(sum[:])[:16]; m.Key != want {
		t.Fatalf("malformed row %s without id has key %q, want %q", row, m.Key, want)
	}
}

// assertExactInt fails unless got is exactly the number the JSON value in
// raw (a number, or a string holding one) denotes.
func assertExactInt(t *testing.T, field string, raw json.RawMessage, got int64) {
	t.Helper()
	text := jsonScalar(t, raw)
	want, ok := new(big.Rat).SetString(text)
	if !ok {
		t.Fatalf("%s %s decoded as %d but is not a number", field, raw, got)
	}
	if want.Cmp(new(big.Rat).SetInt64(got)) != 0 {
		t.Fatalf("%s %s decoded as %d", field, raw, got)
	}
}

// jsonScalar is the text of a JSON number, or of a JSON string trimmed.
func jsonScalar(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	text := string(bytes.TrimSpace(raw))
	if strings.HasPrefix(text, `"`) {
		if err := json.Unmarshal(raw, &text); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		text = strings.TrimSpace(text)
	}
	return text
}

// plainDecimal is what the oracle compares: a decimal number whose exponent
// big.Rat can expand without running out of memory.
var plainDecimal = regexp.MustCompile(`^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]{1,4})?$`)

// timeOracle computes the documented magnitude rule of ParseTime with
// big.Rat: the Unix milliseconds raw denotes, or ok false when it denotes
// no time. An input the oracle cannot judge skips the test.
func timeOracle(t *testing.T, raw json.RawMessage) (ms int64, ok bool) {
	t.Helper()
	if len(raw) == 0 || string(raw) == "null" {
		return 0, false
	}
	text := string(bytes.TrimSpace(raw))
	if !strings.HasPrefix(text, `"`) && !plainDecimal.MatchString(text) {
		skipLongExponent(t, text)
		return 0, false // not a number or string
	}
	return timeTextOracle(t, jsonScalar(t, raw))
}

// skipLongExponent skips a number whose exponent has more digits than
// plainDecimal takes ("1e00000" is 1 to the client): beyond the oracle.
func skipLongExponent(t *testing.T, text string) {
	t.Helper()
	if regexp.MustCompile(`[eE][+-]?[0-9]{5,}$`).MatchString(text) {
		t.Skip("exponent too long for the oracle")
	}
}

func timeTextOracle(t *testing.T, text string) (int64, bool) {
	t.Helper()
	if !plainDecimal.MatchString(text) {
		skipLongExponent(t, text)
		return 0, false
	}
	v, ok := new(big.Rat).SetString(text)
	if !ok || v.Sign() <= 0 {
		return 0, false
	}
	pow := func(e int64) *big.Rat {
		return new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(e), nil))
	}
	var ms *big.Rat
	switch {
	case v.Cmp(pow(11)) < 0:
		ms = new(big.Rat).Mul(v, pow(3))
	case v.Cmp(pow(14)) < 0:
		ms = v
	case v.Cmp(pow(17)) < 0:
		ms = new(big.Rat).Quo(v, pow(3))
	case v.Cmp(new(big.Rat).SetInt64(math.MaxInt64).Add(new(big.Rat).SetInt64(math.MaxInt64), big.NewRat(1, 1))) < 0:
		ms = new(big.Rat).Quo(v, pow(6))
	default:
		return 0, false
	}
	whole := new(big.Int).Quo(ms.Num(), ms.Denom()) // truncates; ms > 0
	if whole.Sign() <= 0 || !whole.IsInt64() {
		return 0, false
	}
	return whole.Int64(), true
}

func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"1721295317627", "1579399877.041", "1579399877", "1721295317627123", "1721295317627123456",
		"0", "-1", "1e12", "1.5e9", ".5", "9223372036854775807", "9223372036854775808", "1e-3", "0.0009", "1e400", "abc", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got, err := ParseTime(text)
		want, ok := timeTextOracle(t, strings.TrimSpace(text))
		if (err == nil) != ok || (ok && got != want) {
			t.Fatalf("ParseTime(%q) = %d, %v; the magnitude rule gives %d (valid %v)", text, got, err, want, ok)
		}
		// 64 bytes of the value at most, each escaped in at most 4.
		if err != nil && len(err.Error()) > maxQuotedError {
			t.Fatalf("error of %d bytes quotes too much of the value", len(err.Error()))
		}
		// Milliseconds, and the same time as seconds with a fraction, read
		// back as themselves.
		if ok && got >= 1e12 && got < 1e13 {
			for _, form := range []string{strconv.FormatInt(got, 10), strconv.FormatInt(got/1000, 10) + "." + strconv.FormatInt(1000+got%1000, 10)[1:]} {
				if back, err := ParseTime(form); err != nil || back != got {
					t.Fatalf("ParseTime(%q) = %d, %v; want %d", form, back, err, got)
				}
			}
		}
	})
}

func FuzzDecodeCredentials(f *testing.F) {
	addAnswerSeeds(f)
	f.Add([]byte(`{"success":true,"data":{"rows":[{"apiKey":"+Pxxxxxxxxxxxxxxxxxxxx==","permissions":["READ"]},{"apiKey":{"k":"+Pyyyyyyyyyyyyyyyyyyyy=="}},"+Pzzzzzzzzzzzzzzzzzzzz==",{"apiKey":"k2","allowedIPs":"1.2.3.4"}]}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		decodeAnswer(t, body, func(d json.RawMessage) error {
			decode := func(d json.RawMessage) (list[Credential], error) {
				l, _, err := decodeCredentials(d)
				return l, err
			}
			l, err := decode(d)
			if err != nil {
				return err
			}
			raw := rawRowsAnySpelling(t, d, "rows")
			for j, i := range readIndexes(t, l, len(raw)) {
				if r := l.rows[j]; r.APIKey == "" || r.APIKey != rawField(t, raw[i], "apiKey") {
					t.Fatalf("row %d: key %q", i, r.APIKey)
				}
			}
			// A rejected row quotes nothing of its row: a key it holds
			// shows masked in its name at most.
			for _, r := range l.rejected {
				var m map[string]json.RawMessage
				_ = json.Unmarshal(raw[r.Index], &m)
				for _, v := range m {
					if text := strings.Trim(string(v), `"`); len(text) > 8 && (strings.Contains(r.Err, text) || strings.Contains(r.ID, text)) {
						t.Fatalf("rejected row %+v quotes %q", r, text)
					}
				}
			}
			checkOneRowCorrupted(t, "rows", raw, len(body), decode)
			return nil
		})
	})
}

func FuzzDecodeTokenNetworks(f *testing.F) {
	addAnswerSeeds(f)
	f.Add([]byte(`{"success":true,"data":{"rows":[{"token":"USDT","network":"TRON","minimum_withdrawal":"2","withdrawal_fee":1,"allow_deposit":"1","allow_withdraw":false},{"token":"A","network":"B","minimumWithdrawal":"1"}]}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		decodeAnswer(t, body, func(d json.RawMessage) error {
			l, err := decodeTokenNetworks(d)
			if err != nil {
				return err
			}
			// Every row read, every field under any spelling, exactly; a
			// flag or number nobody sent never decodes.
			raw := rawRowsAnySpelling(t, d, "rows")
			for j, i := range readIndexes(t, l, len(raw)) {
				r := l.rows[j]
				if r.Token == "" || r.Network == "" || r.Token != rawField(t, raw[i], "token") || r.Network != rawField(t, raw[i], "network") {
					t.Fatalf("row %d token %q network %q", i, r.Token, r.Network)
				}
				assertDecimalField(t, raw[i], "minimumWithdrawal", &r.MinimumWithdrawal)
				assertDecimalField(t, raw[i], "withdrawalFee", &r.WithdrawalFee)
				for field, on := range map[string]bool{"allowDeposit": r.AllowDeposit, "allowWithdraw": r.AllowWithdraw} {
					if want, ok := flagOracle(rawField(t, raw[i], field)); !ok || want != on {
						t.Fatalf("row %d %s %q decoded as %v", i, field, rawField(t, raw[i], field), on)
					}
				}
			}
			checkOneRowCorrupted(t, "rows", raw, len(body), decodeTokenNetworks)
			return nil
		})
	})
}

// flagOracle reads a flag's text: true/false, or a number, on unless 0;
// false when the text is neither.
func flagOracle(text string) (on, ok bool) {
	switch strings.ToLower(text) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	r, ok := new(big.Rat).SetString(text)
	return ok && r.Sign() != 0, ok
}

func FuzzDecodeSystemInfo(f *testing.F) {
	addAnswerSeeds(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		decodeAnswer(t, body, func(d json.RawMessage) error {
			info, err := decodeSystemInfo(d)
			if err != nil {
				return err
			}
			var raw struct {
				Status json.RawMessage `json:"status"`
			}
			if jerr := json.Unmarshal(d, &raw); jerr != nil {
				t.Fatalf("decoded data encoding/json cannot read: %v", jerr)
			}
			assertExactInt(t, "status", raw.Status, int64(info.Status))
			if info.EstimatedEndTime < 0 {
				t.Fatalf("estimated end time %d", info.EstimatedEndTime)
			}
			return nil
		})
	})
}

func FuzzServerTime(f *testing.F) {
	addAnswerSeeds(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		var env envelope
		if json.Unmarshal(body, &env) != nil {
			return
		}
		got := env.serverTimeMs()
		want, ok := timeOracle(t, env.Timestamp)
		if !ok {
			want = 0
		}
		if got != want {
			t.Fatalf("envelope timestamp %s read as %d, want %d", env.Timestamp, got, want)
		}
	})
}
