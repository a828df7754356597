package e2e

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/promtest"
)

// The lead time measurement: a long whose mark price walks from crashMark
// to its liquidation price crashLiq in walkSteps steps of walkEvery (4
// minutes), beside a long held level at 15 % from its liquidation price.
const (
	forecastAlert = "WooxPositionLiquidationForecast"
	// wantLead is how long before liquidation the default flags must page.
	wantLead = 2 * time.Minute
	// calmFor is how long the calm position must be watched, at least.
	calmFor = 3 * time.Minute
	// levelFor is how long both positions are held level in Prometheus
	// before the walk starts, so that a forecast first sees a position that
	// was not moving, as a held position shows.
	levelFor = time.Minute

	crashSymbol         = "PERP_BTC_USDT"
	crashMark, crashLiq = 96000, 80000
	walkStep            = 20
	walkEvery           = 300 * time.Millisecond
	walkSteps           = (crashMark - crashLiq) / walkStep
	walkFor             = walkSteps * walkEvery
	calmSymbol          = "PERP_ETH_USDT"
	calmMark, calmLiq   = "3000", "2550"
	// scrapeEvery is Prometheus' scrape and evaluation interval.
	scrapeEvery = 15 * time.Second
)

// positionAlerts are the alerts about a position or its margin, beside any
// alert with a symbol label: none may fire for the calm position.
var positionAlerts = []string{"WooxPositionNearLiquidation", forecastAlert, "WooxMarginRatioForecast"}

// TestLiquidationForecastLeadTime is the measurement of docs/performance.md
// (Liquidation lead time): the binary on its default flags, the fake
// exchange and a real Prometheus evaluating alerts/woox_exporter.rules.yml
// every 15 s. WooxPositionLiquidationForecast (critical) must fire at least
// 2 minutes before the walking position's mark price reaches its
// liquidation price, and nothing about a position may fire for the calm
// one. Set WOOX_LEADTIME_RUN=1 to run it (about 6 minutes; .ci/run does);
// WOOX_LEADTIME_INTERVALS=60s,10s adds an exporter per positions interval,
// measured and logged but not asserted; WOOX_LEADTIME_RULES replaces the
// rules file.
func TestLiquidationForecastLeadTime(t *testing.T) {
	if os.Getenv("WOOX_LEADTIME_RUN") == "" {
		t.Skip("WOOX_LEADTIME_RUN not set")
	}
	// Two minutes for the first samples, the level minute, the walk, a
	// minute past liquidation, and a minute for the rest.
	if d, ok := t.Deadline(); ok && time.Until(d) < levelFor+walkFor+4*time.Minute {
		t.Fatalf("the measurement takes up to %s; -timeout leaves %s", levelFor+walkFor+4*time.Minute, time.Until(d).Round(time.Second))
	}
	rules := leadRules(t)
	runs := []*leadRun{{}}
	for _, s := range strings.Split(os.Getenv("WOOX_LEADTIME_INTERVALS"), ",") {
		if s = strings.TrimSpace(s); s != "" {
			d, err := time.ParseDuration(s)
			if err != nil || d <= 0 {
				t.Fatalf("WOOX_LEADTIME_INTERVALS: %q is not a positive duration", s)
			}
			runs = append(runs, &leadRun{interval: d})
		}
	}
	fake, err := fakeexchange.New(leadScenario(len(runs)))
	if err != nil {
		t.Fatal(err)
	}
	url := serveFake(t, fake)
	w := &leadWatch{byInstance: map[string]*leadRun{}, seen: map[string]seenAlert{}}
	var targets []string
	for i, r := range runs {
		r.start(t, url, i)
		w.byInstance[r.p.Addr] = r
		targets = append(targets, r.p.Addr)
	}
	w.prom = promtest.Start(t, promtest.Config{Jobs: []promtest.Job{{Name: "woox", Targets: targets}}, RuleFiles: []string{rules}, Interval: scrapeEvery})
	calmSince := w.waitForPositions(t, len(runs))

	w.watch(t, time.Now().Add(levelFor), nil)
	w.walkStart = time.Now()
	for i := range runs {
		p := crashPosition()
		p.MarkPriceWalk = &fakeexchange.Walk{Every: walkEvery, Step: fmt.Sprint(walkStep)}
		if err := fake.Apply(fakeexchange.Event{Position: &fakeexchange.Change[fakeexchange.Position]{Account: leadAccount("crash", i),
			Row: p, Replace: true}}); err != nil {
			t.Fatal(err)
		}
	}
	w.liquidation = w.walkStart.Add(walkFor)
	t.Logf("walk started: %s mark price %d → liquidation price %d in %s (%d steps of %d every %s), liquidation at %s",
		crashSymbol, crashMark, crashLiq, walkFor, walkSteps, walkStep, walkEvery, w.liquidation.Format(time.TimeOnly))
	w.watch(t, w.liquidation, nil)
	// Past liquidation only to measure how late a run fires.
	w.watch(t, w.liquidation.Add(time.Minute), func() bool {
		return !slices.ContainsFunc(runs, func(r *leadRun) bool { return r.firing.IsZero() })
	})
	if held := time.Since(calmSince); held < calmFor {
		t.Errorf("the calm position was watched for %s, want at least %s", held.Round(time.Second), calmFor)
	}
	w.report(t, runs)
}

