package e2e

import (
	"path/filepath"
	"testing"

	"github.com/prometheus/common/model"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// The binary against the fake's demo transfers (250 USDT main to sub, 0.01
// BTC back, 100 USDT pending to Treasury, an account not in the scenario),
// in the docs' encoding and with every number a string: each side's
// counts and amounts exactly, the pending one in flight, each account's
// own applicationId.
func TestBinaryExportsTransfersExactly(t *testing.T) {
	eachCapturedEncoding(t, func(t *testing.T, url string) {
		p := exportertest.Start(t, []string{"SUB_SECRET=" + fakeexchange.DefaultSubSecret},
			"--woox.api-url="+url, "--config.file="+everyAreaConfig(t))
		p.WaitReady(t)
		checkTransfers(t, p.Scrape(t), 0)
		p.Stop(t)
	})
}

// checkTransfers checks the demo's transfers, with extra more USDT sent
// from main to sub (one transfer) when extra is not 0.
func checkTransfers(t *testing.T, samples map[string]*model.Sample, extra float64) {
	t.Helper()
	n := 1.0
	if extra != 0 {
		n = 2
	}
	want := map[string]float64{
		`woox_transfers_total{account="main", counterparty="Sub-1", direction="out", token="USDT"}`:       n,
		`woox_transfer_amount_total{account="main", counterparty="Sub-1", direction="out", token="USDT"}`: 250 + extra,
		`woox_transfers_total{account="main", counterparty="Sub-1", direction="in", token="BTC"}`:         1,
		`woox_transfer_amount_total{account="main", counterparty="Sub-1", direction="in", token="BTC"}`:   0.01,
		`woox_transfers_total{account="sub", counterparty="Main", direction="in", token="USDT"}`:          n,
		`woox_transfer_amount_total{account="sub", counterparty="Main", direction="in", token="USDT"}`:    250 + extra,
		`woox_transfer_amount_total{account="sub", counterparty="Main", direction="out", token="BTC"}`:    0.01,
		`woox_transfers_in_flight{account="main", direction="out", status="PENDING", token="USDT"}`:       1,
		`woox_transfer_account_info{account="main", application_id="app-main"}`:                           1,
		`woox_transfer_account_info{account="sub", application_id="app-sub"}`:                             1,
		`woox_poll_success{account="main", endpoint="transfer_history"}`:                                  1,
		`woox_poll_success{account="sub", endpoint="transfer_history"}`:                                   1,
	}
	for series, v := range want {
		if got := value(t, samples, series); got != v {
			t.Errorf("%s = %v, want %v", series, got, v)
		}
	}
}

// Counts survive a restart through the state file: the demo's transfers
// are not counted again, and one made while the exporter was down is
// counted once.
func TestBinaryKeepsTransferCountsAcrossARestart(t *testing.T) {
	fake := startFake(t)
	url := serveFake(t, fake)
	state := filepath.Join(t.TempDir(), "woox.json")
	cfg := everyAreaConfig(t)
	start := func() *exportertest.Process {
		p := exportertest.Start(t, []string{"SUB_SECRET=" + fakeexchange.DefaultSubSecret},
			"--woox.api-url="+url, "--config.file="+cfg, "--token-history.state-file="+state)
		p.WaitReady(t)
		return p
	}
	p := start()
	checkTransfers(t, p.Scrape(t), 0)
	p.Stop(t)
	if err := fake.Apply(fakeexchange.Event{AccountTransfer: &fakeexchange.Change[fakeexchange.AccountTransfer]{Account: "main",
		Row: fakeexchange.AccountTransfer{ID: 9001, Token: "USDT", Amount: "12.5", Counterparty: "sub"}}}); err != nil {
		t.Fatal(err)
	}
	p = start()
	checkTransfers(t, p.Scrape(t), 12.5)
	p.Stop(t)
}
