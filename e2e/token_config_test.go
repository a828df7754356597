package e2e

import (
	"strings"
	"testing"

	"github.com/prometheus/common/model"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// The binary against the fake serving the docs example's rows and USDT, in
// the docs' encoding (flags true/false, maxima JSON numbers) and with every
// number a string (flags "true"/"false"): each token's values exactly, and
// nothing for the sub-account, which lists none.
func TestBinaryExportsTokenConfigExactly(t *testing.T) {
	eachCapturedEncoding(t, func(t *testing.T, url string) {
		p := exportertest.Start(t, []string{"SUB_SECRET=" + fakeexchange.DefaultSubSecret},
			"--woox.api-url="+url, "--config.file="+everyAreaConfig(t))
		p.WaitReady(t)
		checkTokenConfig(t, p.Scrape(t))
		p.Stop(t)
	})
}

func checkTokenConfig(t *testing.T, samples map[string]*model.Sample) {
	t.Helper()
	want := map[string]float64{
		`woox_poll_success{account="main", endpoint="token_config"}`: 1,
		`woox_poll_success{account="sub", endpoint="token_config"}`:  1,
	}
	for token, v := range map[string][7]float64{
		// ratio, collateral, can collateral, can short, margin factor, max leverage, max position
		"BTC":  {0.85, 1, 1, 1, 0.00000023, 10, 1e11},
		"ETH":  {0.85, 1, 1, 1, 0.00000025, 10, 1e11},
		"USDT": {1, 1, 1, 1, 0, 10, 1e11},
		"WOO":  {0.6, 0, 0, 0, 0.00000025, 5, 1e11},
	} {
		labels := `{account="main", token="` + token + `"}`
		for i, family := range []string{"collateral_ratio", "collateral", "can_collateral", "can_short", "margin_factor",
			"margin_max_leverage", "margin_max_position"} {
			want["woox_token_"+family+labels] = v[i]
		}
	}
	for series, v := range want {
		if got := value(t, samples, series); got != v {
			t.Errorf("%s = %v, want %v", series, got, v)
		}
	}
	var exported []string
	for series := range samples {
		for _, family := range []string{"collateral_ratio", "collateral", "can_collateral", "can_short", "margin_factor", "margin_max_"} {
			if strings.HasPrefix(series, "woox_token_"+family) {
				exported = append(exported, series)
				break
			}
		}
	}
	if len(exported) != 4*7 {
		t.Errorf("%d token config series, want the %d above:\n%s", len(exported), 4*7, strings.Join(exported, "\n"))
	}
}
