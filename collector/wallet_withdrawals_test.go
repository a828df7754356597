package collector

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/allowlist"
	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/ledger"
	"github.com/woox-exporter/woox_exporter/statefile"
)

const (
	evmAddress  = "0x31d64B3230f8baDD91dE1710A65DF536aF8f7cDa"
	xrpAddress  = "rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh"
	tronAddress = "TTsY9uu2Y3aBH1vSir1md7oRqZe7DscA4v"
)

// withdrawalNetworks are the token networks the withdrawal tests name
// networks by.
var withdrawalNetworks = []fakeexchange.TokenNetworkRow{
	{Token: "USDT", Network: "ETH", MinimumWithdrawal: "1", WithdrawalFee: "1"},
	{Token: "USDT", Network: "TRON", MinimumWithdrawal: "1", WithdrawalFee: "1"},
	{Token: "XRP", Network: "XRP", MinimumWithdrawal: "1", WithdrawalFee: "1"},
	{Token: "BTC", Network: "BTC", MinimumWithdrawal: "1", WithdrawalFee: "1"},
}

// withdrawal is a withdrawal of 10 created age before the rig's clock.
func withdrawal(r *rig, id, token, address, tag string, age time.Duration) fakeexchange.Transfer {
	return fakeexchange.Transfer{ID: id, Token: token, Side: "WITHDRAW", Status: "NEW", Amount: "10", Address: address, Tag: tag,
		CreatedTime: r.now().Add(-age).UnixMilli()}
}

// walletRig is a rig listing withdrawalNetworks, its pages capped at
// pageCap rows (0 for none; the client pages on past a page of
// client.DefaultPageSize rows or more).
func walletRig(t *testing.T, pageCap int) *rig {
	t.Helper()
	r := newRig(t, &fakeexchange.Scenario{PageCap: pageCap})
	r.listTokenNetworks(t, withdrawalNetworks)
	return r
}

// walletExporter polls the token networks and the wallet of the rig's
// accounts, the wallet every 15 s as by default, with mod applied.
func walletExporter(t *testing.T, r *rig, mod func(*Config)) *Exporter {
	t.Helper()
	cfg := r.config()
	cfg.Collectors = map[string]bool{}
	for _, ep := range endpoint.All {
		cfg.Collectors[ep.Name] = ep.Name == endpoint.Wallet || ep.Name == endpoint.TokenNetwork
	}
	cfg.Intervals[endpoint.Wallet] = 15 * time.Second
	if mod != nil {
		mod(&cfg)
	}
	return newExporter(t, cfg)
}

// pollAfter moves the rig's clock by d and polls every poller once.
func pollAfter(r *rig, e *Exporter, d time.Duration) {
	r.clock.Add(d)
	pollAll(e)
}

// withdrawalValues are the withdrawal families e exports, one line per
// series: "woox_wallet_withdrawals_total{...} 2".
func withdrawalValues(t *testing.T, e *Exporter) map[string]float64 {
	t.Helper()
	reg := prometheus.NewPedanticRegistry()
	reg.MustRegister(e.byName[endpoint.Wallet])
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, mf := range mfs {
		if !strings.Contains(mf.GetName(), "withdrawal") {
			continue
		}
		for _, m := range mf.GetMetric() {
			var labels []string
			for _, l := range m.GetLabel() {
				if l.GetName() != "account" {
					labels = append(labels, l.GetName()+"="+l.GetValue())
				}
			}
			v := m.GetGauge().GetValue() + m.GetCounter().GetValue()
			out[mf.GetName()+"{"+strings.Join(labels, ",")+"}"] = v
		}
	}
	return out
}

func checkValues(t *testing.T, what string, got, want map[string]float64) {
	t.Helper()
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %s = %v, want %v", what, k, got[k], v)
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: unexpected %s = %v", what, k, v)
		}
	}
}

