package collector

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/go-kit/log"
	"github.com/go-kit/log/level"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/ledger"
)

var (
	tokenHistoryLabels = []string{"account", "token", "transaction_type"}

	// tokenHistoryMetrics are the counters of one ledger total.
	tokenHistoryMetrics = []struct {
		desc  *prometheus.Desc
		value func(ledger.Total) float64
	}{
		{
			prometheus.NewDesc(prometheus.BuildFQName(namespace, "token_history", "records_total"),
				"Token history records (balance changes) counted since the exporter started reading the account's history, each exactly once."+refreshed,
				tokenHistoryLabels, nil),
			func(t ledger.Total) float64 { return float64(t.Records) },
		},
		{
			prometheus.NewDesc(prometheus.BuildFQName(namespace, "token_history", "inflow_total"),
				"Sum of the positive token history amounts, in token units."+refreshed,
				tokenHistoryLabels, nil),
			func(t ledger.Total) float64 { return t.Inflow.InexactFloat64() },
		},
		{
			prometheus.NewDesc(prometheus.BuildFQName(namespace, "token_history", "outflow_total"),
				"Sum of the magnitudes of the negative token history amounts, in token units."+refreshed,
				tokenHistoryLabels, nil),
			func(t ledger.Total) float64 { return t.Outflow.InexactFloat64() },
		},
	}

	tokenHistoryRecordsByTypeDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "token_history", "records_by_type_total"),
		"Token history records counted, by transaction type: woox_token_history_records_total summed over tokens. "+
			"Every documented transaction type exists at 0 from the start, so a new account's panels show 0 and increase() sees "+
			"the first record of a type; a type the exchange adds later appears with its first record."+refreshed,
		[]string{"account", "transaction_type"}, nil)

	tokenHistoryInconsistentDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "token_history", "inconsistent_polls_total"),
		"Token history polls whose pages did not add up (meta.total changed while paging, or fewer distinct records than meta.total, "+
			"even when read again in slices that fit one page); the window is read again, and accepted once a re-read finds nothing new. "+
			"A steady rise means the exchange overstates meta.total.",
		[]string{"account"}, nil)

	tokenHistoryLastRecordDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "token_history", "last_record_timestamp_seconds"),
		"Unix time of the newest token history record counted."+refreshed,
		[]string{"account"}, nil)

	tokenHistoryOutsideDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "token_history", "rows_outside_window_total"),
		"Token history rows the exchange returned outside the time window asked for: counted when new and recent enough to tell apart, "+
			"left for the next window when after it, and failing the poll when too old to tell apart.",
		[]string{"account"}, nil)

	tokenHistoryLateDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "token_history", "late_records_total"),
		"Token history records found only by the late sweep, listed by the exchange after --token-history.overlap had passed them. "+
			"A rising value means the overlap is too short.",
		[]string{"account"}, nil)

	tokenHistoryMalformedDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "token_history", "malformed_rows_total"),
		"Token history rows skipped as malformed after failing --token-history.skip-malformed-after polls; their amounts are not counted.",
		[]string{"account"}, nil)

	tokenHistorySharedIDDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "token_history", "shared_id_records_total"),
		"Token history records counted although a record of another token or type had the same id (a record is its id with its token and type).",
		[]string{"account"}, nil)
)

// tokenHistoryTypes are the transaction types the exchange documents for
// token history rows: the label values woox_token_history_records_by_type_total
// knows before any record arrives. Tokens are not known up front, so the
// per-token counters start with each pair's first record.
var tokenHistoryTypes = []string{
	"WITHDRAW", "DEPOSIT", "FIAT_WITHDRAW", "FIAT_DEPOSIT", "EARN",
	"VAULT_WITHDRAW", "VAULT_DEPOSIT", "YIELD_TO_BALANCE", "CREDIT", "DISTRIBUTION", "REFERRAL",
	"SUB_ACCOUNT_TRANSFER", "REBATE", "LIQUIDATION", "SPECIAL", "STAKING", "UNSTAKING", "UNSTAKING_FEE",
	"INTEREST", "CONVERT", "FUNDING_FEE", "REALIZED_PNL", "RFQ", "COPY_FEE", "COPY_PROFIT_SHARED",
	"SPOT_TRANSACTION", "TRANSACTION_FEE",
}

