package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/promtest"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
	"github.com/woox-exporter/woox_exporter/shard"
)

const (
	// rolloutShards is --shard.count; every shard watches two accounts.
	rolloutShards = 2
	// rolloutEvery is Prometheus' scrape and evaluation interval.
	rolloutEvery = 15 * time.Second
	// rolloutAway is how long a restarted shard is gone, SIGTERM to the new
	// process's start: a pod replaced, at least one scrape missed.
	rolloutAway = 20 * time.Second
	// rolloutOutage is how long the shard of the outage is gone.
	rolloutOutage = 2 * time.Minute
	// rolloutWatchFor is how long each step is watched once everything is
	// back: issue 43's page came 9–41 s into a restart.
	rolloutWatchFor = time.Minute
	// rolloutHistory is the past written into Prometheus before it starts:
	// more than the rules' longest look back ([1h] offset 15m).
	rolloutHistory = 90 * time.Minute
	// rolloutMaxRun bounds the run; it takes about 10 minutes.
	rolloutMaxRun = 14 * time.Minute
)

// TestRolloutsPageNobody runs two shards of the binary (--shard.count=2,
// shard 0 with a state file, shard 1 on default flags) against the fake
// exchange holding four accounts that send money only to each other, each
// to an account of the other shard, and Debian's Prometheus
// evaluating alerts/woox_exporter.rules.yml as shipped, every 15 s, on an
// hour and a half of the exporter's series written into its TSDB first.
// It restarts each shard, takes one down for 2 minutes, rolls both, and
// restarts Prometheus, with new transfers to the shard that is away: no
// alert may fire (pending is fine), read from the alerts API every 2 s and
// from the ALERTS series at the end. Each restart of a shard must have
// cost Prometheus that shard's woox_transfer_account_info, or nothing was
// tested. Set WOOX_ROLLOUT_RUN=1 to run it (about 10 minutes; .ci/run
// does).
func TestRolloutsPageNobody(t *testing.T) {
	if os.Getenv("WOOX_ROLLOUT_RUN") == "" {
		t.Skip("WOOX_ROLLOUT_RUN not set")
	}
	testsupport.Tool(t, "prometheus", "prometheus")
	testsupport.Tool(t, "promtool", "prometheus")
	if d, ok := t.Deadline(); ok && time.Until(d) < rolloutMaxRun {
		t.Fatalf("the run takes up to %s; -timeout leaves %s", rolloutMaxRun, time.Until(d).Round(time.Second))
	}
	began := time.Now()
	r := startRollout(t)
	w := watchRollout(t, r)
	r.checkPremise(t)
	w.step(t, "quiet", nil, func() {})
	w.step(t, "restart of shard 0", []int{0}, func() { r.restart(t, 0) })
	w.step(t, "restart of shard 1", []int{1}, func() { r.restart(t, 1) })
	w.step(t, "2-minute outage of shard 0 (SIGKILL), a transfer to its account meanwhile", []int{0}, func() {
		stopped := r.stop(t, 0, true)
		time.Sleep(30 * time.Second)
		r.transfer(t, r.accounts[1][0], r.accounts[0][0])
		r.start(t, 0, stopped, rolloutOutage)
	})
	w.step(t, "rolling restart of shard 0 then 1, a transfer to shard 1 first", []int{0, 1}, func() {
		r.transfer(t, r.accounts[0][0], r.accounts[1][1])
		r.restart(t, 0)
		r.restart(t, 1)
	})
	w.step(t, "restart of Prometheus", nil, func() { r.restartPrometheus(t) })
	w.close()
	w.report(t, time.Since(began))
	refused := 0
	for _, req := range r.fake.Requests() {
		if req.Status == 429 {
			refused++
		}
	}
	t.Logf("the fake refused %d requests with 429", refused)
	r.checkNothingFired(t, began)
}

// rollout is the exchange, the shards and Prometheus of the run.
type rollout struct {
	fake *fakeexchange.Exchange
	// accounts are each shard's account names.
	accounts [rolloutShards][]string
	shards   [rolloutShards]*rolloutShard
	prom     *promtest.Server
	// promAway is how long the restart of Prometheus took, SIGTERM to ready.
	promAway time.Duration
}

// rolloutShard is one shard: where Prometheus scrapes it and how it is
// started again.
type rolloutShard struct {
	addr string
	env  []string
	args []string
	p    *exportertest.Process
	// away are the times from each stop to the new process's /-/ready.
	away []time.Duration
}

