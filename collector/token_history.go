package collector

import (
	"context"
	"fmt"
	"time"

	"github.com/go-kit/log"
	"github.com/go-kit/log/level"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
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
		"Token history polls that found fewer distinct records than a meta.total that held steady while paging, "+
			"even when read again in slices that fit one page; the window is read again, and accepted once a re-read finds nothing new. "+
			"A steady rise means the exchange overstates meta.total. A total that changed while paging (records arriving) is read in slices and not counted here.",
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

// historyOptions are the token history settings of every account.
type historyOptions struct {
	// lateInterval is how often the late sweep starts; zero disables it.
	lateInterval time.Duration
	// skipMalformedAfter is how many failed polls a malformed row causes
	// before it is skipped; zero never skips.
	skipMalformedAfter int
	// save writes an account's ledger state to the state file; nil
	// without one.
	save func(account string, st ledger.State) error
}

// TokenHistoryAPI reads the token history of one account, page by page.
type TokenHistoryAPI interface {
	TokenHistoryPages(ctx context.Context, q client.HistoryQuery, fn func(client.HistoryPage) error) error
	// ServerNow is the local clock corrected to the exchange's.
	ServerNow() time.Time
	// ClockOffset is the exchange's clock minus the local one; not ok
	// before an answer set it.
	ClockOffset() (time.Duration, bool)
}

// TokenHistoryCollector exports each account's token history totals, every
// record counted exactly once (see package ledger).
type TokenHistoryCollector struct {
	accounts []*historyAccount
}

var _ prometheus.Collector = (*TokenHistoryCollector)(nil)

// handOff implements handoffer. A saved state not yet judged against the
// exchange's clock stays in the state file, for the next exporter to judge.
func (c *TokenHistoryCollector) handOff(h *Handoff) {
	for _, a := range c.accounts {
		if a.judged() {
			h.put(tokenHistorySection, a.name, a.inUse.Load().Export())
		}
	}
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
	for i := range c.accounts {
		c.collectAt(i, ch)
	}
}

// accountNames implements accountSplit.
func (c *TokenHistoryCollector) accountNames() []string {
	return namesOf(c.accounts, func(i int) string { return c.accounts[i].name })
}

// generationAt implements accountSplit.
func (c *TokenHistoryCollector) generationAt(i int) uint64 { return c.accounts[i].published.Load() }

// collectAt implements accountSplit.
func (c *TokenHistoryCollector) collectAt(i int, ch chan<- prometheus.Metric) {
	a := c.accounts[i]
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

func init() { register(endpoint.TokenHistory, buildTokenHistory) }

// tokenHistorySection names the token history's states in the state file,
// which every file holds, and in a reload's handoff.
var tokenHistorySection = declareSection(StateSection{Name: "accounts", Zero: ledger.State{}, Required: true,
	Check: checkOf(func(st ledger.State) error {
		_, err := ledger.FromState(st, ledger.Config{})
		return err
	})})

// buildTokenHistory polls each account's token history into its ledger,
// resumed from the state store when it holds the account.
func buildTokenHistory(b *builder) (prometheus.Collector, error) {
	if len(b.cfg.Accounts) == 0 {
		return nil, nil
	}
	cfg := b.cfg
	c := &TokenHistoryCollector{}
	start := cfg.Now().Add(-cfg.HistoryLookback).UnixMilli()
	lcfg := ledger.Config{Overlap: cfg.HistoryOverlap, LateWindow: cfg.HistoryLateWindow, MaxPairs: cfg.SeriesPerEndpoint,
		MaxAmount: client.MaxAmount()}
	fresh := func(nowMs int64) *ledger.Ledger { return ledger.New(nowMs-cfg.HistoryLookback.Milliseconds(), lcfg) }
	var save func(string, ledger.State) error
	if cfg.State != nil {
		save = func(account string, st ledger.State) error {
			return cfg.State.SaveSection(tokenHistorySection, account, st)
		}
	}
	opts := historyOptions{lateInterval: cfg.HistoryLateInterval, skipMalformedAfter: cfg.HistorySkipMalformedAfter, save: save}
	for _, a := range cfg.Accounts {
		l := ledger.New(start, lcfg)
		var r *restoredState
		if st, ok := handed[ledger.State](cfg, tokenHistorySection, a.Name); ok {
			// Judged already, by the exporter it comes from.
			var err error
			if l, err = ledger.FromState(st, lcfg); err != nil {
				return nil, fmt.Errorf("account %q: token history handed off: %w", a.Name, err)
			}
		} else if st, ok := savedTokenHistory(cfg.State, a.Name); ok {
			var err error
			if l, err = ledger.FromState(st, lcfg); err != nil {
				return nil, fmt.Errorf("account %q: saved token history: %w", a.Name, err)
			}
			warnLeftOut(cfg.Logger, a.Name, l)
			r = &restoredState{state: st, fresh: fresh, setAside: func() (string, error) { return cfg.State.SetAside(tokenHistorySection, a.Name, time.Now()) }}
		}
		ha := newHistoryAccount(a.Name, a.API, l, r, opts, cfg.Logger)
		b.e.ledgers[a.Name] = ha.inUse
		ha.cap = b.seriesCap(a.Name)
		c.accounts = append(c.accounts, ha)
		b.pollList(c, a.Name, ha.poll)
	}
	b.e.history = c
	return c, nil
}

// savedTokenHistory is account's token history state in store, if it
// holds one; store may be nil.
func savedTokenHistory(store StateStore, account string) (ledger.State, bool) {
	if store == nil {
		return ledger.State{}, false
	}
	st, ok := store.SectionState(tokenHistorySection, account)
	saved, isState := st.(ledger.State)
	return saved, ok && isState
}

// warnLeftOut names each saved total the ledger left out as beyond what a
// counter can carry: that pair's counters start again from zero.
func warnLeftOut(logger log.Logger, account string, l *ledger.Ledger) {
	for _, t := range l.LeftOut() {
		level.Warn(logger).Log("msg", "saved token history total left out: beyond what a counter can carry (--limits.max-amount); its counters start again from zero",
			"account", account, "token", t.Token, "transaction_type", t.Type, "records", t.Records,
			"inflow", clip(t.Inflow), "outflow", clip(t.Outflow))
	}
}

// clip shortens a saved total for a log line.
func clip(s string) string {
	if len(s) > 40 {
		return fmt.Sprintf("%s... (%d characters)", s[:40], len(s))
	}
	return s
}