// walletWindows are the startTime and endTime of each wallet read (its
// first page), in the order sent.
func walletWindows(t *testing.T, r *rig) [][2]int64 {
	t.Helper()
	var out [][2]int64
	for _, q := range r.requests(endpoint.Wallet) {
		if query(t, q, "page") != "1" {
			continue
		}
		var w [2]int64
		if _, err := fmt.Sscan(query(t, q, "startTime")+" "+query(t, q, "endTime"), &w[0], &w[1]); err != nil {
			t.Fatalf("wallet window %q: %v", q.RawQuery, err)
		}
		out = append(out, w)
	}
	return out
}

// The first read, of the whole lookback, seeds: its withdrawals are counted
// and known, none new. Then each poll reads only the rows since the newest
// seen (less the overlap), one request while they fit a page, and every
// withdrawal is counted once, at its first sight whatever its status, over
// pages, status changes and the reads of the whole lookback that come back
// every --wallet.lookback-interval.
func TestWithdrawalsCountedOnceByIDAcrossPagesAndReads(t *testing.T) {
	r := walletRig(t, client.DefaultPageSize)
	// Deposits enough for the lookback to take two pages.
	for i := range client.DefaultPageSize {
		r.putTransfers(t, transfer(fmt.Sprint("filler", i), "ETH_USDT", "DEPOSIT", "COMPLETED", 6*time.Hour))
	}
	r.putTransfers(t,
		withdrawal(r, "w1", "TRON_USDT", tronAddress, "", 3*24*time.Hour),
		withdrawal(r, "w2", "TRON_USDT", tronAddress, "", 2*24*time.Hour),
		withdrawal(r, "w3", "ETH_USDT", evmAddress, "", 5*time.Hour),
		transfer("d1", "ETH_USDT", "DEPOSIT", "COMPLETED", 4*time.Hour),
		withdrawal(r, "w4", "XRP", xrpAddress, "104", time.Hour),
		withdrawal(r, "old", "TRON_USDT", "Tsomewhere", "", 8*24*time.Hour),
	)
	e := walletExporter(t, r, nil)
	pollAll(e)
	checkValues(t, "seed", withdrawalValues(t, e), map[string]float64{
		"woox_wallet_withdrawals_total{destination=known,network=TRON,token=USDT}": 2,
		"woox_wallet_withdrawals_total{destination=known,network=ETH,token=USDT}":  1,
		"woox_wallet_withdrawals_total{destination=known,network=XRP,token=XRP}":   1,
	})
	seedEnd := r.now()

	// New rows over two pages, a status change of a counted one, and a
	// second withdrawal to the new address in the same read.
	r.clock.Add(10 * time.Second)
	r.putTransfers(t,
		withdrawal(r, "w5", "ETH_USDT", strings.ToLower(evmAddress), "", 0),
		withdrawal(r, "w6", "TRON_USDT", "TNewAddress1", "", 0),
		withdrawal(r, "w7", "TRON_USDT", "TNewAddress1", "", 0),
		fakeexchange.Transfer{ID: "w4", Token: "XRP", Side: "WITHDRAW", Status: "COMPLETED", Amount: "10", Address: xrpAddress, Tag: "104"},
	)
	w6 := r.now()
	pollAfter(r, e, 5*time.Second)
	want := map[string]float64{
		"woox_wallet_withdrawals_total{destination=known,network=TRON,token=USDT}":                                                   3,
		"woox_wallet_withdrawals_total{destination=new,network=TRON,token=USDT}":                                                     1,
		"woox_wallet_withdrawals_total{destination=known,network=ETH,token=USDT}":                                                    2,
		"woox_wallet_withdrawals_total{destination=known,network=XRP,token=XRP}":                                                     1,
		"woox_wallet_withdrawal_destination_info{address=TNewAddress1,amount=10,destination=new,id=w6,network=TRON,tag=,token=USDT}": 1,
	}
	checkValues(t, "after the new rows", withdrawalValues(t, e), want)

	// Quiet polls until the lookback interval: nothing more is counted.
	for range 20 {
		pollAfter(r, e, 15*time.Second)
	}
	checkValues(t, "five minutes later", withdrawalValues(t, e), want)

	windows := walletWindows(t, r)
	var full int
	for i, w := range windows {
		if w[1]-w[0] == DefaultWalletLookback.Milliseconds() {
			full++
			continue
		}
		// A read of new rows starts an overlap before the newest row seen.
		newest := seedEnd.Add(-time.Hour).UnixMilli()
		if i > 1 {
			newest = w6.UnixMilli()
		}
		if w[0] != newest-walletOverlap.Milliseconds() {
			t.Errorf("read %d starts at %d, want %d: the overlap before the newest row seen", i, w[0], newest-walletOverlap.Milliseconds())
		}
	}
	if len(windows) != 22 || full != 2 || windows[0][1]-windows[0][0] != DefaultWalletLookback.Milliseconds() {
		t.Errorf("%d reads, %d of the whole lookback (the first among them); want 22 and 2", len(windows), full)
	}
	// Only the two reads of the whole lookback take a second page.
	if n := len(r.requests(endpoint.Wallet)); n != 24 {
		t.Errorf("%d requests, want 24: one a read, and a second page for each of the 2 reads of the whole lookback", n)
	}
}

