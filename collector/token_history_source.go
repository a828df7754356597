package collector

import (
	"context"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/ledger"
)

// historySource is an account's token history as its ledger.Reader reads
// it: the one place where the client's pages become the ledger's.
type historySource struct {
	api TokenHistoryAPI
	// pageSize is the rows per page asked for.
	pageSize int
	// progress is the poller's, told of every page that arrived.
	progress func()
}

var _ ledger.Source = historySource{}

// Pages implements ledger.Source.
func (s historySource) Pages(ctx context.Context, q ledger.Query, fn func(ledger.FetchedPage) error) error {
	return s.api.TokenHistoryPages(ctx, client.HistoryQuery{StartTime: q.StartMs, EndTime: q.EndMs, PageSize: q.PageSize},
		func(p client.HistoryPage) error {
			err := fn(fromClient(p))
			s.progress()
			return err
		})
}

// Now implements ledger.Source.
func (s historySource) Now() (int64, bool) {
	_, known := s.api.ClockOffset()
	return s.api.ServerNow().UnixMilli(), known
}

// PageSize implements ledger.Source.
func (s historySource) PageSize() int { return s.pageSize }

func fromClient(p client.HistoryPage) ledger.FetchedPage {
	fp := ledger.FetchedPage{Records: toLedger(p.Records), Total: p.Meta.Total, ServerTimeMs: p.ServerTimeMs}
	for _, m := range p.Malformed {
		fp.Malformed = append(fp.Malformed, ledger.MalformedRow{Key: m.Key, ID: m.ID, Err: m.Err})
	}
	return fp
}

func toLedger(recs []client.HistoryRecord) []ledger.Record {
	out := make([]ledger.Record, len(recs))
	for i, r := range recs {
		out[i] = ledger.Record{ID: r.ID, Token: r.Token, Type: r.Type, Amount: r.Amount, TimestampMs: r.Timestamp}
	}
	return out
}
