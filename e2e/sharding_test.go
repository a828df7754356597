package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
	"github.com/woox-exporter/woox_exporter/shard"
)

// Three real binaries, shards 0, 1 and 2 of one job, against one fake
// exchange holding 24 accounts: every account is exported by exactly one
// shard (the one its name hashes to), only shard 0 reads the public
// endpoints, and no account's budget is exceeded at the fake.
func TestShardsSplitAccountsAndReadPublicEndpointsOnce(t *testing.T) {
	const (
		accounts = 24
		shards   = 3
		// Each endpoint of each account may take 5 of these 10 a second.
		requests = 10
		window   = time.Second
	)
	scenario := &fakeexchange.Scenario{TokenNetworks: fakeexchange.DefaultScenario().TokenNetworks}
	var cfg strings.Builder
	cfg.WriteString("accounts:\n")
	env := []string{}
	for i := range accounts {
		name := fmt.Sprintf("desk-%02d", i)
		key, secret := fmt.Sprintf("shard-key-%02d==", i), fmt.Sprintf("SHARDSECRET%017d", i)
		scenario.Accounts = append(scenario.Accounts, fakeexchange.Account{Name: name, AccountName: name, UserID: int64(1000 + i),
			Keys:      []fakeexchange.Key{{APIKey: key, APISecret: secret, Permissions: []string{"READ"}}},
			Balances:  []fakeexchange.Balance{{Token: "USDT", Holding: fmt.Sprintf("%d", i)}},
			Transfers: []fakeexchange.Transfer{{ID: fmt.Sprintf("w-%02d", i), Token: "TRON_USDT", Side: "WITHDRAW", Amount: "1", Status: "PROCESSING", CreatedAgo: time.Minute}}})
		fmt.Fprintf(&cfg, "  - {name: %s, api_key: %q, api_secret_env: SECRET_%02d}\n", name, key, i)
		env = append(env, fmt.Sprintf("SECRET_%02d=%s", i, secret))
	}
	// Public requests come from one IP here: shard 0's budget, and the
	// token network list the two others read every 400 ms for their
	// wallets (every 5 minutes at the default interval).
	fake, err := fakeexchange.New(scenario, fakeexchange.WithRateLimit(requests, window), fakeexchange.WithPublicRateLimit(2*requests, window))
	if err != nil {
		t.Fatal(err)
	}
	url := serveFake(t, fake)
	path := filepath.Join(t.TempDir(), "accounts.yml")
	if err := os.WriteFile(path, []byte(cfg.String()), 0o600); err != nil {
		t.Fatal(err)
	}

	var procs []*exportertest.Process
	for i := range shards {
		p := exportertest.Start(t, env, append([]string{"--woox.api-url=" + url, "--config.file=" + path,
			fmt.Sprintf("--shard.count=%d", shards), fmt.Sprintf("--shard.index=%d", i),
			fmt.Sprintf("--api.rate-limit=%d/%s", requests, window), "--collector.sub-accounts"},
			exportertest.IntervalFlags(400*time.Millisecond)...)...)
		procs = append(procs, p)
	}
	for _, p := range procs {
		p.WaitReady(t)
	}
	time.Sleep(3 * time.Second) // several polls of every poller

	exportedBy := map[string][]int{}
	publicPolls, networkPolls := make([]float64, shards), make([]float64, shards)
	for i, p := range procs {
		samples := p.Scrape(t)
		if got := value(t, samples, "woox_exporter_shard_ordinal"); got != float64(i) {
			t.Errorf("shard %d: woox_exporter_shard_ordinal %v", i, got)
		}
		if got := value(t, samples, "woox_exporter_total_shards"); got != shards {
			t.Errorf("shard %d: woox_exporter_total_shards %v", i, got)
		}
		for series, s := range samples {
			if strings.HasPrefix(series, "woox_balance_holding{") {
				name := s.Metric["account"]
				exportedBy[string(name)] = append(exportedBy[string(name)], i)
			}
			if strings.HasPrefix(series, "woox_api_requests_total{") && s.Metric["endpoint"] == "system_info" {
				publicPolls[i] += float64(s.Value)
			}
			if strings.HasPrefix(series, "woox_api_requests_total{") && s.Metric["endpoint"] == "token_network" {
				networkPolls[i] += float64(s.Value)
			}
			// Other shards read the token networks for their wallets only.
			if strings.HasPrefix(series, "woox_poll_success{") && s.Metric["account"] == "" && i != 0 && s.Metric["endpoint"] != "token_network" {
				t.Errorf("shard %d polls the public %s", i, s.Metric["endpoint"])
			}
			if strings.HasPrefix(series, "woox_token_network_") && i != 0 {
				t.Errorf("shard %d exports %s", i, series)
			}
			// Every shard splits its wallets' network-token ids.
			if strings.HasPrefix(series, "woox_wallet_transfers_in_flight{") && (s.Metric["token"] != "USDT" || s.Metric["network"] != "TRON") {
				t.Errorf("shard %d: %s, want token USDT on network TRON", i, series)
			}
		}
	}
	for i := range accounts {
		name := fmt.Sprintf("desk-%02d", i)
		if by := exportedBy[name]; len(by) != 1 || by[0] != shard.Of(name, shards) {
			t.Errorf("%s exported by shards %v, want only %d", name, by, shard.Of(name, shards))
		}
	}
	if publicPolls[0] == 0 || publicPolls[1] != 0 || publicPolls[2] != 0 {
		t.Errorf("system info requests by shard %v, want shard 0 alone", publicPolls)
	}
	if slices.Contains(networkPolls, 0) {
		t.Errorf("token network requests by shard %v, want every shard's (shard 0 exports them, the others split wallet ids)", networkPolls)
	}

	// At the fake: the public requests are shard 0's, nothing was refused,
	// and no endpoint of any account saw more than the budget in a limit window.
	reqs := fake.Requests()
	public := 0
	times := map[string][]time.Time{}
	for _, r := range reqs {
		if r.Status == 429 {
			t.Errorf("429 at the fake: %+v", r)
		}
		if r.Account == "" {
			public++
			continue
		}
		k := r.Account + " " + r.Endpoint
		times[k] = append(times[k], r.Time)
	}
	// Shard 0 may have sent requests since its scrape: not fewer.
	if float64(public) < publicPolls[0]+networkPolls[0] {
		t.Errorf("the fake saw %d public requests, shard 0 counted %v", public, publicPolls[0]+networkPolls[0])
	}
	for _, p := range procs {
		p.Stop(t)
	}
	var keys []string
	for k := range times {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if n := testsupport.BusiestWindow(times[k], window); n > requests/2 {
			t.Errorf("%s: %d requests in one %s window, budget %d", k, n, window, requests/2)
		}
	}
	// Every per-account endpoint: --collector.sub-accounts turns on the one
	// off by default.
	perAccount := len(endpoint.Names(true, map[string]bool{endpoint.SubAccounts: true}))
	if len(keys) != accounts*perAccount {
		t.Errorf("requests for %d (account, endpoint) pairs, want each of the %d per-account endpoints of %d accounts", len(keys), perAccount, accounts)
	}
}
