package client

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// EndpointPositions is the endpoint's name in the endpoint table (endpoint.All).
const EndpointPositions = endpoint.Positions

// PathPositions is the endpoint's path in the endpoint table.
var PathPositions = endpoint.PathOf(endpoint.Positions)

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
	var l list[Position]
	err := c.get(ctx, request{op: "get positions", endpoint: EndpointPositions, path: PathPositions, signed: true,
		decode: func(data json.RawMessage, _ int64) (err error) {
			l, err = decodePositions(data)
			return err
		}})
	return l.rows, c.onPage(l.rejected, 1), err
}

// decodePositions reads data.positions[]. A symbol and side listed twice
// fails the answer: which row holds the position is unknown.
func decodePositions(data json.RawMessage) (list[Position], error) {
	_, rows, err := decodeDataRows(data, "positions", "positions")
	if err != nil {
		return list[Position]{}, err
	}
	l := decodeList(rows, decodePosition, func(p Position) string {
		return prefixed("symbol ", p.Symbol) + prefixed(" side ", p.Side)
	})
	seen := make(map[[2]string]bool, len(l.rows))
	for _, p := range l.rows {
		key := [2]string{p.Symbol, p.Side}
		if seen[key] {
			return list[Position]{}, fmt.Errorf("positions: symbol %s side %s listed twice", p.Symbol, p.Side)
		}
		seen[key] = true
	}
	return l, nil
}

// decodePosition reads one row. Symbol, side, margin mode and holding are
// required: without them the row names no position or no size.
func decodePosition(f fields) (Position, error) {
	var p Position
	var err error
	for _, t := range []struct {
		name string
		dst  *string
	}{{"symbol", &p.Symbol}, {"positionSide", &p.Side}, {"marginMode", &p.MarginMode}} {
		if *t.dst, err = f.requiredText(t.name); err != nil {
			return p, err
		}
	}
	if p.Holding, err = f.requiredDecimal("holding"); err != nil {
		return p, err
	}
	if err = f.decimals([]decimalField{
		{"pendingLongQty", &p.PendingLongQty}, {"pendingShortQty", &p.PendingShortQty},
		{"averageOpenPrice", &p.AverageOpenPrice}, {"markPrice", &p.MarkPrice}, {"estLiqPrice", &p.EstLiqPrice},
		{"pnl24H", &p.Pnl24H}, {"fee24H", &p.Fee24H}, {"leverage", &p.Leverage}, {"adlQuantile", &p.AdlQuantile},
		{"isolatedMarginAmount", &p.IsolatedMarginAmount},
	}); err != nil {
		return p, err
	}
	if p.IsolatedMarginToken, _, err = f.text("isolatedMarginToken"); err != nil {
		return p, err
	}
	if p.TimestampMs, _, err = f.time("timestamp"); err != nil {
		return p, err
	}
	return p, nil
}
