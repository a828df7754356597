package collector

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/go-kit/log"
	"github.com/go-kit/log/level"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/ledger"
)

var (
	transferLabels = []string{"account", "token", "direction", "counterparty"}

	transfersDesc = prometheus.NewDesc(prometheus.BuildFQName(namespace, "", "transfers_total"),
		"Completed transfers between the account and its main or sub-accounts, each counted exactly once by id; direction in or out "+
			"from the account's side, counterparty the other account's name (its applicationId when it has none)."+refreshed,
		transferLabels, nil)
	transferAmountDesc = prometheus.NewDesc(prometheus.BuildFQName(namespace, "", "transfer_amount_total"),
		"Sum of the amounts of the completed transfers in woox_transfers_total, in token units."+refreshed,
		transferLabels, nil)
	transfersInFlightDesc = prometheus.NewDesc(prometheus.BuildFQName(namespace, "", "transfers_in_flight"),
		"Transfers of the account created within the last poll's window that are not final (COMPLETED, CANCELED, FAILED), "+
			"by status as the exchange sends it."+refreshed,
		[]string{"account", "token", "direction", "status"}, nil)
	transferLastDesc = prometheus.NewDesc(prometheus.BuildFQName(namespace, "transfer", "last_timestamp_seconds"),
		"Unix time of the newest completed transfer with the counterparty, by direction; application_id is the counterparty's, "+
			"to be matched against woox_transfer_account_info."+refreshed,
		[]string{"account", "direction", "counterparty", "application_id"}, nil)
	transferAccountInfoDesc = prometheus.NewDesc(prometheus.BuildFQName(namespace, "transfer", "account_info"),
		"1 for each watched account, with the applicationId the exchange knows it by: a transfer to an application id no "+
			"replica exports here left the watched accounts.",
		[]string{"account", "application_id"}, nil)
)

// TransferHistoryAPI reads one account's transfers between accounts.
type TransferHistoryAPI interface {
	TransferHistory(ctx context.Context, startMs, endMs int64) ([]client.AccountTransfer, []client.RejectedRow, error)
	ApplicationID(ctx context.Context) (string, error)
	ServerNow() time.Time
}

// TransferStateStore keeps transfer ledger states across restarts, beside
// the token history's (package statefile implements both).
type TransferStateStore interface {
	TransferStates() map[string]ledger.TransfersState
	SaveTransfers(account string, st ledger.TransfersState) error
}

// TransferHistoryCollector exports each account's transfers between
// accounts, every completed one counted exactly once (ledger.Transfers).
type TransferHistoryCollector struct {
	accounts []*transferAccount
}

var _ prometheus.Collector = (*TransferHistoryCollector)(nil)

// handOver implements handsOver.
func (c *TransferHistoryCollector) handOver(h *Handoff) {
	for _, a := range c.accounts {
		h.put(handedTransfers, a.name, a.ledger.Export())
	}
}

// inFlightTransfer is one woox_transfers_in_flight series.
type inFlightTransfer struct{ token, direction, status string }

// transferSnapshot is what scrapes read of one account.
type transferSnapshot struct {
	applicationID string
	totals        []ledger.TransferTotal
	inFlight      map[inFlightTransfer]int
}

type transferAccount struct {
	name   string
	api    TransferHistoryAPI
	ledger *ledger.Transfers
	// applicationID is the account's own, asked once: it never changes.
	applicationID string
	cap           *seriesCap
	folded        uint64
	save          func(account string, st ledger.TransfersState) error
	logger        log.Logger
	snap          atomic.Pointer[transferSnapshot]
	published     atomic.Uint64
}

func init() { register(endpoint.TransferHistory, buildTransferHistory) }

// buildTransferHistory polls each account's transfers, resumed from the
// state file when it holds the account.
func buildTransferHistory(b *builder) (prometheus.Collector, error) {
	if len(b.cfg.Accounts) == 0 {
		return nil, nil
	}
	cfg := b.cfg
	var saved map[string]ledger.TransfersState
	store, _ := cfg.State.(TransferStateStore)
	if store != nil {
		saved = store.TransferStates()
	}
	late := cfg.HistoryLateWindow.Milliseconds()
	c := &TransferHistoryCollector{}
	for _, a := range cfg.Accounts {
		l := ledger.NewTransfers(cfg.Now().Add(-cfg.HistoryLookback).UnixMilli(), late, cfg.SeriesPerEndpoint)
		st, ok := handed[ledger.TransfersState](cfg, handedTransfers, a.Name)
		if !ok {
			st, ok = saved[a.Name]
		}
		if ok {
			var err error
			if l, err = ledger.TransfersFromState(st, late, cfg.SeriesPerEndpoint); err != nil {
				return nil, fmt.Errorf("account %q: saved transfers: %w", a.Name, err)
			}
		}
		ta := &transferAccount{name: a.Name, api: a.API, ledger: l, cap: b.seriesCap(a.Name), logger: cfg.Logger}
		if store != nil {
			ta.save = store.SaveTransfers
		}
		ta.snap.Store(&transferSnapshot{totals: l.Totals()})
		c.accounts = append(c.accounts, ta)
		b.pollList(c, a.Name, ta.poll)
	}
	return c, nil
}