// leadRules is the rules file Prometheus evaluates, after checking that it
// holds the critical forecast alert: without it there is nothing to measure.
func leadRules(t *testing.T) string {
	t.Helper()
	path := os.Getenv("WOOX_LEADTIME_RULES")
	if path == "" {
		path = filepath.Join("..", "alerts", "woox_exporter.rules.yml")
	}
	path, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Groups []struct {
			Rules []struct {
				Alert  string            `yaml:"alert"`
				Labels map[string]string `yaml:"labels"`
			} `yaml:"rules"`
		} `yaml:"groups"`
	}
	if err := yaml.Unmarshal(b, &f); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for _, g := range f.Groups {
		for _, r := range g.Rules {
			if r.Alert == forecastAlert && r.Labels["severity"] == "critical" {
				return path
			}
		}
	}
	t.Fatalf("%s has no alert %s with severity critical: nothing to measure", path, forecastAlert)
	return ""
}

// leadScenario holds, for each run, an account "crash-N" with the long that
// will walk (held level until then) and an account "calm-N" with the calm
// long, each with a READ key of its own restricted to loopback and a
// futures account far from a margin call: runs share no rate limit.
func leadScenario(runs int) *fakeexchange.Scenario {
	s := &fakeexchange.Scenario{}
	for i := range runs {
		for _, name := range []string{"crash", "calm"} {
			p := crashPosition()
			if name == "calm" {
				p = fakeexchange.Position{Symbol: calmSymbol, Holding: "2", SettlePrice: calmMark, AverageOpenPrice: calmMark,
					MarkPrice: calmMark, EstLiqPrice: calmLiq, Pnl24H: "0", Fee24H: "0", AdlQuantile: "1", Leverage: "5"}
			}
			s.Accounts = append(s.Accounts, fakeexchange.Account{
				Name: leadAccount(name, i), AccountName: leadAccount(name, i), UserID: int64(30000 + len(s.Accounts)),
				Keys: []fakeexchange.Key{{APIKey: leadAccount(name, i) + "-key", APISecret: leadSecret(name, i),
					Permissions: []string{"READ"}, AllowedIPs: []string{"127.0.0.1", "::1"}}},
				AccountInfo: &fakeexchange.AccountInfo{AccountMode: "FUTURES", Leverage: "10", MarginRatio: "2.5",
					OpenMarginRatio: "2.4", InitialMarginRatio: "0.1", MaintenanceMarginRatio: "0.03",
					TotalCollateral: "50000", FreeCollateral: "30000", TotalAccountValue: "50000"},
				Positions: []fakeexchange.Position{p},
			})
		}
	}
	return s
}

// crashPosition is the long that will walk, level at its starting mark
// price.
func crashPosition() fakeexchange.Position {
	return fakeexchange.Position{Symbol: crashSymbol, Holding: "0.5", SettlePrice: "100000", AverageOpenPrice: "100000",
		MarkPrice: fmt.Sprint(crashMark), EstLiqPrice: fmt.Sprint(crashLiq), Pnl24H: "0", Fee24H: "0", AdlQuantile: "1", Leverage: "5"}
}

func leadAccount(name string, run int) string { return fmt.Sprintf("%s-%d", name, run) }

func leadSecret(name string, run int) string {
	return strings.ToUpper(fmt.Sprintf("LEAD%sSECRET%04d", name, run)) + "0000000000"
}

