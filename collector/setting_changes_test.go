package collector

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// settingRig polls account "main" with its account info and positions on,
// from a state file when it has one.
type settingRig struct {
	*rig
	t     *testing.T
	state string
	e     *Exporter
}

func newSettingRig(t *testing.T, state string) *settingRig {
	main := mainAccount()
	main.AccountInfo = &fakeexchange.AccountInfo{AccountMode: "FUTURES", PositionMode: "ONE_WAY", Leverage: "10", MarginRatio: "2"}
	main.Positions = []fakeexchange.Position{
		{Symbol: "PERP_BTC_USDT", PositionSide: "BOTH", MarginMode: "CROSS", Holding: "0.1", Leverage: "10"},
		{Symbol: "PERP_ETH_USDT", PositionSide: "BOTH", MarginMode: "CROSS", Holding: "0", Leverage: "10"},
	}
	x := &settingRig{rig: newRig(t, &fakeexchange.Scenario{Accounts: []fakeexchange.Account{main}}), t: t, state: state}
	x.start(nil)
	return x
}

// start builds the exporter as a start of the binary does, or as a reload
// with handoff.
func (x *settingRig) start(handoff *Handoff) {
	x.t.Helper()
	cfg := x.config()
	cfg.Public, cfg.Collectors, cfg.Handoff = nil, map[string]bool{}, handoff
	for _, ep := range endpoint.All {
		cfg.Collectors[ep.Name] = ep.Name == endpoint.AccountInfo || ep.Name == endpoint.Positions
	}
	if x.state != "" {
		store, err := openState(x.state, x.clock.Now())
		if err != nil {
			x.t.Fatal(err)
		}
		cfg.State = store
	}
	x.e = newExporter(x.t, cfg)
}

func (x *settingRig) info(i fakeexchange.AccountInfo) {
	x.t.Helper()
	if err := x.fake.Apply(fakeexchange.Event{AccountInfo: &fakeexchange.Change[fakeexchange.AccountInfo]{Account: "main", Row: i}}); err != nil {
		x.t.Fatal(err)
	}
}

func (x *settingRig) position(p fakeexchange.Position, remove bool) {
	x.t.Helper()
	if err := x.fake.Apply(fakeexchange.Event{Position: &fakeexchange.Change[fakeexchange.Position]{Account: "main", Row: p, Remove: remove}}); err != nil {
		x.t.Fatal(err)
	}
}

// poll polls both endpoints once and returns the counts exported, by
// setting in the order of settingsBy.
func (x *settingRig) poll() string {
	x.t.Helper()
	for _, p := range x.e.pollers {
		p.pollOnce(context.Background())
		if !p.lastStatus().success {
			x.t.Fatalf("%s poll failed:\n%s", p.endpoint, x.logs.String())
		}
	}
	return x.counts()
}

func (x *settingRig) counts() string {
	x.t.Helper()
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(x.e.settings.shown)
	mfs, err := reg.Gather()
	if err != nil {
		x.t.Fatal(err)
	}
	got := map[string]float64{}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			got[m.GetLabel()[1].GetValue()] = m.GetCounter().GetValue()
		}
	}
	var out []string
	for _, s := range []string{"leverage", "account_mode", "position_mode", "position_leverage", "margin_mode"} {
		v, ok := got[s]
		if !ok {
			return "absent " + s
		}
		out = append(out, fmt.Sprint(v))
	}
	return strings.Join(out, " ")
}

