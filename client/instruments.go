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
	Status string // as sent: TRADING, SUSPENDED, TESTING, ...
}

// Trading reports whether the status is TRADING, in any letter case.
func (i Instrument) Trading() bool { return strings.EqualFold(i.Status, "TRADING") }

// Instruments returns every symbol listed, and the rows not read (a public endpoint).
func (c *Client) Instruments(ctx context.Context) ([]Instrument, []RejectedRow, error) {
	l, err := getData(ctx, c, request{op: "get instruments", endpoint: endpoint.Instruments}, decodeInstruments)
	return l.rows, c.onPage(l.rejected, 1), err
}

// decodeInstruments reads data.rows[]. A row without a symbol or status is
// rejected: read as not trading it would page whoever holds the symbol.
func decodeInstruments(data json.RawMessage) (list[Instrument], error) {
	l, err := decodeDataList(data, "instruments", "rows", func(f fields) (i Instrument, err error) {
		err = f.read(need("symbol", &i.Symbol), need("status", &i.Status))
		return i, err
	}, func(i Instrument) string { return prefixed("symbol ", i.Symbol) })
	return listedOnce(l, err, "instruments: symbol", func(i Instrument) string { return i.Symbol })
}
