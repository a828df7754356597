package client

import (
	"context"
	"encoding/json"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// Position is one row of GET /v3/futures/positions: one symbol and side of
// the account's futures. Prices are in the symbol's quote currency, sizes
// in its base currency. A field the exchange did not send is nil.
type Position struct {
	Symbol                          string
	Side                            string          // BOTH in one-way mode, LONG or SHORT in hedge mode
	MarginMode                      string          // CROSS or ISOLATED
	Holding                         decimal.Decimal // signed: negative for a short
	PendingLongQty, PendingShortQty *decimal.Decimal
	AverageOpenPrice, MarkPrice     *decimal.Decimal
	EstLiqPrice                     *decimal.Decimal // 0 for a position the exchange would not liquidate
	Pnl24H, Fee24H, Leverage        *decimal.Decimal
	AdlQuantile                     *decimal.Decimal // the auto-deleverage rank, 1 (low) to 5 (high)
	IsolatedMarginToken             string
	IsolatedMarginAmount            *decimal.Decimal
	TimestampMs                     int64 // the exchange's latest update, Unix ms; 0 when not sent
}

// Closed reports whether the position holds and waits for nothing: the
// exchange may keep listing it after it closed.
func (p *Position) Closed() bool {
	zero := func(d *decimal.Decimal) bool { return d == nil || d.IsZero() }
	return p.Holding.IsZero() && zero(p.PendingLongQty) && zero(p.PendingShortQty)
}

// Positions returns the account's futures positions, closed ones too, and
// the rows that could not be read.
func (c *Client) Positions(ctx context.Context) ([]Position, []RejectedRow, error) {
	l, err := getData(ctx, c, request{op: "get positions", endpoint: endpoint.Positions, signed: true}, decodePositions)
	return l.rows, c.onPage(l.rejected, 1), err
}

// decodePositions reads data.positions[], each symbol and side once.
func decodePositions(data json.RawMessage) (list[Position], error) {
	name := func(p Position) string { return prefixed("symbol ", p.Symbol) + prefixed(" side ", p.Side) }
	l, err := decodeDataList(data, "positions", "positions", decodePosition, name)
	return listedOnce(l, err, "positions:", name)
}

// decodePosition reads one row; without symbol, side, margin mode and
// holding it names no position or size.
func decodePosition(f fields) (p Position, err error) {
	err = f.read(need("symbol", &p.Symbol), need("positionSide", &p.Side), need("marginMode", &p.MarginMode),
		need("holding", &p.Holding), may("pendingLongQty", &p.PendingLongQty), may("pendingShortQty", &p.PendingShortQty),
		may("averageOpenPrice", &p.AverageOpenPrice), may("markPrice", &p.MarkPrice), may("estLiqPrice", &p.EstLiqPrice),
		may("pnl24H", &p.Pnl24H), may("fee24H", &p.Fee24H), may("leverage", &p.Leverage), may("adlQuantile", &p.AdlQuantile),
		may("isolatedMarginAmount", &p.IsolatedMarginAmount), may("isolatedMarginToken", &p.IsolatedMarginToken),
		may("timestamp", &p.TimestampMs))
	return p, err
}
