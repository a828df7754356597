package collector

import (
	"context"

	"github.com/go-kit/log"
	"github.com/go-kit/log/level"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/client"
)

var pollRowsRejectedDesc = prometheus.NewDesc(
	prometheus.BuildFQName(namespace, "poll", "rows_rejected"),
	"Rows the last successful poll of the endpoint left out because they could not be read (each logged at warn once); the other rows "+
		"were exported. 0 when every row was read. Token history: the malformed rows skipped after --token-history.skip-malformed-after "+
		"failed polls that the poll's window held. Exists from the first successful poll.",
	pollLabels, nil)

// leftOut is what a successful poll left out of the answers it read.
type leftOut struct {
	// rows could not be read; the poller logs each once.
	rows []client.RejectedRow
	// skipped counts the rows left out that the poll logged itself (token
	// history's skipped malformed rows).
	skipped int
}

func (l leftOut) count() int { return len(l.rows) + l.skipped }

// listPollFunc is the pollFunc of a list endpoint: a successful poll also
// returns the rows it left out.
type listPollFunc func(ctx context.Context, progress func()) (leftOut, error)

// withoutRows is fn as the poller runs it: an endpoint without rows leaves
// none out.
func withoutRows(fn pollFunc) listPollFunc {
	return func(ctx context.Context, progress func()) (leftOut, error) { return leftOut{}, fn(ctx, progress) }
}

// rejectKey identifies a rejected row from one poll to the next: by what
// names it when it has a name (its position moves as rows come and go),
// else by its position.
type rejectKey struct {
	page, index     int
	id, field, text string
}

func keyOf(r client.RejectedRow) rejectKey {
	if r.ID != "" {
		return rejectKey{id: r.ID, field: r.Field, text: r.Err}
	}
	return rejectKey{page: r.Page, index: r.Index, field: r.Field, text: r.Err}
}

// maxRejectLines bounds the rows logged one by one after a poll: an answer
// of thousands of broken rows logs a few and a count.
const maxRejectLines = 10

// rejectLog logs each rejected row once while the exchange keeps sending
// it, not on every poll. It remembers the last successful poll's rows only,
// so a row fixed and broken again is logged again. Poller only.
type rejectLog struct {
	last map[rejectKey]bool
}

// note logs the rows of a successful poll not rejected by the one before.
func (l *rejectLog) note(logger log.Logger, endpoint, account string, rows []client.RejectedRow) {
	now := make(map[rejectKey]bool, len(rows))
	logged, more := 0, 0
	for _, r := range rows {
		k := keyOf(r)
		now[k] = true
		switch {
		case l.last[k]:
		case logged == maxRejectLines:
			more++
		default:
			logged++
			level.Warn(logger).Log("msg", "left out a row of the answer that cannot be read; the other rows are exported",
				"endpoint", endpoint, "account", account, "page", r.Page, "row", r.Index, "id", r.ID, "field", r.Field, "err", r.Err)
		}
	}
	if more > 0 {
		level.Warn(logger).Log("msg", "left out more rows that cannot be read; not logged one by one",
			"endpoint", endpoint, "account", account, "rows", more)
	}
	l.last = now
}

// pollList adds a poller of the endpoint being built, for a list endpoint
// whose polls leave out the rows they cannot read.
func (b *builder) pollList(c prometheus.Collector, account string, fn listPollFunc) {
	b.pollEndpoint(b.endpoint, b.interval, c, account, fn)
}

// leftOutOf is the rows rejected by a successful read, or err.
func leftOutOf(rejected []client.RejectedRow, err error) (leftOut, error) {
	if err != nil {
		return leftOut{}, err
	}
	return leftOut{rows: rejected}, nil
}
