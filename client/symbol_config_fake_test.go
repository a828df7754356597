package client_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// The symbol config through the fake, and the row the client rejects when
// the fake breaks one (TestTheFakesUnreadableRowsAreRejectedAlone).
var _ = addListEndpoint(endpoint.SymbolConfig, listEndpoint{
	fill: func(s *fakeexchange.Scenario) {
		s.Accounts[0].SymbolConfig = []fakeexchange.SymbolConfig{{Symbol: "PERP_BTC_USDT", MaxLeverage: "50"}, {Symbol: "PERP_WOO_USDT", MaxLeverage: "20"}}
	},
	read: func(ctx context.Context, c *client.Client) (any, []client.RejectedRow, error) {
		return c.SymbolConfigs(ctx)
	},
	unreadable: client.RejectedRow{Field: "symbol"},
})

func symbolConfigsText(rows []client.SymbolConfig) string {
	var out []string
	for _, s := range rows {
		out = append(out, fmt.Sprint(s.Symbol, " ", s.MaxLeverage, " ", s.MarginFactor, " ", s.MaxPosition))
	}
	return strings.Join(out, "; ")
}

func TestDocsSymbolConfig(t *testing.T) {
	for _, file := range forms("docs_symbol_config") {
		t.Run(file, func(t *testing.T) {
			got, rejected, err := captureClient(t, endpoint.PathOf(endpoint.SymbolConfig), file).SymbolConfigs(context.Background())
			if err != nil || len(rejected) != 0 {
				t.Fatal(err, rejected)
			}
			want := "PERP_BTC_USDT 50 0.00000023 100000000000; PERP_ETH_USDT 50 0.00000023 100000000000; PERP_WOO_USDT 20 0.00000023 100000000000"
			if s := symbolConfigsText(got); s != want {
				t.Errorf("got  %s\nwant %s", s, want)
			}
		})
	}
}

// In every reading of the fake (margin_factor in snake_case beside
// camelCase, or every field in snake_case; numbers or strings): the docs'
// rows, and a max leverage cut read with the next request. No query
// parameter is sent: the docs give the endpoint none.
func TestSymbolConfigAgainstTheFake(t *testing.T) {
	eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
		s.Accounts[0].SymbolConfig = fakeexchange.DefaultScenario().Accounts[0].SymbolConfig
		h := newHarness(t, s)
		c := h.client(t, nil)
		read := func(want string) {
			t.Helper()
			got, rejected, err := c.SymbolConfigs(context.Background())
			if err != nil || len(rejected) != 0 {
				t.Fatal(err, rejected)
			}
			if s := symbolConfigsText(got); s != want {
				t.Errorf("got  %s\nwant %s", s, want)
			}
		}
		read("PERP_BTC_USDT 50 0.00000023 100000000000; PERP_ETH_USDT 50 0.00000023 100000000000; PERP_WOO_USDT 20 0.00000023 100000000000")
		if err := h.fake.Apply(fakeexchange.Event{SymbolConfig: &fakeexchange.Change[fakeexchange.SymbolConfig]{Account: "main",
			Row: fakeexchange.SymbolConfig{Symbol: "PERP_BTC_USDT", MaxLeverage: "20", MarginFactor: "0.0000005"}}}); err != nil {
			t.Fatal(err)
		}
		read("PERP_BTC_USDT 20 0.0000005 100000000000; PERP_ETH_USDT 50 0.00000023 100000000000; PERP_WOO_USDT 20 0.00000023 100000000000")
		for _, r := range h.fake.Requests() {
			if r.Path == endpoint.PathOf(endpoint.SymbolConfig) && r.RawQuery != "" {
				t.Errorf("query %q sent", r.RawQuery)
			}
		}
	})
}

// An answer that cannot be read as a whole fails.
func TestSymbolConfigErrors(t *testing.T) {
	row := `{"symbol":"PERP_BTC_USDT","maxLeverage":50}`
	for body, want := range map[string]string{
		`{"success":true,"data":{}}`:                                 "answer has no rows",
		`{"success":true,"data":{"rows":[` + row + `,` + row + `]}}`: "symbol config: symbol PERP_BTC_USDT listed twice",
		`{"success":true,"data":[]}`:                                 "symbol config",
	} {
		_, _, err := bodyClient(t, endpoint.PathOf(endpoint.SymbolConfig), []byte(body)).SymbolConfigs(context.Background())
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s:\nerror %v, want it to contain %q", body, err, want)
		}
	}
}
