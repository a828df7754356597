package client

import (
	"context"
	"encoding/json"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// Perpetual is one row of GET /v3/public/futures: a perpetual's prices and
// funding, nil when not sent or null (an index price has been, in a real answer).
type Perpetual struct {
	Symbol string
	// EstFundingRate is expected at the next funding time, LastFundingRate was
	// at the last; a positive rate means longs pay shorts.
	EstFundingRate, LastFundingRate *decimal.Decimal
	MarkPrice, IndexPrice           *decimal.Decimal
	NextFundingTimeMs               int64 // Unix ms as sent (seen in the past in a real answer); 0 when not sent
}

// Perpetuals returns every perpetual listed, and the rows not read (a public endpoint).
func (c *Client) Perpetuals(ctx context.Context) ([]Perpetual, []RejectedRow, error) {
	l, err := getData(ctx, c, request{op: "get futures", endpoint: endpoint.Futures}, decodePerpetuals)
	return l.rows, c.onPage(l.rejected, 1), err
}

// decodePerpetuals reads data.rows[]; only the symbol is required.
func decodePerpetuals(data json.RawMessage) (list[Perpetual], error) {
	l, err := decodeDataList(data, "futures", "rows", func(f fields) (p Perpetual, err error) {
		err = f.read(need("symbol", &p.Symbol), may("estFundingRate", &p.EstFundingRate), may("lastFundingRate", &p.LastFundingRate),
			may("markPrice", &p.MarkPrice), may("indexPrice", &p.IndexPrice), may("nextFundingTime", &p.NextFundingTimeMs))
		return p, err
	}, func(p Perpetual) string { return prefixed("symbol ", p.Symbol) })
	return listedOnce(l, err, "futures: symbol", func(p Perpetual) string { return p.Symbol })
}