// Sweep pacing: a few slices per poll keep the regular poll's requests
// within its interval's budget.
const (
	sweepRequestsPerPoll = 2
	// sweepSkipAfterPages: a poll that needed more pages is catching up,
	// and the sweep waits for a quieter one.
	sweepSkipAfterPages = 2
)

// errStopPaging ends a read after its first page.
var errStopPaging = errors.New("first page read")

// historyOptions are the token history settings of every account.
type historyOptions struct {
	// lateInterval is how often the late sweep starts; zero disables it.
	lateInterval time.Duration
	// skipMalformedAfter is how many failed polls a malformed row causes
	// before it is skipped; zero never skips.
	skipMalformedAfter int
}

// TokenHistoryCollector exports each account's token history totals, every
// record counted exactly once (see package ledger).
type TokenHistoryCollector struct {
	accounts []*historyAccount
}

var _ prometheus.Collector = (*TokenHistoryCollector)(nil)

type historyAccount struct {
	name   string
	api    TokenHistoryAPI
	ledger *ledger.Ledger
	opts   historyOptions
	logger log.Logger
	// pageSize is the rows per history page; tests lower it to page a lot.
	pageSize int
	// snap is what scrapes read, published by the poller after every page
	// that counted a record; published counts the publications.
	snap      atomic.Pointer[ledger.Snapshot]
	published atomic.Uint64
	// onPoll, when set, receives the ledger state after each poll that
	// read every page.
	onPoll func(account string, st ledger.State)
	// inconsistent counts polls that were not consistent; shortStreak is
	// set while windows are accepted short, so that this is warned about
	// once, not on every poll. Poller only.
	inconsistent atomic.Uint64
	shortStreak  bool
	outside      atomic.Uint64
	malformed    atomic.Uint64
	// malformedFails counts the failed polls of each malformed row not yet
	// skipped; skipped holds the rows skipped. Poller only; a restart
	// starts both afresh.
	malformedFails map[string]int
	skipped        map[string]bool
}

func newHistoryAccount(name string, api TokenHistoryAPI, l *ledger.Ledger, opts historyOptions, logger log.Logger) *historyAccount {
	a := &historyAccount{name: name, api: api, ledger: l, opts: opts, logger: logger, pageSize: client.MaxPageSize,
		malformedFails: map[string]int{}, skipped: map[string]bool{}}
	a.publish()
	return a
}

func (a *historyAccount) publish() {
	s := a.ledger.Snapshot()
	a.snap.Store(&s)
	a.published.Add(1)
}

// generation changes whenever any account publishes a new snapshot: most
// polls count nothing new, and regathering ~8,000 unchanged series after
// each would compete with scrapes for the CPU.
func (c *TokenHistoryCollector) generation() uint64 {
	var n uint64
	for _, a := range c.accounts {
		n += a.published.Load()
	}
	return n
}

func toLedger(recs []client.HistoryRecord) []ledger.Record {
	out := make([]ledger.Record, len(recs))
	for i, r := range recs {
		out[i] = ledger.Record{ID: r.ID, Token: r.Token, Type: r.Type, Amount: r.Amount, TimestampMs: r.Timestamp}
	}
	return out
}

// read is what one read of a window brought.
type read struct {
	check ledger.PollCheck
	pages int
	// times are the timestamps of every sampleEvery-th record read, for
	// cutting the window into slices; serverMs is the latest server time of
	// an answer.
	times       []int64
	sampleEvery int
	rows        int
	serverMs    int64
	// unplaceable and malformed are the rows that fail the poll.
	unplaceable []ledger.Record
	malformed   []client.MalformedRow
}

