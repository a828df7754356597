package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/model"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/promtest"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

const (
	// listedEVM is on the allow-list of these tests on ETH, in mixed case
	// as its checksum writes it.
	listedEVM = "0x31d64B3230f8baDD91dE1710A65DF536aF8f7cDa"
	// pageWithin is how soon after its row a withdrawal to an unlisted
	// address must page at the default flags, Prometheus scraping and
	// evaluating every 15 s.
	pageWithin = time.Minute
	// withdrawalScrapeEvery is Prometheus' scrape and evaluation interval.
	withdrawalScrapeEvery = 15 * time.Second
)

// writeAllowList writes content to a file and returns its path.
func writeAllowList(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "allowlist.yml")
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// --config.check reads the allow-list: a good one passes, a bad one is
// refused naming the file, line and field; without the token networks,
// which name a withdrawal's network, or the wallet, the flag is refused.
func TestConfigCheckRefusesBadWithdrawalAllowLists(t *testing.T) {
	bin := exportertest.Binary(t)
	good := writeAllowList(t, "- network: ETH\n  address: "+listedEVM+"\n- {network: XRP, address: rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh, tag: \"104\"}\n")
	for _, tc := range []struct {
		name string
		args []string
		ok   bool
		want string
	}{
		{"good", []string{"--wallet.withdrawal-allowlist=" + good}, true, "configuration OK"},
		{"empty list", []string{"--wallet.withdrawal-allowlist=" + writeAllowList(t, "[]\n")}, true, "configuration OK"},
		{"does not parse", []string{"--wallet.withdrawal-allowlist=" + writeAllowList(t, "- network: ETH\n  address: a1\n- network: [TRON\n")},
			false, "allowlist.yml:3: invalid YAML"},
		{"no address", []string{"--wallet.withdrawal-allowlist=" + writeAllowList(t, "- network: ETH\n  address: a1\n- network: TRON\n  name: hot\n")},
			false, "allowlist.yml:3: [1].address: required"},
		{"no network", []string{"--wallet.withdrawal-allowlist=" + writeAllowList(t, "- address: a1\n")}, false, "allowlist.yml:1: [0].network: required"},
		{"duplicate in another case", []string{"--wallet.withdrawal-allowlist=" + writeAllowList(t,
			"- network: ETH\n  address: "+listedEVM+"\n- network: ETH\n  address: "+strings.ToLower(listedEVM)+"\n")},
			false, "allowlist.yml:3: [1]: duplicate entry: the same destination as the entry at line 1"},
		{"missing file", []string{"--wallet.withdrawal-allowlist=" + filepath.Join(t.TempDir(), "none.yml")}, false, "--wallet.withdrawal-allowlist: read allow-list"},
		{"without token networks", []string{"--wallet.withdrawal-allowlist=" + good, "--no-collector.token-network"}, false, "--collector.token-network"},
		{"without the wallet", []string{"--wallet.withdrawal-allowlist=" + good, "--no-collector.wallet"}, false, "--collector.wallet"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, append([]string{"--config.check"}, tc.args...)...)
			cmd.Env = []string{"WOOX_API_KEY=abc", "WOOX_API_SECRET=S3CRET"}
			out, err := cmd.CombinedOutput()
			if (err == nil) != tc.ok || !strings.Contains(string(out), tc.want) {
				t.Errorf("exit %v, output %q; want ok %t and %q", err, out, tc.ok, tc.want)
			}
		})
	}
}