// leadRun is one exporter watching one crash and one calm account.
type leadRun struct {
	// interval is the --positions.interval given; 0 runs the default flags.
	interval time.Duration
	p        *exportertest.Process
	// firing is when the forecast was first seen firing for the crash.
	firing time.Time
	// resolved counts the times it stopped firing before liquidation.
	resolved int
}

func (r *leadRun) String() string {
	if r.interval == 0 {
		ep, _ := endpoint.Of(endpoint.Positions)
		return fmt.Sprintf("default flags (positions every %s)", ep.DefaultInterval)
	}
	return "--positions.interval=" + r.interval.String()
}

// start runs the exporter of run i on its flags: the fake's URL, a config
// file naming its two accounts "crash" and "calm", and the positions
// interval unless it is the default run. Its log is shown if the test fails.
func (r *leadRun) start(t *testing.T, url string, i int) {
	t.Helper()
	var b strings.Builder
	b.WriteString("accounts:\n")
	for _, name := range []string{"crash", "calm"} {
		fmt.Fprintf(&b, "  - name: %s\n    api_key: %q\n    api_secret_env: %s_SECRET\n", name, leadAccount(name, i)+"-key", strings.ToUpper(name))
	}
	cfg := filepath.Join(t.TempDir(), "accounts.yml")
	if err := os.WriteFile(cfg, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"--woox.api-url=" + url, "--config.file=" + cfg}
	if r.interval > 0 {
		args = append(args, "--positions.interval="+r.interval.String())
	}
	r.p = exportertest.Start(t, []string{"CRASH_SECRET=" + leadSecret("crash", i), "CALM_SECRET=" + leadSecret("calm", i)}, args...)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("exporter %s on %s (pid %d), last lines:\n%s", r, r.p.Addr, r.p.Pid(), tail(r.p.Output(), 30))
		}
	})
	r.p.WaitReady(t)
}

// leadWatch follows the alerts Prometheus lists, about once a second.
type leadWatch struct {
	prom       *promtest.Server
	byInstance map[string]*leadRun
	// walkStart is when the crash positions started walking; zero while
	// they are level.
	walkStart time.Time
	// liquidation is when the walking mark price reaches the liquidation
	// price; zero while the positions are level.
	liquidation time.Time
	// seen are the alerts listed by the last poll, by identity.
	seen map[string]seenAlert
}

// seenAlert is an alert about a position as last listed.
type seenAlert struct {
	state string
	run   *leadRun
	// forecast is the critical forecast for the walking position.
	forecast bool
}

// waitForPositions waits up to 2 minutes for Prometheus to hold the
// liquidation distance of both positions of every run, and returns when it
// did.
func (w *leadWatch) waitForPositions(t *testing.T, runs int) time.Time {
	t.Helper()
	const expr = `count by (instance) (woox:position_liquidation_distance:ratio{job="woox"}) == 2`
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(time.Second) {
		v, err := w.prom.Query(expr, time.Now())
		if err == nil && len(v) == runs {
			return time.Now()
		}
		if time.Now().After(deadline) {
			t.Fatalf("Prometheus has the liquidation distance of both positions for %d of %d exporters after 2 minutes (%s; query error: %v)",
				len(v), runs, expr, err)
		}
	}
}

// watch polls the alerts about every second until end, or until done
// reports true.
func (w *leadWatch) watch(t *testing.T, end time.Time, done func() bool) {
	t.Helper()
	failures := 0
	for time.Now().Before(end) && (done == nil || !done()) {
		alerts, err := w.prom.Alerts()
		if err != nil {
			if failures++; failures >= 10 {
				t.Fatalf("Prometheus alerts API failed 10 times in a row: %v", err)
			}
		} else {
			failures = 0
		}
		now := time.Now()
		listed := map[string]bool{}
		for _, a := range alerts {
			listed[w.see(t, a, now)] = true
		}
		if err == nil {
			w.forget(t, listed, now)
		}
		time.Sleep(time.Until(now.Add(time.Second)))
	}
}