// poll reads the window from one late window behind the cursor to now,
// counts the completed transfers not counted before, and moves the cursor.
func (a *transferAccount) poll(ctx context.Context, _ func()) (leftOut, error) {
	if a.applicationID == "" {
		id, err := a.api.ApplicationID(ctx)
		if err != nil {
			return leftOut{}, fmt.Errorf("learn the account's application id: %w", err)
		}
		a.applicationID = id
	}
	start, end := a.ledger.Window(a.api.ServerNow().UnixMilli())
	rows, rejected, err := a.api.TransferHistory(ctx, start, end)
	if err != nil {
		return leftOut{}, err
	}
	var completed []ledger.Transfer
	inFlight := map[inFlightTransfer]int{}
	for _, t := range rows {
		r, err := a.toLedger(t)
		if err != nil {
			rejected = append(rejected, client.RejectedRow{ID: "id " + t.ID, Field: "from", Err: err.Error()})
			continue
		}
		switch {
		case t.Completed():
			completed = append(completed, r)
		case !t.Final():
			inFlight[inFlightTransfer{t.Token, r.Direction, t.Status}]++
		}
	}
	a.ledger.Count(completed)
	a.ledger.Finish(end)
	snap := &transferSnapshot{applicationID: a.applicationID, totals: a.ledger.Totals(), inFlight: inFlight}
	old := a.snap.Load()
	// Totals are shown only once the state file holds them: shown first,
	// a crash would move them back, and Prometheus would read a reset.
	if a.save != nil {
		if err := a.save(a.name, a.ledger.Export()); err != nil {
			level.Error(a.logger).Log("msg", "cannot save transfer history state", "account", a.name, "err", err)
			if old != nil {
				snap.totals = old.totals
			}
		}
	}
	a.cap.note(int(a.ledger.Folded() - a.folded))
	a.folded = a.ledger.Folded()
	// An unchanged snapshot is not published: its part is not encoded again.
	if old == nil || !same(old, snap) {
		a.snap.Store(snap)
		a.published.Add(1)
	}
	return leftOut{rows: rejected}, nil
}

// errNotThisAccount is a transfer whose sides are both other accounts.
var errNotThisAccount = errors.New("neither from nor to is this account's applicationId")

// toLedger is t from the account's side: out when it sent the money, in
// when it received it.
func (a *transferAccount) toLedger(t client.AccountTransfer) (ledger.Transfer, error) {
	r := ledger.Transfer{ID: t.ID, Token: t.Token, Amount: t.Amount.Abs(), LatestMs: t.LatestMs()}
	var other client.TransferParty
	switch a.applicationID {
	case t.From.ApplicationID:
		r.Direction, other = ledger.DirectionOut, t.To
	case t.To.ApplicationID:
		r.Direction, other = ledger.DirectionIn, t.From
	default:
		return r, errNotThisAccount
	}
	r.Counterparty, r.CounterpartyID = cmp.Or(other.AccountName, other.ApplicationID), other.ApplicationID
	return r, nil
}

// generation changes whenever an account's poll ends.
func (c *TransferHistoryCollector) generation() uint64 {
	var n uint64
	for _, a := range c.accounts {
		n += a.published.Load()
	}
	return n
}

// Describe implements prometheus.Collector.
func (c *TransferHistoryCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{transfersDesc, transferAmountDesc, transfersInFlightDesc, transferLastDesc, transferAccountInfoDesc} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *TransferHistoryCollector) Collect(ch chan<- prometheus.Metric) {
	for i := range c.accounts {
		c.collectAt(i, ch)
	}
}

// accountNames implements accountSplit.
func (c *TransferHistoryCollector) accountNames() []string {
	return namesOf(c.accounts, func(i int) string { return c.accounts[i].name })
}

// generationAt implements accountSplit.
func (c *TransferHistoryCollector) generationAt(i int) uint64 { return c.accounts[i].published.Load() }

// collectAt implements accountSplit.
func (c *TransferHistoryCollector) collectAt(i int, ch chan<- prometheus.Metric) {
	a := c.accounts[i]
	s := a.snap.Load()
	if s.applicationID != "" {
		ch <- prometheus.MustNewConstMetric(transferAccountInfoDesc, prometheus.GaugeValue, 1, a.name, s.applicationID)
	}
	type last struct{ direction, counterparty, id string }
	newest := map[last]int64{}
	for _, t := range s.totals {
		ch <- prometheus.MustNewConstMetric(transfersDesc, prometheus.CounterValue, float64(t.Records), a.name, t.Token, t.Direction, t.Counterparty)
		ch <- prometheus.MustNewConstMetric(transferAmountDesc, prometheus.CounterValue, t.Amount.InexactFloat64(), a.name, t.Token, t.Direction, t.Counterparty)
		k := last{t.Direction, t.Counterparty, t.CounterpartyID}
		newest[k] = max(newest[k], t.LastMs)
	}
	for k, ms := range newest {
		ch <- prometheus.MustNewConstMetric(transferLastDesc, prometheus.GaugeValue, float64(ms)/1000, a.name, k.direction, k.counterparty, k.id)
	}
	for k, n := range s.inFlight {
		ch <- prometheus.MustNewConstMetric(transfersInFlightDesc, prometheus.GaugeValue, float64(n), a.name, k.token, k.direction, k.status)
	}
}
