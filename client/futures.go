package client

import (
	"context"
	"encoding/json"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// EndpointFutures is the endpoint's name in the endpoint table (endpoint.All).
const EndpointFutures = endpoint.Futures

// PathFutures is the endpoint's path in the endpoint table.
var PathFutures = endpoint.PathOf(endpoint.Futures)

// Perpetual is one row of GET /v3/public/futures: a perpetual's prices and
// funding. A field the exchange did not send, or sent as null (an index
// price has been seen null live), is nil.
type Perpetual struct {
	Symbol string
	// EstFundingRate is the rate expected at the next settlement;
	// LastFundingRate the one of the last. A positive rate means longs pay
	// shorts.
	EstFundingRate, LastFundingRate *decimal.Decimal
	MarkPrice, IndexPrice           *decimal.Decimal
	// NextFundingTimeMs is the next settlement in Unix milliseconds, as
	// sent (it has been seen in the past live); 0 when not sent.
	NextFundingTimeMs int64
}

// Perpetuals returns every perpetual the exchange lists, and the rows that
// could not be read. The endpoint is public.
func (c *Client) Perpetuals(ctx context.Context) ([]Perpetual, []RejectedRow, error) {
	var l list[Perpetual]
	err := c.get(ctx, request{op: "get futures", endpoint: EndpointFutures, path: PathFutures,
		decode: func(data json.RawMessage, _ int64) (err error) {
			l, err = decodePerpetuals(data)
			return err
		}})
	return l.rows, c.onPage(l.rejected, 1), err
}

// decodePerpetuals reads data.rows[]. Only the symbol is required: each
// other field is a series of its own, left out when not sent. A symbol
// listed twice fails the answer.
func decodePerpetuals(data json.RawMessage) (list[Perpetual], error) {
	_, rows, err := decodeDataRows(data, "futures", "rows")
	if err != nil {
		return list[Perpetual]{}, err
	}
	l := decodeList(rows, func(f fields) (p Perpetual, err error) {
		if p.Symbol, err = f.requiredText("symbol"); err != nil {
			return p, err
		}
		if err = f.decimals([]decimalField{{"estFundingRate", &p.EstFundingRate}, {"lastFundingRate", &p.LastFundingRate},
			{"markPrice", &p.MarkPrice}, {"indexPrice", &p.IndexPrice}}); err != nil {
			return p, err
		}
		p.NextFundingTimeMs, _, err = f.time("nextFundingTime")
		return p, err
	}, func(p Perpetual) string { return prefixed("symbol ", p.Symbol) })
	return l, oncePerSymbol("futures", l.rows, func(p Perpetual) string { return p.Symbol })
}
