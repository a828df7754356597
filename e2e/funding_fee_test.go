package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/common/model"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// The binary against the fake serving the demo's payments (the docs
// example's two and one more, 10 to 40 minutes old), in the docs' encoding
// and with every number a string: each symbol's payments and fees by
// direction exactly, nothing for the sub-account, which has none.
// Restarted on its state file with a lookback of a minute, which a fresh
// count would find nothing in, the same totals: restored, each payment
// counted once.
func TestBinaryCountsFundingFeesOnceAcrossARestart(t *testing.T) {
	eachCapturedEncoding(t, func(t *testing.T, url string) {
		state := filepath.Join(t.TempDir(), "state.json")
		args := []string{"--woox.api-url=" + url, "--config.file=" + everyAreaConfig(t), "--token-history.state-file=" + state}
		env := []string{"SUB_SECRET=" + fakeexchange.DefaultSubSecret}
		for run, lookback := range []string{"1h", "1m"} {
			p := exportertest.Start(t, env, append(args, "--token-history.lookback="+lookback)...)
			p.WaitReady(t)
			checkFundingFees(t, p.Scrape(t))
			p.Stop(t)
			if b, err := os.ReadFile(state); err != nil || !strings.Contains(string(b), `"funding_fees"`) {
				t.Fatalf("run %d: the state file holds no funding fees (%v)", run, err)
			}
		}
	})
}

func checkFundingFees(t *testing.T, samples map[string]*model.Sample) {
	t.Helper()
	want := map[string]float64{
		`woox_poll_success{account="main", endpoint="funding_fee"}`: 1,
		`woox_poll_success{account="sub", endpoint="funding_fee"}`:  1,
	}
	for _, p := range []struct {
		symbol, direction string
		amount            float64
	}{{"PERP_BTC_USDT", "paid", 9.56021744}, {"PERP_BTC_USDT", "received", 43.14503239}, {"PERP_ETH_USDT", "paid", 1.5}} {
		labels := `{account="main", direction="` + p.direction + `", symbol="` + p.symbol + `"}`
		want["woox_funding_fee_payments_total"+labels] = 1
		want["woox_funding_fee_amount_total"+labels] = p.amount
	}
	for series, v := range want {
		if got := value(t, samples, series); got != v {
			t.Errorf("%s = %v, want %v", series, got, v)
		}
	}
	var exported []string
	for series := range samples {
		if strings.HasPrefix(series, "woox_funding_fee_") {
			exported = append(exported, series)
		}
	}
	if len(exported) != 6 {
		t.Errorf("%d funding fee series, want the 6 above:\n%s", len(exported), strings.Join(exported, "\n"))
	}
}
