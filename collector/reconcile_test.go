package collector

import (
	"context"
	"maps"
	"path/filepath"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// reconcileRig runs the token history and balances pollers of account
// "main" against the fake, whose balances move with its records, saving
// the ledger to a state file.
type reconcileRig struct {
	*rig
	t         *testing.T
	stateFile string
	e         *Exporter
}

func newReconcileRig(t *testing.T) *reconcileRig {
	main := mainAccount()
	main.Balances = []fakeexchange.Balance{{Token: "USDT", Holding: "1000", AvailableBalance: "1000"}, {Token: "BTC", Holding: "1"}}
	x := &reconcileRig{rig: newRig(t, &fakeexchange.Scenario{Accounts: []fakeexchange.Account{main}}), t: t,
		stateFile: filepath.Join(t.TempDir(), "state.json")}
	x.start()
	return x
}

// start builds the exporter from the state file, as a start does.
func (x *reconcileRig) start() {
	x.t.Helper()
	store, err := openState(x.stateFile, x.clock.Now())
	if err != nil {
		x.t.Fatal(err)
	}
	cfg := x.config()
	cfg.State, cfg.Public = store, nil
	cfg.Collectors = map[string]bool{}
	for _, ep := range endpoint.All {
		cfg.Collectors[ep.Name] = ep.Name == endpoint.TokenHistory || ep.Name == endpoint.Balances
	}
	x.e = newExporter(x.t, cfg)
}

func (x *reconcileRig) poll(endpoint string) {
	x.t.Helper()
	for _, p := range x.e.pollers {
		if p.endpoint == endpoint {
			p.pollOnce(context.Background())
			if !p.lastStatus().success {
				x.t.Fatalf("%s poll failed:\n%s", endpoint, x.logs.String())
			}
			return
		}
	}
	x.t.Fatalf("no %s poller", endpoint)
}

// round moves the clock by d, then polls the balances and then the token
// history, which reads past the balances answer.
func (x *reconcileRig) round(d time.Duration) {
	x.t.Helper()
	x.clock.Add(d)
	x.poll(endpoint.Balances)
	x.clock.Add(time.Second)
	x.poll(endpoint.TokenHistory)
}

// want compares the exact unexplained change and the exported gauge.
func (x *reconcileRig) want(what string, want map[string]string) {
	x.t.Helper()
	got, ok := x.e.ledgers["main"].Load().Unexplained()
	if !ok {
		x.t.Fatalf("%s: not reconciled", what)
	}
	texts := map[string]string{}
	for token, d := range got {
		texts[token] = d.String()
	}
	if !maps.Equal(texts, want) {
		x.t.Errorf("%s: unexplained %v, want %v", what, texts, want)
	}
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(x.e.byName[endpoint.Balances])
	mfs, err := reg.Gather()
	if err != nil {
		x.t.Fatal(err)
	}
	series := 0
	for _, mf := range mfs {
		if mf.GetName() == "woox_balance_unexplained_change" {
			series = len(mf.GetMetric())
		}
	}
	if series != len(want) {
		x.t.Errorf("%s: %d woox_balance_unexplained_change series, want %d", what, series, len(want))
	}
}

func (x *reconcileRig) append(token, amount string) {
	x.t.Helper()
	rec := fakeexchange.HistoryRecord{ID: x.fake.NextHistoryID("main"), Type: "DEPOSIT", Token: token, Amount: amount,
		Timestamp: x.clock.Now().UnixMilli()}
	if err := x.fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main",
		Records: []fakeexchange.HistoryRecord{rec}}}); err != nil {
		x.t.Fatal(err)
	}
}

func TestBalancesReconciledWithTheTokenHistory(t *testing.T) {
	x := newReconcileRig(t)
	x.round(0)
	x.want("baseline", map[string]string{"USDT": "0", "BTC": "0"})

	x.clock.Add(time.Minute)
	x.append("USDT", "250.000000000000000000000000000001")
	x.append("ETH", "2")
	x.round(time.Minute)
	x.want("records explain every change, a new token's too", map[string]string{"USDT": "0", "BTC": "0", "ETH": "0"})

	if err := x.fake.Apply(fakeexchange.Event{UnrecordedBalanceMove: &fakeexchange.BalanceMoveEvent{Account: "main",
		Token: "BTC", Amount: "-0.5"}}); err != nil {
		t.Fatal(err)
	}
	x.round(time.Minute)
	x.want("money moved with no record", map[string]string{"USDT": "0", "BTC": "-0.5", "ETH": "0"})

	late := fakeexchange.HistoryRecord{Type: "DEPOSIT", Token: "USDT", Amount: "40"}
	if err := x.fake.Apply(fakeexchange.Event{History: &fakeexchange.HistoryEvent{Account: "main",
		Records: []fakeexchange.HistoryRecord{late}, ListedAfter: 3 * time.Minute}}); err != nil {
		t.Fatal(err)
	}
	x.round(time.Minute)
	x.want("before the late record is listed", map[string]string{"USDT": "40", "BTC": "-0.5", "ETH": "0"})
	x.round(3 * time.Minute)
	x.want("the late record arrived", map[string]string{"USDT": "0", "BTC": "-0.5", "ETH": "0"})
}

// With the state file, money that moved with no record while the exporter
// was down shows after the restart, and a record counted before it is not
// counted again.
func TestBalanceReconciliationSurvivesARestart(t *testing.T) {
	x := newReconcileRig(t)
	x.round(0)
	x.append("USDT", "5")
	x.round(time.Minute)
	x.want("before the restart", map[string]string{"USDT": "0", "BTC": "0"})

	// Down for ten minutes: a deposit with its record, and 7 USDT without.
	x.clock.Add(5 * time.Minute)
	x.append("USDT", "100")
	if err := x.fake.Apply(fakeexchange.Event{UnrecordedBalanceMove: &fakeexchange.BalanceMoveEvent{Account: "main",
		Token: "USDT", Amount: "7"}}); err != nil {
		t.Fatal(err)
	}
	x.clock.Add(5 * time.Minute)
	x.start()
	x.round(0)
	// The first poll after the restart reads what came after the newest
	// record counted; the balances are judged once a poll has read the
	// whole query window again.
	x.want("after the restart's first poll", map[string]string{"USDT": "0", "BTC": "0"})
	x.round(0)
	x.want("after the restart", map[string]string{"USDT": "7", "BTC": "0"})
}