// readWindow reads [start, end] page by page (only the first page when
// firstOnly), counting records as they arrive.
func (a *historyAccount) readWindow(ctx context.Context, start, end int64, firstOnly bool, progress func()) (*read, error) {
	r := &read{sampleEvery: max(1, a.pageSize/64)}
	err := a.api.TokenHistoryPages(ctx, client.HistoryQuery{StartTime: start, EndTime: end, PageSize: a.pageSize},
		func(p client.HistoryPage) error {
			recs := toLedger(p.Records)
			lp := ledger.Page{Records: recs, Total: p.Meta.Total}
			for _, m := range p.Malformed {
				if a.skipped[m.Key] {
					lp.Others = append(lp.Others, m.Key)
				} else {
					r.malformed = append(r.malformed, m)
				}
			}
			r.check.Page(lp)
			r.pages++
			r.serverMs = max(r.serverMs, p.ServerTimeMs)
			obs := a.ledger.ObservePage(recs, end)
			if obs.Counted > 0 {
				a.publish()
			}
			if obs.Outside > 0 {
				a.outside.Add(uint64(obs.Outside))
				a.published.Add(1)
			}
			r.unplaceable = append(r.unplaceable, obs.Unplaceable...)
			for _, rec := range recs {
				if r.rows%r.sampleEvery == 0 {
					r.times = append(r.times, rec.TimestampMs)
				}
				r.rows++
			}
			progress()
			if firstOnly {
				return errStopPaging
			}
			return nil
		})
	if errors.Is(err, errStopPaging) {
		err = nil
	}
	return r, err
}

// poll reads the window [cursor, now] page by page, counting records as they
// arrive, and advances the cursor only when every record of the window has
// arrived (see ledger.Ledger.Finish); then it reads a few slices of the late
// sweep.
func (a *historyAccount) poll(ctx context.Context, progress func()) error {
	start, end := a.ledger.Window(a.api.ServerNow().UnixMilli())
	r, err := a.readWindow(ctx, start, end, false, progress)
	if a.onPoll != nil && err == nil {
		// Saved whatever happens next: the cursor moves only in Finish, and
		// records already counted are remembered as seen.
		defer func() { a.onPoll(a.name, a.ledger.Export()) }()
	}
	if err != nil {
		return err
	}
	if err := a.rowErrors(r); err != nil {
		return err
	}
	// The window ends no later than the exchange's own clock confirmed: a
	// local clock or offset running ahead must not carry the cursor past
	// records that do not exist yet.
	if r.serverMs > 0 {
		end = min(end, max(r.serverMs, start))
	}
	if r.check.Short() {
		complete, err := a.readInSlices(ctx, start, end, r, progress)
		if err != nil {
			return err
		}
		if complete {
			a.ledger.Complete(end)
			a.shortStreak = false
			return a.sweep(ctx, r.pages, progress)
		}
	}
	result := a.ledger.Finish(&r.check, end)
	if result == ledger.PollComplete {
		a.shortStreak = false
		return a.sweep(ctx, r.pages, progress)
	}
	a.inconsistent.Add(1)
	a.published.Add(1) // the counter changed: regather
	// Nothing is lost either way: what arrived is counted, and an
	// incomplete window is read again next poll.
	kv := []any{"account", a.name, "meta_total", r.check.Total(), "distinct_records", r.check.Distinct(),
		"total_changed", r.check.Changed(), "start_ms", start, "end_ms", end}
	switch {
	case result == ledger.PollIncomplete:
		level.Info(a.logger).Log(append([]any{"msg", "token history pages did not add up; re-reading the window next poll"}, kv...)...)
	case !a.shortStreak:
		a.shortStreak = true
		level.Warn(a.logger).Log(append([]any{"msg", "the exchange promises more token history records than it serves; " +
			"accepting the window since a re-read found nothing new"}, kv...)...)
	default:
		level.Debug(a.logger).Log(append([]any{"msg", "token history window accepted short again"}, kv...)...)
	}
	return nil
}

