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
// as the endpoint's poll gives send, which reports how many rows it read
// and how many it rejected.
type decodeCase struct {
	name   string
	body   []byte
	decode func(c *Client, data json.RawMessage, serverMs int64) (rows, rejected int, err error)
	rows   int
}

// BenchmarkDecode reads answers as send does once the exchange has
// answered: the body from a reader, the envelope, the clock, the data to
// the rows the poll returns.
func BenchmarkDecode(b *testing.B) {
	c, err := New(Config{BaseURL: "http://127.0.0.1:1", Account: "main", APIKey: "bench-key", APISecret: testSecret,
		MaxRetries: -1, Metrics: NewMetrics(prometheus.NewRegistry()), Logger: log.NewNopLogger()})
	if err != nil {
		b.Fatal(err)
	}
	for _, dc := range decodeCases(b) {
		b.Run(dc.name, func(b *testing.B) {
			var rows, rejected int
			r := request{op: "bench", decode: func(data json.RawMessage, serverMs int64) (err error) {
				rows, rejected, err = dc.decode(c, data, serverMs)
				return err
			}}
			// The answer's own time as the round trip's, so the clock
			// trusts it and logs nothing.
			at := time.UnixMilli(benchServerMs(b, dc.body))
			answer := func() error {
				body, err := readBody(bytes.NewReader(dc.body), c.cfg.MaxBodyBytes)
				if err != nil {
					return err
				}
				return c.decodeAnswer(r, 200, body, at, at)
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

// decodeCases are the answers of the polls that run most: captures in the
// all-strings form live answers have sent since October 2025.
func decodeCases(b *testing.B) []decodeCase {
	capture := func(name string) []byte {
		body, err := os.ReadFile(filepath.Join("testdata", "captures", name))
		if err != nil {
			b.Fatal(err)
		}
		return body
	}
	return []decodeCase{
		{"positions", capture("futures_positions_strings.json"), func(c *Client, data json.RawMessage, _ int64) (int, int, error) {
			l, err := decodePositions(data)
			return len(l.rows), len(c.onPage(l.rejected, 1)), err
		}, 1},
		{"balances", capture("docs_balances_strings.json"), func(c *Client, data json.RawMessage, serverMs int64) (int, int, error) {
			l, err := decodeBalances(data)
			s := BalanceSnapshot{TimeMs: serverMs, Balances: l.rows, Rejected: c.onPage(l.rejected, 1)}
			return len(s.Balances), len(s.Rejected), err
		}, 2},
		{"account_info", capture("account_info_strings.json"), func(_ *Client, data json.RawMessage, _ int64) (int, int, error) {
			_, err := decodeAccountInfo(data)
			return 1, 0, err
		}, 1},
		{"wallet_history", capture("wallet_history_strings.json"), func(c *Client, data json.RawMessage, _ int64) (int, int, error) {
			l, err := decodeWalletHistory(data)
			return len(l.rows), len(c.onPage(l.rejected, 1)), err
		}, 1},
		{"transfer_history", capture("docs_transfer_history_strings.json"), func(c *Client, data json.RawMessage, _ int64) (int, int, error) {
			l, err := decodeTransferHistory(data)
			return len(l.rows), len(c.onPage(l.rejected, 1)), err
		}, 1},
		{"token_history", tokenHistoryPage(25), func(_ *Client, data json.RawMessage, serverMs int64) (int, int, error) {
			p, err := decodeHistory(data)
			p.ServerTimeMs = serverMs
			return len(p.Records), len(p.Malformed), err
		}, 25},
		{"credentials", capture("docs_credentials_strings.json"), func(c *Client, data json.RawMessage, _ int64) (int, int, error) {
			l, _, err := decodeCredentials(data)
			return len(l.rows), len(c.onPage(l.rejected, 1)), err
		}, 1},
	}
}

// tokenHistoryPage is a page of n token history rows. No answer of the
// endpoint was captured: the rows have the fields the docs list, every
// number a string as in live answers.
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
func benchServerMs(b *testing.B, body []byte) int64 {
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
