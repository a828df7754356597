package collector

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

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

// transfers are each account's completed transfers between accounts,
// counted by token, direction and counterparty.
var transfers = newTallyHistory("transfers", "transfer history", ledger.TransferFoldAt, ledger.TransfersStateOf, ledger.TransfersState.Tally)

// TransferHistoryCollector exports each account's transfers between
// accounts, every completed one counted exactly once (transfers).
type TransferHistoryCollector struct {
	accounts []*transferAccount
}

var _ prometheus.Collector = (*TransferHistoryCollector)(nil)

// inFlightTransfer is one woox_transfers_in_flight series.
type inFlightTransfer struct{ token, direction, status string }

// transferSnapshot is what scrapes read of one account.
type transferSnapshot struct {
	applicationID string
	totals        []ledger.TallyTotal
	inFlight      map[inFlightTransfer]int
}

type transferAccount struct {
	*tallyAccount[ledger.TransfersState]
	api TransferHistoryAPI
	// applicationID is the account's own, asked once: it never changes.
	applicationID string
	snap          atomic.Pointer[transferSnapshot]
	published     atomic.Uint64
}

func init() { register(endpoint.TransferHistory, buildTransferHistory) }

// buildTransferHistory polls each account's transfers, resumed from a
// reload's handoff or the state file when either holds the account.
func buildTransferHistory(b *builder) (prometheus.Collector, error) {
	if len(b.cfg.Accounts) == 0 {
		return nil, nil
	}
	c := &TransferHistoryCollector{}
	for _, a := range b.cfg.Accounts {
		tally, err := transfers.account(b, a.Name)
		if err != nil {
			return nil, err
		}
		ta := &transferAccount{tallyAccount: tally, api: a.API}
		ta.snap.Store(&transferSnapshot{totals: tally.shown})
		c.accounts = append(c.accounts, ta)
		b.pollList(c, a.Name, ta.poll)
	}
	return c, nil
}

// poll reads the query window from one late window behind the cursor to now,
// counts the completed transfers not counted before, and moves the cursor.
func (a *transferAccount) poll(ctx context.Context, _ func()) (leftOut, error) {
	if a.applicationID == "" {
		id, err := a.api.ApplicationID(ctx)
		if err != nil {
			return leftOut{}, fmt.Errorf("learn the account's application id: %w", err)
		}
		a.applicationID = id
	}
	start, end := a.tally.QueryWindow(a.api.ServerNow().UnixMilli())
	rows, rejected, err := a.api.TransferHistory(ctx, start, end)
	if err != nil {
		return leftOut{}, err
	}
	var completed []ledger.Counted
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
			inFlight[inFlightTransfer{t.Token, r.Labels[1], t.Status}]++
		}
	}
	snap := &transferSnapshot{applicationID: a.applicationID, totals: a.count(completed, end), inFlight: inFlight}
	// An unchanged snapshot is not published: its part is not encoded again.
	if old := a.snap.Load(); old == nil || !same(old, snap) {
		a.snap.Store(snap)
		a.published.Add(1)
	}
	return leftOut{rows: rejected}, nil
}

// errNotThisAccount is a transfer whose sides are both other accounts.
var errNotThisAccount = errors.New("neither from nor to is this account's applicationId")

// toLedger is t from the account's side, counted under token, direction
// (out when it sent the money, in when it received it) and counterparty,
// noting the counterparty's application id.
func (a *transferAccount) toLedger(t client.AccountTransfer) (ledger.Counted, error) {
	var direction string
	var other client.TransferParty
	switch a.applicationID {
	case t.From.ApplicationID:
		direction, other = ledger.DirectionOut, t.To
	case t.To.ApplicationID:
		direction, other = ledger.DirectionIn, t.From
	default:
		return ledger.Counted{}, errNotThisAccount
	}
	return ledger.Counted{ID: t.ID, Labels: []string{t.Token, direction, cmp.Or(other.AccountName, other.ApplicationID)},
		Amount: t.Amount.Abs(), LatestMs: t.LatestMs(), Note: other.ApplicationID}, nil
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
	return namesOf(c.accounts, func(i int) string { return c.accounts[i].account })
}

// generationAt implements accountSplit.
func (c *TransferHistoryCollector) generationAt(i int) uint64 { return c.accounts[i].published.Load() }

// collectAt implements accountSplit.
func (c *TransferHistoryCollector) collectAt(i int, ch chan<- prometheus.Metric) {
	name := c.accounts[i].account
	s := c.accounts[i].snap.Load()
	if s.applicationID != "" {
		ch <- prometheus.MustNewConstMetric(transferAccountInfoDesc, prometheus.GaugeValue, 1, name, s.applicationID)
	}
	type last struct{ direction, counterparty, id string }
	newest := map[last]int64{}
	for _, t := range s.totals {
		token, direction, counterparty := t.Labels[0], t.Labels[1], t.Labels[2]
		ch <- prometheus.MustNewConstMetric(transfersDesc, prometheus.CounterValue, float64(t.Records), name, token, direction, counterparty)
		ch <- prometheus.MustNewConstMetric(transferAmountDesc, prometheus.CounterValue, t.Amount.InexactFloat64(), name, token, direction, counterparty)
		k := last{direction, counterparty, t.Note}
		newest[k] = max(newest[k], t.LastMs)
	}
	for k, ms := range newest {
		ch <- prometheus.MustNewConstMetric(transferLastDesc, prometheus.GaugeValue, float64(ms)/1000, name, k.direction, k.counterparty, k.id)
	}
	for k, n := range s.inFlight {
		ch <- prometheus.MustNewConstMetric(transfersInFlightDesc, prometheus.GaugeValue, float64(n), name, k.token, k.direction, k.status)
	}
}