// rowErrors fails the poll for rows it cannot count: rows too old to tell
// apart from records counted before, and malformed rows until they have
// failed skipMalformedAfter polls, when they are skipped and counted as such.
func (a *historyAccount) rowErrors(r *read) error {
	var errs []error
	if n := len(r.unplaceable); n > 0 {
		u := r.unplaceable[0]
		errs = append(errs, fmt.Errorf("%d token history rows lie before the remembered window and cannot be counted exactly once, "+
			"the first id %d at %s (is the exchange ignoring startTime, or sending times in another unit?)",
			n, u.ID, time.UnixMilli(u.TimestampMs).UTC().Format(time.RFC3339Nano)))
	}
	failing := 0
	for _, m := range r.malformed {
		if a.skipped[m.Key] {
			continue
		}
		a.malformedFails[m.Key]++
		if n := a.opts.skipMalformedAfter; n > 0 && a.malformedFails[m.Key] >= n {
			delete(a.malformedFails, m.Key)
			a.skipped[m.Key] = true
			a.malformed.Add(1)
			a.published.Add(1)
			level.Warn(a.logger).Log("msg", "skipping a malformed token history row; its amount is not counted",
				"account", a.name, "id", m.ID, "row", m.Key, "failed_polls", n, "err", m.Err)
			continue
		}
		if failing == 0 {
			errs = append(errs, fmt.Errorf("malformed token history row id %q (%s): failed %d polls, skipped after %d (--token-history.skip-malformed-after)",
				m.ID, m.Err, a.malformedFails[m.Key], a.opts.skipMalformedAfter))
		}
		failing++
	}
	if failing > 1 {
		errs = append(errs, fmt.Errorf("%d more malformed rows", failing-1))
	}
	return errors.Join(errs...)
}

// readInSlices reads [start, end] again in time slices that each fit one
// page, cut where the first read's records suggest and halved where a slice
// still does not fit: offset paging can skip rows when the exchange orders
// rows that share a timestamp differently on each page. It reports whether
// every slice fitted; it gives up, leaving the window to Finish, after a
// bounded number of requests or at a millisecond that holds more than a page.
func (a *historyAccount) readInSlices(ctx context.Context, start, end int64, first *read, progress func()) (bool, error) {
	type slice struct{ from, to int64 }
	var todo []slice
	slices.Sort(first.times)
	from := start
	step := max(1, a.pageSize/2/first.sampleEvery)
	for i := step; i < len(first.times); i += step {
		if t := first.times[i]; t > from && t < end {
			todo = append(todo, slice{from, t})
			from = t
		}
	}
	todo = append(todo, slice{from, end})
	budget := 2*first.pages + 4
	for len(todo) > 0 {
		if budget == 0 {
			return false, nil
		}
		budget--
		s := todo[0]
		todo = todo[1:]
		// Slices share their boundary millisecond, so whether the exchange
		// includes startTime and endTime or not, no record falls between.
		r, err := a.readWindow(ctx, s.from, s.to, true, progress)
		if err != nil {
			return false, err
		}
		if err := a.rowErrors(r); err != nil {
			return false, err
		}
		if r.pages > 0 && r.check.Distinct() >= r.check.Total() && r.check.Distinct() < a.pageSize {
			continue
		}
		if s.to-s.from < 2 {
			return false, nil
		}
		mid := s.from + (s.to-s.from)/2
		todo = append([]slice{{s.from, mid}, {mid, s.to}}, todo...)
	}
	return true, nil
}

// sweep reads a few slices of the late sweep (see package ledger), unless
// the regular poll needed many pages.
func (a *historyAccount) sweep(ctx context.Context, pages int, progress func()) error {
	if a.opts.lateInterval <= 0 || pages > sweepSkipAfterPages {
		return nil
	}
	now := a.api.ServerNow().UnixMilli()
	for range sweepRequestsPerPoll {
		from, to, ok := a.ledger.NextSweep(now, a.opts.lateInterval)
		if !ok {
			return nil
		}
		// One millisecond beyond each side, so the slice is whole whether
		// the exchange includes the bounds or not; SweepRead keeps [from, to].
		var recs []ledger.Record
		var meta client.PageMeta
		rows := 0
		err := a.api.TokenHistoryPages(ctx, client.HistoryQuery{StartTime: from - 1, EndTime: to + 1, PageSize: a.pageSize},
			func(p client.HistoryPage) error {
				recs = toLedger(p.Records)
				meta = p.Meta
				rows = len(p.Records) + len(p.Malformed)
				progress()
				return errStopPaging
			})
		if err != nil && !errors.Is(err, errStopPaging) {
			return fmt.Errorf("late sweep: %w", err)
		}
		if n := a.ledger.SweepRead(from, to, recs, rows < a.pageSize && rows >= meta.Total); n > 0 {
			a.publish()
			level.Info(a.logger).Log("msg", "late sweep counted token history records the regular polls missed; consider a longer --token-history.overlap",
				"account", a.name, "records", n, "from_ms", from, "to_ms", to)
		}
	}
	return nil
}

