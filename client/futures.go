package client

import (
	"context"
	"encoding/json"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

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
	l, err := getData(ctx, c, request{op: "get futures", endpoint: endpoint.Futures}, decodePerpetuals)
	return l.rows, c.onPage(l.rejected, 1), err
}

// decodePerpetuals reads data.rows[]. Only the symbol is required: each
// other field is a series of its own, left out when not sent. A symbol
// listed twice fails the answer.
func decodePerpetuals(data json.RawMessage) (list[Perpetual], error) {
	l, err := decodeDataList(data, "futures", "rows", func(f fields) (p Perpetual, err error) {
		err = f.read(need("symbol", &p.Symbol), may("estFundingRate", &p.EstFundingRate), may("lastFundingRate", &p.LastFundingRate),
			may("markPrice", &p.MarkPrice), may("indexPrice", &p.IndexPrice), may("nextFundingTime", &p.NextFundingTimeMs))
		return p, err
	}, func(p Perpetual) string { return prefixed("symbol ", p.Symbol) })
	return listedOnce(l, err, "futures: symbol", func(p Perpetual) string { return p.Symbol })
}
