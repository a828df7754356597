package client

import (
	"context"
	"encoding/json"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// Balance is one token of GET /v3/asset/balances, in token units except
// MarkPrice, the exchange's price of the token in USDT. A field the
// exchange did not send is nil.
type Balance struct {
	Token     string
	Holding   *decimal.Decimal
	Frozen    *decimal.Decimal
	Staked    *decimal.Decimal
	Available *decimal.Decimal
	MarkPrice *decimal.Decimal
}

// BalanceSnapshot is one answer of the balances endpoint: every token's
// balance as of TimeMs, the answer's server time in Unix milliseconds (0
// when the answer carries none), and the rows that could not be read.
type BalanceSnapshot struct {
	TimeMs   int64
	Balances []Balance
	Rejected []RejectedRow
}

// Balances returns the account's balance of every token it holds, and the
// rows that could not be read.
func (c *Client) Balances(ctx context.Context) ([]Balance, []RejectedRow, error) {
	s, err := c.BalanceSnapshot(ctx)
	return s.Balances, s.Rejected, err
}

// BalanceSnapshot returns the account's balances with the time they are
// from.
func (c *Client) BalanceSnapshot(ctx context.Context) (BalanceSnapshot, error) {
	var out BalanceSnapshot
	err := c.get(ctx, request{op: "get balances", endpoint: endpoint.Balances, signed: true,
		decode: func(data json.RawMessage, serverMs int64) error {
			l, err := decodeBalances(data)
			out = BalanceSnapshot{TimeMs: serverMs, Balances: l.rows, Rejected: c.onPage(l.rejected, 1)}
			return err
		}})
	return out, err
}

// decodeBalances reads data.holding[]. A token listed twice fails the
// answer: which of its rows holds the balance is unknown.
func decodeBalances(data json.RawMessage) (list[Balance], error) {
	l, err := decodeDataList(data, "balances", "holding", decodeBalance, func(b Balance) string { return prefixed("token ", b.Token) })
	return listedOnce(l, err, "holding: token", func(b Balance) string { return b.Token })
}

func decodeBalance(f fields) (b Balance, err error) {
	err = f.read(need("token", &b.Token), may("holding", &b.Holding), may("frozen", &b.Frozen), may("staked", &b.Staked),
		may("availableBalance", &b.Available), may("markPrice", &b.MarkPrice))
	return b, err
}
