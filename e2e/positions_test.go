package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/prometheus/common/model"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// The binary against the fake serving the captured position, an isolated
// short and a closed position, in the captured encoding and with every
// number a string: each open position's values exactly, nothing for the
// closed one, no liquidation price where the exchange gives 0.
func TestBinaryExportsPositionsExactly(t *testing.T) {
	eachCapturedEncoding(t, func(t *testing.T, url string) {
		p := exportertest.Start(t, []string{"SUB_SECRET=" + fakeexchange.DefaultSubSecret},
			"--woox.api-url="+url, "--config.file="+everyAreaConfig(t))
		p.WaitReady(t)
		checkPositions(t, p.Scrape(t))
		p.Stop(t)
	})
}

func checkPositions(t *testing.T, samples map[string]*model.Sample) {
	t.Helper()
	ltc := `account="main", margin_mode="CROSS", position_side="BOTH", symbol="PERP_LTC_USDT"`
	btc := `account="main", margin_mode="ISOLATED", position_side="BOTH", symbol="PERP_BTC_USDT"`
	want := map[string]float64{
		// The capture's values.
		"woox_position_holding{" + ltc + "}":            0.1,
		"woox_position_average_open_price{" + ltc + "}": 96.87,
		"woox_position_mark_price{" + ltc + "}":         96.83793449,
		"woox_position_leverage{" + ltc + "}":           10,
		"woox_position_adl_quantile{" + ltc + "}":       2,
		"woox_position_pnl_24h{" + ltc + "}":            0,
		"woox_position_fee_24h{" + ltc + "}":            0.0048435,
		// The default scenario's isolated short.
		"woox_position_holding{" + btc + "}":                      -0.02,
		"woox_position_average_open_price{" + btc + "}":           64000,
		"woox_position_mark_price{" + btc + "}":                   65000,
		"woox_position_estimated_liquidation_price{" + btc + "}":  78000,
		"woox_position_leverage{" + btc + "}":                     5,
		"woox_position_adl_quantile{" + btc + "}":                 1,
		"woox_position_isolated_margin{" + btc + "}":              260,
		"woox_position_pnl_24h{" + btc + "}":                      -12.5,
		"woox_position_fee_24h{" + btc + "}":                      0.768,
		`woox_poll_success{account="main", endpoint="positions"}`: 1,
		`woox_poll_success{account="sub", endpoint="positions"}`:  1,
	}
	for series, v := range want {
		if got := value(t, samples, series); got != v {
			t.Errorf("%s = %v, want %v", series, got, v)
		}
	}
	var positions []string
	for series := range samples {
		if strings.HasPrefix(series, "woox_position_") {
			positions = append(positions, series)
		}
	}
	// The closed PERP_ETH_USDT, the liquidation price 0 and the isolated
	// margin of a cross position export nothing.
	if len(positions) != 16 {
		t.Errorf("%d position series, want the 16 above:\n%s", len(positions), strings.Join(positions, "\n"))
	}
	if _, ok := samples[fmt.Sprintf("woox_position_estimated_liquidation_price{%s}", ltc)]; ok {
		t.Error("a liquidation price of 0 is exported")
	}
}
