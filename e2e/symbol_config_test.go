package e2e

import (
	"strings"
	"testing"

	"github.com/prometheus/common/model"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// The binary against the fake serving the demo's venue data (the docs
// example's symbol config, the demo's instruments and perpetuals), in the
// docs' encoding and with every number a string: each value exactly, the
// public lists once (without an account label), nothing for the
// sub-account's symbol config, which lists none.
func TestBinaryExportsVenueDataExactly(t *testing.T) {
	eachCapturedEncoding(t, func(t *testing.T, url string) {
		p := exportertest.Start(t, []string{"SUB_SECRET=" + fakeexchange.DefaultSubSecret},
			"--woox.api-url="+url, "--config.file="+everyAreaConfig(t))
		p.WaitReady(t)
		checkVenue(t, p.Scrape(t))
		p.Stop(t)
	})
}

func checkVenue(t *testing.T, samples map[string]*model.Sample) {
	t.Helper()
	want := map[string]float64{
		`woox_poll_success{account="main", endpoint="symbol_config"}`: 1,
		`woox_poll_success{account="sub", endpoint="symbol_config"}`:  1,
		`woox_poll_success{account="", endpoint="instruments"}`:       1,
		`woox_poll_success{account="", endpoint="futures"}`:           1,
	}
	for symbol, v := range map[string][3]float64{
		// max leverage, margin factor, max position
		"PERP_BTC_USDT": {50, 0.00000023, 1e11}, "PERP_ETH_USDT": {50, 0.00000023, 1e11}, "PERP_WOO_USDT": {20, 0.00000023, 1e11},
	} {
		for i, family := range []string{"max_leverage", "margin_factor", "max_position"} {
			want[`woox_symbol_`+family+`{account="main", symbol="`+symbol+`"}`] = v[i]
		}
	}
	for _, base := range []string{"BTC", "ETH", "LTC", "WOO"} {
		want[`woox_instrument_trading{symbol="SPOT_`+base+`_USDT"}`] = 1
		want[`woox_instrument_trading{symbol="PERP_`+base+`_USDT"}`] = 1
	}
	for symbol, v := range map[string][5]float64{
		// estimated and last rate, next funding (s), mark and index price
		"PERP_BTC_USDT": {0.0001, 0.00008, 1796083200, 65000, 64990.1},
		"PERP_ETH_USDT": {-0.00002, 0.00001, 1796083200, 3000, 2999.5},
		"PERP_LTC_USDT": {0.0001, 0.0001, 1796083200, 96.83793449, 96.8},
	} {
		for i, family := range []string{"est_funding_rate", "last_funding_rate", "next_funding_timestamp_seconds", "mark_price", "index_price"} {
			want[`woox_futures_`+family+`{symbol="`+symbol+`"}`] = v[i]
		}
	}
	for series, v := range want {
		if got := value(t, samples, series); got != v {
			t.Errorf("%s = %v, want %v", series, got, v)
		}
	}
	var exported []string
	for series := range samples {
		for _, prefix := range []string{"woox_symbol_", "woox_instrument_", "woox_futures_"} {
			if strings.HasPrefix(series, prefix) {
				exported = append(exported, series)
			}
		}
	}
	if n := 3*3 + 8 + 3*5; len(exported) != n {
		t.Errorf("%d venue series, want the %d above:\n%s", len(exported), n, strings.Join(exported, "\n"))
	}
}