// startRollout starts the fake, both shards, and Prometheus on the
// history of what the shards export once ready.
func startRollout(t *testing.T) *rollout {
	t.Helper()
	r := &rollout{}
	var names []string
	for i := 0; len(r.accounts[0])+len(r.accounts[1]) < 4; i++ {
		name := fmt.Sprintf("desk-%d", i)
		if s := shard.Of(name, rolloutShards); len(r.accounts[s]) < 2 {
			r.accounts[s] = append(r.accounts[s], name)
			names = append(names, name)
		}
	}
	fake, err := fakeexchange.New(rolloutScenario(r.accounts))
	if err != nil {
		t.Fatal(err)
	}
	r.fake = fake
	url := serveFake(t, fake)
	dir := t.TempDir()
	cfg, env := rolloutConfig(t, dir, names)
	for i := range r.shards {
		s := &rolloutShard{addr: freeAddr(t), env: env, args: []string{"--woox.api-url=" + url, "--config.file=" + cfg,
			fmt.Sprintf("--shard.count=%d", rolloutShards), fmt.Sprintf("--shard.index=%d", i)}}
		if i == 0 {
			s.args = append(s.args, "--token-history.state-file="+filepath.Join(dir, "shard-0.json"))
		}
		s.p = exportertest.StartAt(t, s.addr, s.env, s.args...)
		r.shards[i] = s
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("shard %d on %s, last lines:\n%s", i, s.addr, tail(s.p.Output(), 30))
			}
		})
	}
	data := filepath.Join(dir, "prometheus")
	now := time.Now()
	var scrapes [][]scraped
	for _, s := range r.shards {
		s.p.WaitReady(t)
		scrapes = append(scrapes, rolloutScrape(t, s))
	}
	promtest.Backfill(t, data, rolloutBackfill(scrapes, now.Add(-rolloutHistory), now))
	rules, err := filepath.Abs(filepath.Join("..", "alerts", "woox_exporter.rules.yml"))
	if err != nil {
		t.Fatal(err)
	}
	r.prom = promtest.Start(t, promtest.Config{Jobs: []promtest.Job{{Name: "woox", Targets: []string{r.shards[0].addr, r.shards[1].addr}}},
		RuleFiles: []string{rules}, Interval: rolloutEvery, DataDir: data})
	r.waitForAccounts(t)
	return r
}

// rolloutScenario holds the accounts: READ keys restricted to loopback, a
// futures account far from a margin call, balances, collateral, a calm
// position, history (a liquidation 40 minutes ago on one account of each
// shard: still within --token-history.lookback at the last restart of the
// shard without a state file, which counts it again), and a transfer
// from each account to the next in the order shard 0, 1, 0, 1, within the
// last 20 minutes: each to an account of the other shard.
func rolloutScenario(accounts [rolloutShards][]string) *fakeexchange.Scenario {
	order := []string{accounts[0][0], accounts[1][0], accounts[0][1], accounts[1][1]}
	s := &fakeexchange.Scenario{TokenNetworks: fakeexchange.DefaultScenario().TokenNetworks}
	ago := func(d time.Duration, id int64, typ, token, amount string) fakeexchange.HistoryEntry {
		return fakeexchange.HistoryEntry{HistoryRecord: fakeexchange.HistoryRecord{ID: id, Type: typ, Token: token, Amount: amount}, TimestampAgo: d}
	}
	for i, name := range order {
		id := int64(100 * (i + 1))
		a := fakeexchange.Account{Name: name, AccountName: name, UserID: int64(40000 + i),
			Keys: []fakeexchange.Key{{APIKey: name + "-key", APISecret: rolloutSecret(name), Permissions: []string{"READ"},
				AllowedIPs: []string{"127.0.0.1", "::1"}}},
			AccountInfo: &fakeexchange.AccountInfo{AccountMode: "FUTURES", Leverage: "10", MarginRatio: "2.5",
				OpenMarginRatio: "2.4", InitialMarginRatio: "0.1", MaintenanceMarginRatio: "0.03",
				TotalCollateral: "20000", FreeCollateral: "15000", TotalAccountValue: "20000",
				TakerFeeRate: "5", MakerFeeRate: "2", FuturesTakerFeeRate: "6", FuturesMakerFeeRate: "1"},
			Balances: []fakeexchange.Balance{
				{Token: "USDT", Holding: "10000", Frozen: "0", Staked: "0", AvailableBalance: "10000", MarkPrice: "1"},
				{Token: "BTC", Holding: "0.1", Frozen: "0", Staked: "0", AvailableBalance: "0.1", MarkPrice: "65000"}},
			TokenConfig: []fakeexchange.TokenConfig{fakeexchange.TokenConfigRow("USDT", "1", true), fakeexchange.TokenConfigRow("BTC", "0.85", true)},
			Positions: []fakeexchange.Position{{Symbol: "PERP_ETH_USDT", Holding: "1", SettlePrice: "3000", AverageOpenPrice: "3000",
				MarkPrice: "3000", EstLiqPrice: "2100", Pnl24H: "0", Fee24H: "0", AdlQuantile: "1", Leverage: "5"}},
			History: []fakeexchange.HistoryEntry{ago(55*time.Minute, id+1, "DEPOSIT", "USDT", "10000"),
				ago(30*time.Minute, id+2, "TRANSACTION_FEE", "USDT", "-1.5")},
			AccountTransfers: []fakeexchange.AccountTransfer{{ID: id, Token: "USDT", Amount: "25",
				Counterparty: order[(i+1)%len(order)], CreatedAgo: time.Duration(20-4*i) * time.Minute}},
		}
		if i < 2 {
			a.History = append(a.History, ago(40*time.Minute, id+3, "LIQUIDATION", "USDT", "-120"))
		}
		s.Accounts = append(s.Accounts, a)
	}
	return s
}