// With an allow-list every withdrawal is allowlisted or unlisted, the seed
// too: an EVM address in another letter case is the one listed, the same
// address with a tag the entry lacks is not; a non-EVM address in another
// case is not; a tag must be the entry's.
func TestWithdrawalsAgainstTheAllowList(t *testing.T) {
	r := walletRig(t, 0)
	list, err := allowlist.New([]allowlist.Entry{
		{Network: "ETH", Address: evmAddress}, {Network: "TRON", Address: tronAddress}, {Network: "XRP", Address: xrpAddress, Tag: "104"},
	})
	if err != nil {
		t.Fatal(err)
	}
	r.putTransfers(t, withdrawal(r, "seed-bad", "TRON_USDT", strings.ToLower(tronAddress), "", 2*time.Hour))
	e := walletExporter(t, r, func(c *Config) { c.WithdrawalAllowList = list })
	pollAll(e)
	r.putTransfers(t,
		withdrawal(r, "evm-lower", "ETH_USDT", strings.ToLower(evmAddress), "", 0),
		withdrawal(r, "evm-tag", "ETH_USDT", evmAddress, "5", 0),
		withdrawal(r, "xrp-tag", "XRP", xrpAddress, "104", 0),
		withdrawal(r, "xrp-other-tag", "XRP", xrpAddress, "105", 0),
		withdrawal(r, "xrp-no-tag", "XRP", xrpAddress, "", 0),
		withdrawal(r, "tron", "TRON_USDT", tronAddress, "", 0),
	)
	pollAfter(r, e, 15*time.Second)
	checkValues(t, "", withdrawalValues(t, e), map[string]float64{
		"woox_wallet_withdrawals_total{destination=unlisted,network=TRON,token=USDT}":                                                                                   1,
		"woox_wallet_withdrawals_total{destination=allowlisted,network=TRON,token=USDT}":                                                                                1,
		"woox_wallet_withdrawals_total{destination=allowlisted,network=ETH,token=USDT}":                                                                                 1,
		"woox_wallet_withdrawals_total{destination=unlisted,network=ETH,token=USDT}":                                                                                    1,
		"woox_wallet_withdrawals_total{destination=allowlisted,network=XRP,token=XRP}":                                                                                  1,
		"woox_wallet_withdrawals_total{destination=unlisted,network=XRP,token=XRP}":                                                                                     2,
		"woox_wallet_withdrawal_destination_info{address=" + strings.ToLower(tronAddress) + ",amount=10,destination=unlisted,id=seed-bad,network=TRON,tag=,token=USDT}": 1,
		"woox_wallet_withdrawal_destination_info{address=" + evmAddress + ",amount=10,destination=unlisted,id=evm-tag,network=ETH,tag=5,token=USDT}":                    1,
		"woox_wallet_withdrawal_destination_info{address=" + xrpAddress + ",amount=10,destination=unlisted,id=xrp-other-tag,network=XRP,tag=105,token=XRP}":             1,
		"woox_wallet_withdrawal_destination_info{address=" + xrpAddress + ",amount=10,destination=unlisted,id=xrp-no-tag,network=XRP,tag=,token=XRP}":                   1,
	})
	// A day after it was seen a withdrawal no longer names its address.
	pollAfter(r, e, withdrawalFlagFor+time.Second)
	for k := range withdrawalValues(t, e) {
		if strings.HasPrefix(k, "woox_wallet_withdrawal_destination_info") {
			t.Errorf("a day later: %s", k)
		}
	}
}