// see logs an alert about a position when its state changes, records when
// the forecast first fires for a walking position, and fails the test for
// any that fires for the calm position, or for a position still level. It
// returns the alert's identity, "" for an alert about something else.
func (w *leadWatch) see(t *testing.T, a promtest.Alert, now time.Time) string {
	t.Helper()
	l := a.Labels
	r := w.byInstance[l["instance"]]
	if r == nil || (l["symbol"] == "" && !slices.Contains(positionAlerts, l["alertname"])) {
		return ""
	}
	id := fmt.Sprintf("%s{severity=%q, account=%q, symbol=%q} on %s", l["alertname"], l["severity"], l["account"], l["symbol"], r)
	if w.seen[id].state == a.State {
		return id
	}
	forecast := l["alertname"] == forecastAlert && l["severity"] == "critical" && l["account"] == "crash"
	w.countResolved(w.seen[id], now)
	w.seen[id] = seenAlert{state: a.State, run: r, forecast: forecast}
	t.Logf("%s: %s %s (active since %s)", w.clock(now), id, a.State, a.ActiveAt.Local().Format(time.TimeOnly))
	if a.State != "firing" {
		return id
	}
	var wrong string
	switch {
	case l["account"] == "calm":
		wrong = "fired for the calm position, held level at 15 % from its liquidation price"
	case w.walkStart.IsZero():
		wrong = "fired while the position was level"
	case forecast && r.firing.IsZero():
		r.firing = now
	}
	switch {
	case wrong == "":
	case r.interval == 0:
		t.Errorf("%s %s", id, wrong)
	default:
		t.Logf("%s %s (not asserted: only the default flags are)", id, wrong)
	}
	return id
}

// forget logs the alerts seen before that are no longer listed, and counts
// a forecast that stopped firing before liquidation.
func (w *leadWatch) forget(t *testing.T, listed map[string]bool, now time.Time) {
	t.Helper()
	for id, a := range w.seen {
		if listed[id] {
			continue
		}
		t.Logf("%s: %s no longer listed (was %s)", w.clock(now), id, a.state)
		w.countResolved(a, now)
		delete(w.seen, id)
	}
}

// countResolved counts a forecast that stops firing before liquidation.
func (w *leadWatch) countResolved(a seenAlert, now time.Time) {
	if a.forecast && a.state == "firing" && now.Before(w.liquidation) {
		a.run.resolved++
	}
}

// clock is now relative to the start of the walk, for the log.
func (w *leadWatch) clock(now time.Time) string {
	if w.walkStart.IsZero() {
		return "before the walk"
	}
	return "walk +" + now.Sub(w.walkStart).Round(time.Second).String()
}

// report logs each run's lead time, what Prometheus held when the forecast
// fired and whether it kept firing, and fails unless the default run fired
// in time.
func (w *leadWatch) report(t *testing.T, runs []*leadRun) {
	t.Helper()
	for _, r := range runs {
		if r.firing.IsZero() {
			t.Logf("lead time none with %s: %s did not fire by 1m after liquidation", r, forecastAlert)
			continue
		}
		sel := fmt.Sprintf(`{job="woox", instance=%q, account="crash"}`, r.p.Addr)
		mark, dist := math.NaN(), math.NaN()
		if v, err := w.prom.Query("woox_position_mark_price"+sel, r.firing); err == nil && len(v) == 1 {
			mark = float64(v[0].Value)
		}
		if v, err := w.prom.Query("woox:position_liquidation_distance:ratio"+sel, r.firing); err == nil && len(v) == 1 {
			dist = float64(v[0].Value)
		}
		served := max(crashLiq, crashMark-walkStep*int(r.firing.Sub(w.walkStart)/walkEvery))
		kept := "kept firing until liquidation"
		if r.resolved > 0 {
			kept = fmt.Sprintf("stopped firing %d times before liquidation", r.resolved)
		}
		t.Logf("lead time %s with %s: %s firing at walk +%s, liquidation at walk +%s, %s; Prometheus then had mark price %.0f (distance %.1f %%), the fake served %d",
			w.liquidation.Sub(r.firing).Round(time.Second), r, forecastAlert, r.firing.Sub(w.walkStart).Round(time.Second), walkFor, kept, mark, 100*dist, served)
	}
	if r := runs[0]; r.firing.IsZero() {
		t.Errorf("%s (critical) never fired for the walking position on %s; want it at least %s before liquidation", forecastAlert, r, wantLead)
	} else if lead := w.liquidation.Sub(r.firing); lead < wantLead {
		t.Errorf("%s (critical) fired %s before liquidation on %s, want at least %s", forecastAlert, lead.Round(time.Second), r, wantLead)
	}
}
