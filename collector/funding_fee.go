package collector

import (
	"context"
	"fmt"

	"github.com/go-kit/log"
	"github.com/go-kit/log/level"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/ledger"
)

// fundingFeeSection names the funding fee tallies in the state file and in
// a reload's handoff.
const fundingFeeSection = "funding_fees"

var (
	fundingFeeLabels = []string{"account", "symbol", "direction"}
	fundingFeesDesc  = prometheus.NewDesc(prometheus.BuildFQName(namespace, "funding_fee", "payments_total"),
		"Funding fee payments of the account's perpetual positions, each counted exactly once by id; direction paid or received."+refreshed,
		fundingFeeLabels, nil)
	fundingFeeAmountDesc = prometheus.NewDesc(prometheus.BuildFQName(namespace, "funding_fee", "amount_total"),
		"Sum of the funding fees in woox_funding_fee_payments_total, in the symbol's settlement token (USDT for PERP_BTC_USDT)."+refreshed,
		fundingFeeLabels, nil)
)

// tallyStore keeps tally states across restarts by the state file's
// section (package statefile implements it).
type tallyStore interface {
	TallyStates(section string) map[string]ledger.TallyState
	SaveTally(section, account string, st ledger.TallyState) error
}

// FundingFeeCollector exports each account's funding payments by symbol and
// direction, each counted exactly once (a ledger.Tally of symbol and
// direction, the symbol folded into Other beyond the series cap).
type FundingFeeCollector struct {
	perAccount[[]ledger.TallyTotal]
	tallies []*fundingFeeAccount
}

var _ prometheus.Collector = (*FundingFeeCollector)(nil)

// handOver implements handsOver.
func (c *FundingFeeCollector) handOver(h *Handoff) {
	for _, a := range c.tallies {
		h.put(fundingFeeSection, a.name, a.tally.Export())
	}
}

type fundingFeeAccount struct {
	name   string
	api    *client.Client
	tally  *ledger.Tally
	shown  *latest[[]ledger.TallyTotal]
	cap    *seriesCap
	folded uint64
	save   func(section, account string, st ledger.TallyState) error
	logger log.Logger
}

func init() { register(endpoint.FundingFee, buildFundingFee) }

// buildFundingFee polls each account's funding fees, resumed from a reload's
// handoff or the state file when either holds the account.
func buildFundingFee(b *builder) (prometheus.Collector, error) {
	cfg := b.cfg
	var saved map[string]ledger.TallyState
	store, _ := cfg.State.(tallyStore)
	if store != nil {
		saved = store.TallyStates(fundingFeeSection)
	}
	late := cfg.HistoryLateWindow.Milliseconds()
	c := &FundingFeeCollector{perAccount: perAccount[[]ledger.TallyTotal]{descs: []*prometheus.Desc{fundingFeesDesc, fundingFeeAmountDesc}}}
	c.emit = emitFundingFees
	for _, a := range cfg.Accounts {
		l := ledger.NewTally(cfg.Now().Add(-cfg.HistoryLookback).UnixMilli(), late, cfg.SeriesPerEndpoint, 0)
		st, ok := handed[ledger.TallyState](cfg, fundingFeeSection, a.Name)
		if !ok {
			st, ok = saved[a.Name]
		}
		if ok {
			var err error
			if l, err = ledger.TallyFromState(st, late, cfg.SeriesPerEndpoint, 0); err != nil {
				return nil, fmt.Errorf("account %q: saved funding fees: %w", a.Name, err)
			}
		}
		fa := &fundingFeeAccount{name: a.Name, api: a.API, tally: l, shown: c.add(a.Name), cap: b.seriesCap(a.Name), logger: cfg.Logger}
		if store != nil {
			fa.save = store.SaveTally
		}
		// What a restart resumes is shown at once: it was saved before.
		_ = fa.shown.set(l.Totals(), nil)
		c.tallies = append(c.tallies, fa)
		b.pollList(c, a.Name, fa.poll)
	}
	return collectorOrNil(c, len(c.tallies)), nil
}

// poll reads from one late window behind the cursor to now, counts the
// settled payments not counted before and moves the cursor; the totals are
// shown only once the state file holds them, so that a restart never shows
// less than was shown.
func (a *fundingFeeAccount) poll(ctx context.Context, _ func()) (leftOut, error) {
	start, end := a.tally.Window(a.api.ServerNow().UnixMilli())
	rows, rejected, err := a.api.FundingFees(ctx, start, end)
	if err != nil {
		return leftOut{}, err
	}
	var settled []ledger.Counted
	for _, f := range rows {
		if f.Completed() {
			direction := "received"
			if f.Paid {
				direction = "paid"
			}
			settled = append(settled, ledger.Counted{ID: f.ID, Labels: []string{f.Symbol, direction}, Amount: f.Amount, LatestMs: f.LatestMs()})
		}
	}
	a.tally.Count(settled)
	a.tally.Finish(end)
	a.cap.note(int(a.tally.Folded() - a.folded))
	a.folded = a.tally.Folded()
	if a.save != nil {
		if err := a.save(fundingFeeSection, a.name, a.tally.Export()); err != nil {
			level.Error(a.logger).Log("msg", "cannot save funding fee state", "account", a.name, "err", err)
			return leftOut{rows: rejected}, nil
		}
	}
	return leftOut{rows: rejected}, a.shown.set(a.tally.Totals(), nil)
}

func emitFundingFees(ch chan<- prometheus.Metric, account string, totals *[]ledger.TallyTotal) {
	for _, t := range *totals {
		ch <- prometheus.MustNewConstMetric(fundingFeesDesc, prometheus.CounterValue, float64(t.Records), account, t.Labels[0], t.Labels[1])
		ch <- prometheus.MustNewConstMetric(fundingFeeAmountDesc, prometheus.CounterValue, t.Amount.InexactFloat64(), account, t.Labels[0], t.Labels[1])
	}
}