// Before the token network list arrives nothing is counted: a withdrawal
// counted on no network would match no entry. Once it is in, the rows are
// counted with their networks, and allowlisted.
func TestWithdrawalsWaitForTheTokenNetworks(t *testing.T) {
	r := walletRig(t, 0)
	list, err := allowlist.New([]allowlist.Entry{{Network: "ETH", Address: evmAddress}})
	if err != nil {
		t.Fatal(err)
	}
	r.putTransfers(t, withdrawal(r, "w1", "ETH_USDT", evmAddress, "", time.Hour))
	e := walletExporter(t, r, func(c *Config) { c.WithdrawalAllowList = list })
	// The first poll waits for the token networks a moment; here they
	// never come.
	e.byName[endpoint.Wallet].(*WalletCollector).reads[0].networksWait = time.Millisecond
	wallet := e.pollers[1]
	wallet.pollOnce(context.Background())
	if got := withdrawalValues(t, e); len(got) != 0 {
		t.Errorf("before the token networks: %v", got)
	}
	r.putTransfers(t, withdrawal(r, "w2", "ETH_USDT", evmAddress, "", 0))
	pollAfter(r, e, 15*time.Second)
	checkValues(t, "", withdrawalValues(t, e), map[string]float64{
		"woox_wallet_withdrawals_total{destination=allowlisted,network=ETH,token=USDT}": 2,
	})
}

// Without the token networks an allow-list could match nothing: refused.
func TestAnAllowListWithoutTokenNetworksIsRefused(t *testing.T) {
	r := walletRig(t, 0)
	list, _ := allowlist.New(nil)
	cfg := r.config()
	cfg.Collectors = map[string]bool{endpoint.TokenNetwork: false}
	cfg.WithdrawalAllowList = list
	if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "token network") {
		t.Errorf("New = %v, want the token networks named", err)
	}
}

// A counter shows only what the state file holds: while saves fail the
// counters hold (a crash then could not take a count back), and the page
// naming the address is shown all the same.
func TestWithdrawalCountersHoldWhileTheStateFileFails(t *testing.T) {
	r := walletRig(t, 0)
	state, err := openState(filepath.Join(t.TempDir(), "state.json"), r.now())
	if err != nil {
		t.Fatal(err)
	}
	store := &failingStore{StateStore: state}
	r.putTransfers(t, withdrawal(r, "w1", "ETH_USDT", evmAddress, "", time.Hour))
	e := walletExporter(t, r, func(c *Config) { c.State = store })
	pollAll(e)
	store.failing = true
	r.putTransfers(t, withdrawal(r, "w2", "TRON_USDT", tronAddress, "", 0))
	pollAfter(r, e, 15*time.Second)
	info := "woox_wallet_withdrawal_destination_info{address=" + tronAddress + ",amount=10,destination=new,id=w2,network=TRON,tag=,token=USDT}"
	checkValues(t, "while saves fail", withdrawalValues(t, e), map[string]float64{
		"woox_wallet_withdrawals_total{destination=known,network=ETH,token=USDT}": 1,
		info: 1,
	})
	store.failing = false
	pollAfter(r, e, 15*time.Second)
	checkValues(t, "once a save succeeds", withdrawalValues(t, e), map[string]float64{
		"woox_wallet_withdrawals_total{destination=known,network=ETH,token=USDT}": 1,
		"woox_wallet_withdrawals_total{destination=new,network=TRON,token=USDT}":  1,
		info: 1,
	})
	if saved, _ := state.SectionState(withdrawals.section, "main"); len(saved.(ledger.WithdrawalsState).Totals) != 2 {
		t.Errorf("saved totals %v, want both", saved)
	}
}