// Describe implements prometheus.Collector.
func (c *TokenHistoryCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, m := range tokenHistoryMetrics {
		ch <- m.desc
	}
	for _, d := range []*prometheus.Desc{tokenHistoryRecordsByTypeDesc, tokenHistoryLastRecordDesc, tokenHistoryInconsistentDesc, tokenHistoryOutsideDesc,
		tokenHistoryLateDesc, tokenHistoryMalformedDesc, tokenHistorySharedIDDesc} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *TokenHistoryCollector) Collect(ch chan<- prometheus.Metric) {
	for _, a := range c.accounts {
		snap := a.snap.Load()
		byType := make(map[string]uint64, len(tokenHistoryTypes))
		for _, typ := range tokenHistoryTypes {
			byType[typ] = 0
		}
		for _, t := range snap.Totals {
			for _, m := range tokenHistoryMetrics {
				ch <- prometheus.MustNewConstMetric(m.desc, prometheus.CounterValue, m.value(t), a.name, t.Token, t.Type)
			}
			byType[t.Type] += t.Records
		}
		for typ, n := range byType {
			ch <- prometheus.MustNewConstMetric(tokenHistoryRecordsByTypeDesc, prometheus.CounterValue, float64(n), a.name, typ)
		}
		if snap.HasRecord {
			ch <- prometheus.MustNewConstMetric(tokenHistoryLastRecordDesc, prometheus.GaugeValue, float64(snap.LastRecordMs)/1000, a.name)
		}
		for _, m := range []struct {
			desc *prometheus.Desc
			v    uint64
		}{
			{tokenHistoryInconsistentDesc, a.inconsistent.Load()},
			{tokenHistoryOutsideDesc, a.outside.Load()},
			{tokenHistoryLateDesc, snap.LateRecords},
			{tokenHistoryMalformedDesc, a.malformed.Load()},
			{tokenHistorySharedIDDesc, snap.SharedIDRecords},
		} {
			ch <- prometheus.MustNewConstMetric(m.desc, prometheus.CounterValue, float64(m.v), a.name)
		}
	}
}

// buildTokenHistory polls each account's token history into its ledger,
// resumed from the state store when it holds the account.
func buildTokenHistory(b *builder) (prometheus.Collector, error) {
	if len(b.cfg.Accounts) == 0 {
		return nil, nil
	}
	cfg := b.cfg
	c := &TokenHistoryCollector{}
	var saved map[string]ledger.State
	if cfg.State != nil {
		saved = cfg.State.States()
	}
	start := cfg.Now().Add(-cfg.HistoryLookback).UnixMilli()
	lcfg := ledger.Config{Overlap: cfg.HistoryOverlap, LateWindow: cfg.HistoryLateWindow}
	for _, a := range cfg.Accounts {
		l := ledger.New(start, lcfg)
		if st, ok := saved[a.Name]; ok {
			var err error
			if l, err = ledger.FromState(st, lcfg); err != nil {
				return nil, fmt.Errorf("account %q: saved token history: %w", a.Name, err)
			}
		}
		b.e.ledgers[a.Name] = l
		ha := newHistoryAccount(a.Name, a.API, l, historyOptions{lateInterval: cfg.HistoryLateInterval,
			skipMalformedAfter: cfg.HistorySkipMalformedAfter}, cfg.Logger)
		if cfg.State != nil {
			ha.onPoll = b.e.save
		}
		c.accounts = append(c.accounts, ha)
		b.poll(c, a.Name, ha.poll)
	}
	b.e.history = c
	return c, nil
}
