package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-kit/log"
	"github.com/prometheus/client_golang/prometheus"
)

// decodeCase is one answer the benchmark decodes: the body, and a decode
// as the endpoint's poll gives send. It counts the rows read and rejected,
// and sets *out, when not nil, to what the poll returns.
type decodeCase struct {
	name   string
	body   []byte
	decode func(c *Client, data json.RawMessage, serverMs int64, out *any) (rows, rejected int, err error)
	rows   int
}

func listOf[T any](c *Client, l list[T], out *any) (rows, rejected int) {
	l.rejected = c.onPage(l.rejected, 1)
	if out != nil {
		*out = l
	}
	return len(l.rows), len(l.rejected)
}

func keep(out *any, v any) {
	if out != nil {
		*out = v
	}
}

// BenchmarkDecode reads answers as send does once the exchange has
// answered: the body from a reader, the envelope, the clock, the data to
// what the poll returns.
func BenchmarkDecode(b *testing.B) {
	c := decodeClient(b)
	for _, dc := range decodeCases(b) {
		b.Run(dc.name, func(b *testing.B) {
			var rows, rejected int
			r := request{op: "bench", decode: func(data json.RawMessage, serverMs int64) (err error) {
				rows, rejected, err = dc.decode(c, data, serverMs, nil)
				return err
			}}
			// The answer's own time as the round trip's, so the clock
			// trusts it and logs nothing.
			at := time.UnixMilli(benchServerMs(b, dc.body))
			answer := func() error {
				buf, err := readBody(bytes.NewReader(dc.body), c.cfg.MaxBodyBytes)
				defer releaseBody(buf)
				if err != nil {
					return err
				}
				return c.decodeAnswer(r, 200, buf.Bytes(), at, at)
			}
			if err := answer(); err != nil || rows != dc.rows || rejected != 0 {
				b.Fatalf("decoded %d rows (%d rejected), want %d: %v", rows, rejected, dc.rows, err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := answer(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func decodeClient(tb testing.TB) *Client {
	c, err := New(Config{BaseURL: "http://127.0.0.1:1", Account: "main", APIKey: "bench-key", APISecret: testSecret,
		MaxRetries: -1, Metrics: NewMetrics(prometheus.NewRegistry()), Logger: log.NewNopLogger()})
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

func readCapture(tb testing.TB, name string) []byte {
	body, err := os.ReadFile(filepath.Join("testdata", "captures", name))
	if err != nil {
		tb.Fatal(err)
	}
	return body
}

// decodeCases are the answers of the polls that run most: captures in the
// all-strings form real answers have sent since October 2025.
func decodeCases(tb testing.TB) []decodeCase {
	return []decodeCase{
		{"positions", readCapture(tb, "futures_positions_strings.json"), func(c *Client, data json.RawMessage, _ int64, out *any) (int, int, error) {
			l, err := decodePositions(data)
			rows, rejected := listOf(c, l, out)
			return rows, rejected, err
		}, 1},
		{"balances", readCapture(tb, "docs_balances_strings.json"), func(c *Client, data json.RawMessage, serverMs int64, out *any) (int, int, error) {
			l, err := decodeBalances(data)
			s := BalanceSnapshot{TimeMs: serverMs, Balances: l.rows, Rejected: c.onPage(l.rejected, 1)}
			keep(out, s)
			return len(s.Balances), len(s.Rejected), err
		}, 2},
		{"account_info", readCapture(tb, "account_info_strings.json"), func(_ *Client, data json.RawMessage, _ int64, out *any) (int, int, error) {
			info, err := decodeAccountInfo(data)
			keep(out, info)
			return 1, 0, err
		}, 1},
		{"wallet_history", readCapture(tb, "wallet_history_strings.json"), func(c *Client, data json.RawMessage, _ int64, out *any) (int, int, error) {
			l, err := decodeWalletHistory(data)
			rows, rejected := listOf(c, l, out)
			return rows, rejected, err
		}, 1},
		{"transfer_history", readCapture(tb, "docs_transfer_history_strings.json"), func(c *Client, data json.RawMessage, _ int64, out *any) (int, int, error) {
			l, err := decodeTransferHistory(data)
			rows, rejected := listOf(c, l, out)
			return rows, rejected, err
		}, 1},
		{"token_history", tokenHistoryPage(25), func(_ *Client, data json.RawMessage, serverMs int64, out *any) (int, int, error) {
			p, err := decodeHistory(data)
			p.ServerTimeMs = serverMs
			keep(out, p)
			return len(p.Records), len(p.Malformed), err
		}, 25},
		{"credentials", readCapture(tb, "docs_credentials_strings.json"), func(c *Client, data json.RawMessage, _ int64, out *any) (int, int, error) {
			l, _, err := decodeCredentials(data)
			rows, rejected := listOf(c, l, out)
			return rows, rejected, err
		}, 1},
	}
}

// tokenHistoryPage is a page of n token history rows. No answer of the
// endpoint was captured: the rows have the fields the docs list, every
// number a string as in real answers.
func tokenHistoryPage(n int) []byte {
	types := []string{"DEPOSIT", "WITHDRAW", "REALIZED_PNL", "FEE"}
	rows := make([]string, n)
	for i := range rows {
		rows[i] = fmt.Sprintf(`{"id":"%d","type":"%s","token":"USDT","amount":"%d.%08d","timestamp":"%d"}`,
			24032312465400366+i, types[i%len(types)], 100+i, 12345678*i%100000000, 1752495884477-int64(i)*60000)
	}
	return fmt.Appendf(nil, `{"success":true,"data":{"rows":[%s],"meta":{"total":"%d","records_per_page":"1000","current_page":"1"}},"timestamp":"1752495884477"}`,
		strings.Join(rows, ","), n)
}

// benchServerMs is the envelope time of body.
func benchServerMs(b testing.TB, body []byte) int64 {
	var env envelope
	if err := json.Unmarshal(body, &env); err != nil {
		b.Fatal(err)
	}
	ms := env.serverTimeMs()
	if ms == 0 {
		b.Fatal("answer without a time")
	}
	return ms
}
