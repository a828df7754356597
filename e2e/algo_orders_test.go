package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/common/model"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// The binary against the fake serving the demo's orders, in the docs'
// encoding and with every number a string: main's open orders (three of
// four: the filled one left out) and its open algo orders by symbol and type
// (the cancelled stop left out), nothing for the sub-account, which has
// none; the settings' counters at 0 on a first start, and the account's
// position mode.
func TestBinaryExportsOrdersExactly(t *testing.T) {
	eachCapturedEncoding(t, func(t *testing.T, url string) {
		p := exportertest.Start(t, []string{"SUB_SECRET=" + fakeexchange.DefaultSubSecret},
			"--woox.api-url="+url, "--config.file="+everyAreaConfig(t))
		p.WaitReady(t)
		checkOrders(t, p.Scrape(t))
		p.Stop(t)
	})
}

func checkOrders(t *testing.T, samples map[string]*model.Sample) {
	t.Helper()
	want := map[string]float64{
		`woox_poll_success{account="main", endpoint="orders"}`:                                     1,
		`woox_poll_success{account="main", endpoint="algo_orders"}`:                                1,
		`woox_open_orders{account="main"}`:                                                         3,
		`woox_open_orders{account="sub"}`:                                                          0,
		`woox_open_algo_orders{account="main", algo_type="STOP", symbol="PERP_BTC_USDT"}`:          1,
		`woox_open_algo_orders{account="main", algo_type="TRAILING_STOP", symbol="SPOT_WOO_USDT"}`: 1,
		`woox_account_info{account="main", account_mode="FUTURES", position_mode="ONE_WAY"}`:       1,
		`woox_account_info{account="sub", account_mode="PURE_SPOT", position_mode="ONE_WAY"}`:      1,
		`woox_account_setting_changes_total{account="main", setting="leverage"}`:                   0,
		`woox_account_setting_changes_total{account="sub", setting="position_leverage"}`:           0,
	}
	for series, v := range want {
		if got := value(t, samples, series); got != v {
			t.Errorf("%s = %v, want %v", series, got, v)
		}
	}
	var algo, settings int
	for series := range samples {
		switch {
		case strings.HasPrefix(series, "woox_open_algo_orders{"):
			algo++
		case strings.HasPrefix(series, "woox_account_setting_changes_total{"):
			settings++
		}
	}
	if algo != 2 || settings != 2*5 {
		t.Errorf("%d algo order series and %d setting series, want 2 and 10", algo, settings)
	}
}

// Each of the five settings changed while the exporter was down (killed
// with SIGKILL) counts once at the first poll after the restart, a new
// position counts nothing, and a restart counts nothing again.
func TestBinaryCountsSettingsChangedWhileDownOnce(t *testing.T) {
	fake := startFake(t)
	url := serveFake(t, fake)
	dir := t.TempDir()
	state, cfg := filepath.Join(dir, "woox.json"), accountsConfig(t, dir, "main")
	start := func() *exportertest.Process {
		p := exportertest.Start(t, defaultSecrets, "--woox.api-url="+url, "--config.file="+cfg, "--token-history.state-file="+state)
		p.WaitReady(t) // every poller polled once
		return p
	}
	counts := func(p *exportertest.Process) string {
		s := p.Scrape(t)
		var out []string
		for _, setting := range []string{"leverage", "account_mode", "position_mode", "position_leverage", "margin_mode"} {
			out = append(out, setting+"="+strings.TrimSpace(s[`woox_account_setting_changes_total{account="main", setting="`+setting+`"}`].Value.String()))
		}
		return strings.Join(out, " ")
	}
	p := start()
	if got := counts(p); got != "leverage=0 account_mode=0 position_mode=0 position_leverage=0 margin_mode=0" {
		t.Errorf("first start: %s", got)
	}
	p.Kill(t)
	for _, ev := range []fakeexchange.Event{
		{AccountInfo: &fakeexchange.Change[fakeexchange.AccountInfo]{Account: "main",
			Row: fakeexchange.AccountInfo{Leverage: "20", AccountMode: "MARGIN", PositionMode: "HEDGE_MODE"}}},
		{Position: &fakeexchange.Change[fakeexchange.Position]{Account: "main",
			Row: fakeexchange.Position{Symbol: "PERP_BTC_USDT", PositionSide: "BOTH", Leverage: "20"}}},
		{Position: &fakeexchange.Change[fakeexchange.Position]{Account: "main",
			Row: fakeexchange.Position{Symbol: "PERP_LTC_USDT", PositionSide: "BOTH", MarginMode: "ISOLATED"}}},
		{Position: &fakeexchange.Change[fakeexchange.Position]{Account: "main",
			Row: fakeexchange.Position{Symbol: "PERP_SOL_USDT", PositionSide: "BOTH", MarginMode: "CROSS", Holding: "1", Leverage: "50"}}},
	} {
		if err := fake.Apply(ev); err != nil {
			t.Fatal(err)
		}
	}
	p = start()
	want := "leverage=1 account_mode=1 position_mode=1 position_leverage=1 margin_mode=1"
	if got := counts(p); got != want {
		t.Errorf("first start after the changes: %s, want %s", got, want)
	}
	if !strings.Contains(p.Output(), `msg="account settings changed"`) {
		t.Errorf("the changes are not logged:\n%s", p.Output())
	}
	p.Kill(t)
	p = start()
	if got := counts(p); got != want {
		t.Errorf("restarted, nothing changed: %s, want %s", got, want)
	}
	p.Stop(t)
}
