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

// BalanceSnapshot is one answer of the balances endpoint, as of TimeMs, its
// server time in Unix ms (0 when none), and the rows that could not be read.
type BalanceSnapshot struct {
	TimeMs   int64
	Balances []Balance
	Rejected []RejectedRow
}

// Balances returns the account's balance of each token, and the rows not read.
func (c *Client) Balances(ctx context.Context) ([]Balance, []RejectedRow, error) {
	s, err := c.BalanceSnapshot(ctx)
	return s.Balances, s.Rejected, err
}

// BalanceSnapshot returns the account's balances with their time.
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

// decodeBalances reads data.holding[].
func decodeBalances(data json.RawMessage) (list[Balance], error) {
	l, err := decodeDataList(data, "balances", "holding", decodeBalance, func(b Balance) string { return prefixed("token ", b.Token) })
	return listedOnce(l, err, "holding: token", func(b Balance) string { return b.Token })
}

func decodeBalance(f fields) (b Balance, err error) {
	err = f.read(need("token", &b.Token), may("holding", &b.Holding), may("frozen", &b.Frozen), may("staked", &b.Staked),
		may("availableBalance", &b.Available), may("markPrice", &b.MarkPrice))
	return b, err
}
