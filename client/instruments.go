package client

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// EndpointInstruments is the endpoint's name in the endpoint table (endpoint.All).
const EndpointInstruments = endpoint.Instruments

// PathInstruments is the endpoint's path in the endpoint table.
var PathInstruments = endpoint.PathOf(endpoint.Instruments)

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
	var l list[Instrument]
	err := c.get(ctx, request{op: "get instruments", endpoint: EndpointInstruments, path: PathInstruments,
		decode: func(data json.RawMessage, _ int64) (err error) {
			l, err = decodeInstruments(data)
			return err
		}})
	return l.rows, c.onPage(l.rejected, 1), err
}

// decodeInstruments reads data.rows[]. A row without a symbol or a status is
// rejected: read as not trading it would page whoever holds the symbol. A
// symbol listed twice fails the answer: which status holds is unknown.
func decodeInstruments(data json.RawMessage) (list[Instrument], error) {
	_, rows, err := decodeDataRows(data, "instruments", "rows")
	if err != nil {
		return list[Instrument]{}, err
	}
	l := decodeList(rows, func(f fields) (i Instrument, err error) {
		if i.Symbol, err = f.requiredText("symbol"); err != nil {
			return i, err
		}
		i.Status, err = f.requiredText("status")
		return i, err
	}, func(i Instrument) string { return prefixed("symbol ", i.Symbol) })
	return l, oncePerSymbol("instruments", l.rows, func(i Instrument) string { return i.Symbol })
}

// oncePerSymbol fails an answer that lists a symbol twice.
func oncePerSymbol[T any](what string, rows []T, symbol func(T) string) error {
	seen := make(map[string]bool, len(rows))
	for _, r := range rows {
		s := symbol(r)
		if seen[s] {
			return fmt.Errorf("%s: symbol %s listed twice", what, s)
		}
		seen[s] = true
	}
	return nil
}
