package client

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// Instrument is one row of GET /v3/public/instruments: a symbol the
// exchange lists (SPOT_BTC_USDT, PERP_BTC_USDT) and its status.
type Instrument struct {
	Symbol string
	// Status is as sent: TRADING, SUSPENDED, TESTING, or a value the
	// docs do not name, which Trading reads as not trading.
	Status string
}

// Trading reports whether the symbol trades: its status is TRADING, in any
// letter case.
func (i Instrument) Trading() bool { return strings.EqualFold(i.Status, "TRADING") }

// Instruments returns every symbol the exchange lists, and the rows that
// could not be read. The endpoint is public.
func (c *Client) Instruments(ctx context.Context) ([]Instrument, []RejectedRow, error) {
	l, err := getData(ctx, c, request{op: "get instruments", endpoint: endpoint.Instruments}, decodeInstruments)
	return l.rows, c.onPage(l.rejected, 1), err
}

// decodeInstruments reads data.rows[]. A row without a symbol or a status is
// rejected: read as not trading it would page whoever holds the symbol. A
// symbol listed twice fails the answer: which status holds is unknown.
func decodeInstruments(data json.RawMessage) (list[Instrument], error) {
	l, err := decodeDataList(data, "instruments", "rows", func(f fields) (i Instrument, err error) {
		err = f.read(need("symbol", &i.Symbol), need("status", &i.Status))
		return i, err
	}, func(i Instrument) string { return prefixed("symbol ", i.Symbol) })
	return listedOnce(l, err, "instruments: symbol", func(i Instrument) string { return i.Symbol })
}