// Each setting counts once per change, in the poll that sees it; the same
// value written otherwise, a first sight, a new position and a position
// closed and opened again count nothing.
func TestSettingChangesCountEachChangeOnce(t *testing.T) {
	x := newSettingRig(t, "")
	if got := x.counts(); got != "0 0 0 0 0" {
		t.Errorf("before any poll: %s", got)
	}
	steps := []struct {
		name   string
		change func()
		want   string
	}{
		{"first sight", func() {}, "0 0 0 0 0"},
		{"nothing changed", func() {}, "0 0 0 0 0"},
		{"leverage raised", func() { x.info(fakeexchange.AccountInfo{Leverage: "20"}) }, "1 0 0 0 0"},
		{"the same leverage spelt 20.0", func() { x.info(fakeexchange.AccountInfo{Leverage: "20.0"}) }, "1 0 0 0 0"},
		{"account mode", func() { x.info(fakeexchange.AccountInfo{AccountMode: "MARGIN"}) }, "1 1 0 0 0"},
		{"position mode", func() { x.info(fakeexchange.AccountInfo{PositionMode: "HEDGE_MODE"}) }, "1 1 1 0 0"},
		{"a position's leverage", func() {
			x.position(fakeexchange.Position{Symbol: "PERP_BTC_USDT", PositionSide: "BOTH", Leverage: "50"}, false)
		}, "1 1 1 1 0"},
		{"a position's margin mode", func() {
			x.position(fakeexchange.Position{Symbol: "PERP_BTC_USDT", PositionSide: "BOTH", MarginMode: "ISOLATED"}, false)
		}, "1 1 1 1 1"},
		{"a new position", func() {
			x.position(fakeexchange.Position{Symbol: "PERP_SOL_USDT", PositionSide: "BOTH", MarginMode: "ISOLATED", Holding: "3", Leverage: "5"}, false)
		}, "1 1 1 1 1"},
		{"a position closed", func() {
			x.position(fakeexchange.Position{Symbol: "PERP_SOL_USDT", PositionSide: "BOTH"}, true)
		}, "1 1 1 1 1"},
		{"and opened again at another leverage", func() {
			x.position(fakeexchange.Position{Symbol: "PERP_SOL_USDT", PositionSide: "BOTH", MarginMode: "CROSS", Holding: "3", Leverage: "20"}, false)
		}, "1 1 1 1 1"},
		{"both settings of a position at once", func() {
			x.position(fakeexchange.Position{Symbol: "PERP_SOL_USDT", PositionSide: "BOTH", MarginMode: "ISOLATED", Leverage: "25"}, false)
		}, "1 1 1 2 2"},
	}
	for _, s := range steps {
		s.change()
		if got := x.poll(); got != s.want {
			t.Fatalf("%s: %s, want %s", s.name, got, s.want)
		}
	}
	if !strings.Contains(x.logs.String(), "account settings changed") {
		t.Errorf("no change logged:\n%s", x.logs.String())
	}
}

// With a state file the counts continue across restarts, a change made
// while the exporter was down counts once at its next start, and a restart
// counts nothing again; a reload hands the counts over without one.
func TestSettingChangesContinueAcrossRestartsAndReloads(t *testing.T) {
	x := newSettingRig(t, filepath.Join(t.TempDir(), "state.json"))
	x.poll()
	x.info(fakeexchange.AccountInfo{Leverage: "20"})
	if got := x.poll(); got != "1 0 0 0 0" {
		t.Fatalf("first run: %s", got)
	}
	x.start(nil)
	if got := x.counts(); got != "1 0 0 0 0" {
		t.Errorf("restarted, before a poll: %s, want the saved counts", got)
	}
	// While down: the leverage cut back, a position moved to isolated.
	x.info(fakeexchange.AccountInfo{Leverage: "10"})
	x.position(fakeexchange.Position{Symbol: "PERP_BTC_USDT", PositionSide: "BOTH", MarginMode: "ISOLATED"}, false)
	x.start(nil)
	if got := x.poll(); got != "2 0 0 0 1" {
		t.Errorf("first poll after changes made while down: %s, want 2 0 0 0 1", got)
	}
	x.start(nil)
	if got := x.poll(); got != "2 0 0 0 1" {
		t.Errorf("restarted again: %s", got)
	}
	x.info(fakeexchange.AccountInfo{PositionMode: "HEDGE_MODE"})
	x.start(x.e.Handoff())
	if got := x.poll(); got != "2 0 1 0 1" {
		t.Errorf("after a reload: %s, want the counts handed off and the change made meanwhile counted", got)
	}
}

// A position not listed is forgotten only by a poll that read every row:
// while the list has a row the client could not read, which may be it, its
// settings are kept, so that its leverage changed meanwhile still counts.
func TestSettingChangesKeepAPositionWhileTheListIsIncomplete(t *testing.T) {
	x := newSettingRig(t, "")
	x.poll()
	unreadable := map[string]int{endpoint.Positions: 1}
	if err := x.fake.Apply(fakeexchange.Event{UnreadableRows: &unreadable}); err != nil {
		t.Fatal(err)
	}
	x.position(fakeexchange.Position{Symbol: "PERP_BTC_USDT", PositionSide: "BOTH"}, true)
	for _, p := range x.e.pollers {
		p.pollOnce(context.Background()) // positions lists 1 row of 2, one rejected
	}
	none := map[string]int{endpoint.Positions: 0}
	if err := x.fake.Apply(fakeexchange.Event{UnreadableRows: &none}); err != nil {
		t.Fatal(err)
	}
	x.position(fakeexchange.Position{Symbol: "PERP_BTC_USDT", PositionSide: "BOTH", MarginMode: "CROSS", Holding: "0.1", Leverage: "30"}, false)
	if got := x.poll(); got != "0 0 0 1 0" {
		t.Errorf("a position's leverage changed while the list was incomplete: %s, want 0 0 0 1 0", got)
	}
}