// The first wallet poll, which starts with the token networks' first poll,
// waits for it to end: its withdrawals are counted at once, with their
// networks, rather than a poll later.
func TestTheFirstWalletPollWaitsForTheTokenNetworks(t *testing.T) {
	r := walletRig(t, 0)
	r.putTransfers(t, withdrawal(r, "w1", "ETH_USDT", evmAddress, "", time.Hour))
	e := walletExporter(t, r, nil)
	r.holdTokenNetworks()
	var wg sync.WaitGroup
	for _, p := range e.pollers {
		wg.Add(1)
		go func() { defer wg.Done(); p.pollOnce(context.Background()) }()
	}
	// Long enough for an eager wallet poll to have read and counted nothing.
	time.Sleep(200 * time.Millisecond)
	if n := len(r.requests(endpoint.Wallet)); n != 0 {
		t.Errorf("the wallet read %d times before the token networks answered", n)
	}
	r.fake.ClearFaults()
	wg.Wait()
	checkValues(t, "", withdrawalValues(t, e), map[string]float64{
		"woox_wallet_withdrawals_total{destination=known,network=ETH,token=USDT}": 1,
	})
}

// Across a restart (from the state file) and across a reload (the ledger
// handed off in memory) the counters come back before the first poll,
// nothing is counted twice, and a withdrawal made meanwhile to a new
// address is new: the seed was the first start's.
func TestWithdrawalsContinueAcrossARestartAndAHandoff(t *testing.T) {
	for _, tc := range []struct {
		name      string
		stateFile bool
		// next builds the exporter that replaces e.
		next func(t *testing.T, r *rig, e *Exporter, state func() *statefile.Store) *Exporter
	}{
		{"restart with the state file", true, func(t *testing.T, r *rig, _ *Exporter, state func() *statefile.Store) *Exporter {
			return walletExporter(t, r, func(c *Config) { c.State = state() })
		}},
		{"reload without a state file", false, func(t *testing.T, r *rig, e *Exporter, _ func() *statefile.Store) *Exporter {
			return walletExporter(t, r, func(c *Config) { c.Handoff = e.Handoff() })
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := walletRig(t, 0)
			path := filepath.Join(t.TempDir(), "state.json")
			state := func() *statefile.Store {
				s, err := openState(path, r.now())
				if err != nil {
					t.Fatal(err)
				}
				return s
			}
			r.putTransfers(t, withdrawal(r, "w1", "ETH_USDT", evmAddress, "", time.Hour))
			e := walletExporter(t, r, func(c *Config) {
				if tc.stateFile {
					c.State = state()
				}
			})
			pollAll(e)
			r.putTransfers(t, withdrawal(r, "w2", "TRON_USDT", tronAddress, "", 0))
			pollAfter(r, e, 15*time.Second)
			before := withdrawalValues(t, e)

			r.clock.Add(time.Minute)
			r.putTransfers(t, withdrawal(r, "w3", "TRON_USDT", "TMeanwhile", "", 0))
			e = tc.next(t, r, e, state)
			checkValues(t, "before the first poll", withdrawalValues(t, e), before)
			pollAfter(r, e, 15*time.Second)
			checkValues(t, "after the first poll", withdrawalValues(t, e), map[string]float64{
				"woox_wallet_withdrawals_total{destination=known,network=ETH,token=USDT}":                                                           1,
				"woox_wallet_withdrawals_total{destination=new,network=TRON,token=USDT}":                                                            2,
				"woox_wallet_withdrawal_destination_info{address=" + tronAddress + ",amount=10,destination=new,id=w2,network=TRON,tag=,token=USDT}": 1,
				"woox_wallet_withdrawal_destination_info{address=TMeanwhile,amount=10,destination=new,id=w3,network=TRON,tag=,token=USDT}":          1,
			})
		})
	}
}