func rolloutSecret(name string) string {
	return "ROLLOUT" + strings.ToUpper(strings.ReplaceAll(name, "-", "")) + "SECRET000000000000"
}

// rolloutConfig writes the accounts file both shards read, and returns it
// with the environment that holds the secrets.
func rolloutConfig(t *testing.T, dir string, names []string) (string, []string) {
	t.Helper()
	var b strings.Builder
	var env []string
	b.WriteString("accounts:\n")
	for i, name := range names {
		fmt.Fprintf(&b, "  - {name: %s, api_key: %q, api_secret_env: SECRET_%d}\n", name, name+"-key", i)
		env = append(env, fmt.Sprintf("SECRET_%d=%s", i, rolloutSecret(name)))
	}
	path := filepath.Join(dir, "accounts.yml")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path, env
}

// restart stops shard i with SIGTERM, as a rollout does, and starts it
// again rolloutAway later.
func (r *rollout) restart(t *testing.T, i int) {
	t.Helper()
	r.start(t, i, r.stop(t, i, false), rolloutAway)
}

// stop stops shard i, with SIGKILL when crash, else SIGTERM, and returns
// when.
func (r *rollout) stop(t *testing.T, i int, crash bool) time.Time {
	t.Helper()
	stopped := time.Now()
	if crash {
		r.shards[i].p.Kill(t)
	} else {
		r.shards[i].p.Stop(t)
	}
	return stopped
}

// start starts shard i again on its address, away after it stopped, and
// waits for /-/ready.
func (r *rollout) start(t *testing.T, i int, stopped time.Time, away time.Duration) {
	t.Helper()
	s := r.shards[i]
	time.Sleep(time.Until(stopped.Add(away)))
	s.p = exportertest.StartAt(t, s.addr, s.env, s.args...)
	s.p.WaitReady(t)
	s.away = append(s.away, time.Since(stopped))
}

// restartPrometheus restarts Prometheus on its data, rolloutAway after
// stopping it.
func (r *rollout) restartPrometheus(t *testing.T) {
	t.Helper()
	stopped := time.Now()
	if err := r.prom.Restart(rolloutAway); err != nil {
		t.Fatal(err)
	}
	r.promAway = time.Since(stopped)
}

// transfer has the fake complete a transfer of 5 USDT from one account to
// another, now.
func (r *rollout) transfer(t *testing.T, from, to string) {
	t.Helper()
	if err := r.fake.Apply(fakeexchange.Event{AccountTransfer: &fakeexchange.Change[fakeexchange.AccountTransfer]{Account: from,
		Row: fakeexchange.AccountTransfer{ID: time.Now().UnixMilli(), Token: "USDT", Amount: "5", Counterparty: to}}}); err != nil {
		t.Fatal(err)
	}
}