// TestWithdrawalToUnlistedAddressPagesWithinAMinute runs the binary on its
// default flags with an allow-list against the fake exchange, with Debian's
// Prometheus scraping and evaluating the shipped rules every 15 s and
// Alertmanager receiving its alerts. Three withdrawals appear at once: to
// the listed EVM address in lower case (no page), to the same address with
// a tag the entry lacks (pages) and to an unlisted TRON address (pages,
// within a minute of its row: the seconds are logged). Then the exporter is
// killed with SIGKILL, a withdrawal appears while it is down, and after the
// restart every withdrawal is counted once, no counter went back, and the
// pages still stand. About two minutes.
func TestWithdrawalToUnlistedAddressPagesWithinAMinute(t *testing.T) {
	if testing.Short() {
		t.Skip("about two minutes through Prometheus and Alertmanager; skipped in -short")
	}
	testsupport.Tool(t, "prometheus", "prometheus")
	testsupport.Tool(t, "prometheus-alertmanager", "prometheus-alertmanager")
	rules, err := filepath.Abs(filepath.Join("..", "alerts", "woox_exporter.rules.yml"))
	if err != nil {
		t.Fatal(err)
	}
	bin := exportertest.Binary(t)
	fake := startFake(t)
	url := serveFake(t, fake)
	dir := t.TempDir()
	// The demo's withdrawals (TRON, 2h ago; BTC, 3h ago) are listed: the
	// first poll pages for nothing.
	allowList := writeAllowList(t, "- {network: ETH, address: "+listedEVM+", name: treasury}\n"+
		"- {network: TRON, address: TTsY9uu2Y3aBH1vSir1md7oRqZe7DscA4v}\n- {network: BTC, address: bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq}\n")
	addr := freeAddr(t)
	args := []string{"--web.listen-address=" + addr, "--woox.api-url=" + url, "--config.file=" + accountsConfig(t, dir, "main"),
		"--wallet.withdrawal-allowlist=" + allowList, "--token-history.state-file=" + filepath.Join(dir, "state.json")}
	start := func() *exportertest.Process {
		cmd := exec.Command(bin, args...)
		cmd.Env = append([]string{"PATH=" + os.Getenv("PATH")}, defaultSecrets...)
		p, err := exportertest.StartCommand(cmd, addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.Close)
		p.WaitReady(t)
		return p
	}
	p := start()
	am := promtest.StartAlertmanager(t, alertmanagerConfig(t))
	prom := promtest.Start(t, promtest.Config{Jobs: []promtest.Job{{Name: "woox", Targets: []string{addr}}}, RuleFiles: []string{rules},
		Interval: withdrawalScrapeEvery, Alertmanagers: []string{am.Addr()}})
	defer func() {
		if t.Failed() {
			t.Logf("----- exporter, last 40 lines -----\n%s", tail(p.Output(), 40))
		}
	}()

	// The seed is scraped: the demo's two withdrawals, allowlisted.
	testsupport.WaitWithin(t, 2*withdrawalScrapeEvery+10*time.Second, time.Second/2, "the seed scraped", func() bool {
		v, err := prom.Query(`sum(woox_wallet_withdrawals_total{destination="allowlisted"})`, time.Now())
		return err == nil && len(v) == 1 && v[0].Value == 2
	})

	appeared := time.Now()
	for _, w := range []fakeexchange.Transfer{
		{ID: "wd-listed-lower", Address: strings.ToLower(listedEVM), Token: "ETH_USDT"},
		{ID: "wd-listed-with-tag", Address: listedEVM, Tag: "7", Token: "ETH_USDT"},
		{ID: "wd-unlisted", Address: "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE", Token: "TRON_USDT"},
	} {
		w.Side, w.Status, w.Amount = "WITHDRAW", "NEW", "2500"
		if err := fake.Apply(fakeexchange.Event{Transfer: &fakeexchange.Change[fakeexchange.Transfer]{Account: "main", Row: w}}); err != nil {
			t.Fatal(err)
		}
	}
	paged := map[string]time.Duration{}
	testsupport.WaitWithin(t, pageWithin+30*time.Second, time.Second/2, "both unlisted withdrawals paged in Alertmanager", func() bool {
		alerts, err := am.Alerts(nil)
		if err != nil {
			return false
		}
		for _, a := range alerts {
			if a.Labels["alertname"] == "WooxWithdrawalToUnlistedAddress" {
				if _, ok := paged[a.Labels["id"]]; !ok {
					paged[a.Labels["id"]] = time.Since(appeared)
				}
			}
		}
		_, tag := paged["wd-listed-with-tag"]
		_, unlisted := paged["wd-unlisted"]
		return tag && unlisted
	})
	for _, id := range []string{"wd-unlisted", "wd-listed-with-tag"} {
		t.Logf("%s: from its row to WooxWithdrawalToUnlistedAddress in Alertmanager: %.1f s", id, paged[id].Seconds())
		if paged[id] > pageWithin {
			t.Errorf("%s paged %.1f s after its row, want within %s", id, paged[id].Seconds(), pageWithin)
		}
	}
	alerts, err := prom.Alerts()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range alerts {
		if strings.HasPrefix(a.Labels["alertname"], "WooxWithdrawalTo") && a.Labels["id"] != "wd-unlisted" && a.Labels["id"] != "wd-listed-with-tag" {
			t.Errorf("%s fired for %s", a.Labels["alertname"], a.Labels["id"])
		}
		if a.Labels["id"] == "wd-unlisted" && (a.Labels["amount"] != "2500" || a.Labels["address"] != "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE" || a.Labels["network"] != "TRON") {
			t.Errorf("the page does not name the withdrawal: %v", a.Labels)
		}
	}
	want := map[string]float64{
		`woox_wallet_withdrawals_total{account="main", destination="allowlisted", network="TRON", token="USDT"}`: 1,
		`woox_wallet_withdrawals_total{account="main", destination="allowlisted", network="BTC", token="BTC"}`:   1,
		`woox_wallet_withdrawals_total{account="main", destination="allowlisted", network="ETH", token="USDT"}`:  1,
		`woox_wallet_withdrawals_total{account="main", destination="unlisted", network="ETH", token="USDT"}`:     1,
		`woox_wallet_withdrawals_total{account="main", destination="unlisted", network="TRON", token="USDT"}`:    1,
	}
	checkWithdrawals(t, "before the restart", p.Scrape(t), want)

	// A kill at any instant: what was shown was saved first.
	p.Kill(t)
	if err := fake.Apply(fakeexchange.Event{Transfer: &fakeexchange.Change[fakeexchange.Transfer]{Account: "main",
		Row: fakeexchange.Transfer{ID: "wd-while-down", Token: "ETH_USDT", Side: "WITHDRAW", Status: "NEW",
			Amount: "1", Address: listedEVM}}}); err != nil {
		t.Fatal(err)
	}
	p = start()
	want[`woox_wallet_withdrawals_total{account="main", destination="allowlisted", network="ETH", token="USDT"}`] = 2
	checkWithdrawals(t, "after the restart", p.Scrape(t), want)
	// Scraped again by Prometheus: no counter went back, both pages stand.
	scraped := time.Now()
	testsupport.WaitWithin(t, 2*withdrawalScrapeEvery+10*time.Second, time.Second/2, "the restarted exporter scraped and evaluated", func() bool {
		v, err := prom.Query(`timestamp(up{job="woox"})`, time.Now())
		return err == nil && len(v) == 1 && float64(v[0].Value) > float64(scraped.Unix())+1 &&
			time.Since(scraped) > withdrawalScrapeEvery+5*time.Second
	})
	if v, err := prom.Query(`sum(resets(woox_wallet_withdrawals_total[10m]))`, time.Now()); err != nil || len(v) != 1 || v[0].Value != 0 {
		t.Errorf("resets of the withdrawal counters across the restart: %v, %v; want 0", v, err)
	}
	if v, err := prom.Query(`count(ALERTS{alertname="WooxWithdrawalToUnlistedAddress", alertstate="firing"})`, time.Now()); err != nil || len(v) != 1 || v[0].Value != 2 {
		t.Errorf("firing unlisted-address alerts after the restart: %v, %v; want 2", v, err)
	}
}

// checkWithdrawals compares the woox_wallet_withdrawals_total series of a
// scrape with want.
func checkWithdrawals(t *testing.T, when string, samples map[string]*model.Sample, want map[string]float64) {
	t.Helper()
	got := map[string]float64{}
	for k, s := range samples {
		if strings.HasPrefix(k, "woox_wallet_withdrawals_total{") {
			got[k] = float64(s.Value)
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s: withdrawals %v\nwant %v", when, got, want)
	}
}
