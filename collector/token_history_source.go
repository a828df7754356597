package collector

import (
	"context"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/ledger"
)

// historySource is an account's token history as one poll reads it.
type historySource struct {
	api TokenHistoryAPI
	// pageSize is the rows per page asked for.
	pageSize int
	// progress is the poller's, told of every page that arrived.
	progress func()
}

// pages reads the rows of q page by page, in the exchange's order, handing
// each page to fn; it stops at the first error, fn's included, and returns
// it.
func (s historySource) pages(ctx context.Context, q client.HistoryQuery, fn func(client.HistoryPage) error) error {
	return s.api.TokenHistoryPages(ctx, q, func(p client.HistoryPage) error {
		err := fn(p)
		s.progress()
		return err
	})
}

// now is the exchange's time, in Unix ms, as the local clock corrected by
// the last offset an answer told; known is false before one did.
func (s historySource) now() (ms int64, known bool) {
	_, known = s.api.ClockOffset()
	return s.api.ServerNow().UnixMilli(), known
}

// toLedger is the one place where the client's rows become the ledger's.
func toLedger(recs []client.HistoryRecord) []ledger.Record {
	out := make([]ledger.Record, len(recs))
	for i, r := range recs {
		out[i] = ledger.Record{ID: r.ID, Token: r.Token, Type: r.Type, Amount: r.Amount, TimestampMs: r.Timestamp}
	}
	return out
}
