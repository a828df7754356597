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
	Symbol string
	// Side is BOTH in one-way mode, LONG or SHORT in hedge mode.
	Side string
	// MarginMode is CROSS or ISOLATED.
	MarginMode string
	// Holding is the signed size: negative for a short.
	Holding          decimal.Decimal
	PendingLongQty   *decimal.Decimal
	PendingShortQty  *decimal.Decimal
	AverageOpenPrice *decimal.Decimal
	MarkPrice        *decimal.Decimal
	// EstLiqPrice is the estimated liquidation price; the exchange sends 0
	// for a position it would not liquidate.
	EstLiqPrice *decimal.Decimal
	Pnl24H      *decimal.Decimal
	Fee24H      *decimal.Decimal
	Leverage    *decimal.Decimal
	// AdlQuantile is the auto-deleverage rank, 1 (low) to 5 (high).
	AdlQuantile          *decimal.Decimal
	IsolatedMarginToken  string
	IsolatedMarginAmount *decimal.Decimal
	// TimestampMs is when the exchange last updated the position, in Unix
	// milliseconds; 0 when not sent.
	TimestampMs int64
}

// Closed reports whether the position holds nothing and waits for nothing:
// the exchange may keep listing such rows after a position is closed.
func (p *Position) Closed() bool {
	zero := func(d *decimal.Decimal) bool { return d == nil || d.IsZero() }
	return p.Holding.IsZero() && zero(p.PendingLongQty) && zero(p.PendingShortQty)
}

// Positions returns the account's futures positions, closed ones included,
// and the rows that could not be read.
func (c *Client) Positions(ctx context.Context) ([]Position, []RejectedRow, error) {
	l, err := getData(ctx, c, request{op: "get positions", endpoint: endpoint.Positions, signed: true}, decodePositions)
	return l.rows, c.onPage(l.rejected, 1), err
}

// decodePositions reads data.positions[]. A symbol and side listed twice
// fails the answer: which row holds the position is unknown.
func decodePositions(data json.RawMessage) (list[Position], error) {
	name := func(p Position) string { return prefixed("symbol ", p.Symbol) + prefixed(" side ", p.Side) }
	l, err := decodeDataList(data, "positions", "positions", decodePosition, name)
	return listedOnce(l, err, "positions:", name)
}

// decodePosition reads one row. Symbol, side, margin mode and holding are
// required: without them the row names no position or no size.
func decodePosition(f fields) (p Position, err error) {
	err = f.read(need("symbol", &p.Symbol), need("positionSide", &p.Side), need("marginMode", &p.MarginMode),
		need("holding", &p.Holding), may("pendingLongQty", &p.PendingLongQty), may("pendingShortQty", &p.PendingShortQty),
		may("averageOpenPrice", &p.AverageOpenPrice), may("markPrice", &p.MarkPrice), may("estLiqPrice", &p.EstLiqPrice),
		may("pnl24H", &p.Pnl24H), may("fee24H", &p.Fee24H), may("leverage", &p.Leverage), may("adlQuantile", &p.AdlQuantile),
		may("isolatedMarginAmount", &p.IsolatedMarginAmount), may("isolatedMarginToken", &p.IsolatedMarginToken),
		may("timestamp", &p.TimestampMs))
	return p, err
}
