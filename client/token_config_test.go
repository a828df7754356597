package client_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-kit/log"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// The token config through the fake: two tokens, and the row the client
// rejects when the fake breaks one (TestTheFakesUnreadableRowsAreRejectedAlone).
var _ = addListEndpoint(endpoint.TokenConfig, listEndpoint{
	fill: func(s *fakeexchange.Scenario) {
		s.Accounts[0].TokenConfig = []fakeexchange.TokenConfig{
			fakeexchange.TokenConfigRow("BTC", "0.85", true), fakeexchange.TokenConfigRow("WOO", "0.6", false)}
	},
	read: func(ctx context.Context, c *client.Client) (any, []client.RejectedRow, error) {
		return c.TokenConfigs(ctx)
	},
	unreadable: client.RejectedRow{Field: "token"},
})

func flagPtr(b bool) *bool { return &b }

// sameTokenConfig compares every field; decimals by value, nil only with nil.
func sameTokenConfig(got, want client.TokenConfig) bool {
	for _, d := range [][2]*decimal.Decimal{
		{got.MarginFactor, want.MarginFactor}, {got.MarginMaxLeverage, want.MarginMaxLeverage},
		{got.MarginMaxPosition, want.MarginMaxPosition},
	} {
		if !sameDecimal(d[0], d[1]) {
			return false
		}
	}
	sameFlag := (got.CanShort == nil) == (want.CanShort == nil) && (got.CanShort == nil || *got.CanShort == *want.CanShort)
	return got.Token == want.Token && got.CollateralRatio.Equal(want.CollateralRatio) && got.Collateral == want.Collateral &&
		got.CanCollateral == want.CanCollateral && sameFlag
}

func checkTokenConfigs(t *testing.T, got, want []client.TokenConfig) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d rows: %+v", len(got), got)
	}
	for i := range want {
		if !sameTokenConfig(got[i], want[i]) {
			t.Errorf("row %d: got %+v,\nwant %+v", i, got[i], want[i])
		}
	}
}

// docsTokenConfig is the rows of docs_token_config.json, written by hand
// from the file.
func docsTokenConfig() []client.TokenConfig {
	row := func(token, ratio, factor string, on bool, leverage string) client.TokenConfig {
		return client.TokenConfig{Token: token, CollateralRatio: *dec(ratio), Collateral: on, CanCollateral: on, CanShort: flagPtr(on),
			MarginFactor: dec(factor), MarginMaxLeverage: dec(leverage), MarginMaxPosition: dec("100000000000")}
	}
	return []client.TokenConfig{
		row("BTC", "0.85", "0.00000023", true, "10"), row("ETH", "0.85", "0.00000025", true, "10"),
		row("WOO", "0.6", "0.00000025", false, "5"),
	}
}

func TestDocsTokenConfig(t *testing.T) {
	for _, file := range forms("docs_token_config") {
		t.Run(file, func(t *testing.T) {
			got, rejected, err := captureClient(t, endpoint.PathOf(endpoint.TokenConfig), file).TokenConfigs(context.Background())
			if err != nil || len(rejected) != 0 {
				t.Fatal(err, rejected)
			}
			checkTokenConfigs(t, got, docsTokenConfig())
		})
	}
}

// The token config through the fake, in every reading of the API (flags as
// true/false, 1/0 and strings of either, camelCase and snake_case): the
// demo's rows, a row without the optional fields, and an event that cuts a
// ratio and stops a token counting as collateral.
func TestTokenConfigAgainstTheFake(t *testing.T) {
	eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
		s.Accounts[0].TokenConfig = append(fakeexchange.DefaultScenario().Accounts[0].TokenConfig,
			fakeexchange.TokenConfigRow("SOL", "0.000000000000000001", false))
		h := newHarness(t, s, fakeexchange.WithRateLimit(0, 0))
		c := h.client(t, nil)
		got, rejected, err := c.TokenConfigs(context.Background())
		if err != nil || len(rejected) != 0 {
			t.Fatal(err, rejected)
		}
		docs := docsTokenConfig()
		usdt := client.TokenConfig{Token: "USDT", CollateralRatio: *dec("1"), Collateral: true, CanCollateral: true, CanShort: flagPtr(true),
			MarginFactor: dec("0"), MarginMaxLeverage: dec("10"), MarginMaxPosition: dec("100000000000")}
		sol := client.TokenConfig{Token: "SOL", CollateralRatio: *dec("0.000000000000000001")}
		want := []client.TokenConfig{docs[0], docs[1], sol, usdt, docs[2]}
		checkTokenConfigs(t, got, want)

		if err := h.fake.Apply(fakeexchange.Event{TokenConfig: &fakeexchange.Change[fakeexchange.TokenConfig]{Account: "main",
			Row: fakeexchange.TokenConfigRow("BTC", "0.5", false), Replace: true}}); err != nil {
			t.Fatal(err)
		}
		got, _, err = c.TokenConfigs(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		want[0] = client.TokenConfig{Token: "BTC", CollateralRatio: *dec("0.5")}
		checkTokenConfigs(t, got, want)
	})
}

// An answer that cannot be read as a whole fails; a row that cannot be
// read is rejected (TestDecodeTokenConfigRejectsOddRows).
func TestTokenConfigErrors(t *testing.T) {
	row := `"token":"BTC","collateralRatio":"0.85","collateral":true,"canCollateral":true`
	for body, want := range map[string]string{
		`{"success":true,"data":{}}`:                                     "answer has no rows",
		`{"success":true,"data":{"rows":[{` + row + `},{` + row + `}]}}`: "token config: token BTC listed twice",
		`{"success":true,"data":{"rows":{"token":"BTC"}}}`:               "rows",
		`{"success":true,"data":{"rows":[],"meta":{"total":"x"}}}`:       "meta",
		`{"success":true,"data":[]}`:                                     "token config",
	} {
		_, _, err := bodyClient(t, endpoint.PathOf(endpoint.TokenConfig), []byte(body)).TokenConfigs(context.Background())
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s:\nerror %v, want it to contain %q", body, err, want)
		}
	}
	got, _, err := bodyClient(t, endpoint.PathOf(endpoint.TokenConfig), []byte(`{"success":true,"data":{"rows":[]}}`)).TokenConfigs(context.Background())
	if err != nil || len(got) != 0 {
		t.Errorf("an empty list is an account without token config: %v, %v", got, err)
	}
}

// The first request sends no parameter; an answer whose meta counts more
// rows is followed by page=2, 3, ... until the total is read, and a page
// that repeats the last ends the list.
func TestTokenConfigFollowsMeta(t *testing.T) {
	row := func(token string) string {
		return fmt.Sprintf(`{"token":"%s","collateral_ratio":0.5,"collateral":"1","can_collateral":"0"}`, token)
	}
	for name, tc := range map[string]struct {
		pages      []string
		meta       string
		wantTokens string
		wantAsked  string
	}{
		"no meta":           {[]string{row("A")}, "", "A", ""},
		"meta, two pages":   {[]string{row("A"), row("B")}, `,"meta":{"total":2,"records_per_page":1,"current_page":1}`, "A B", " page=2"},
		"meta, total met":   {[]string{row("A") + "," + row("B")}, `,"meta":{"total":2}`, "A B", ""},
		"meta, page repeat": {[]string{row("A")}, `,"meta":{"total":5}`, "A", " page=2"},
	} {
		t.Run(name, func(t *testing.T) {
			var asked []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				asked = append(asked, r.URL.RawQuery)
				p := 0
				if q := r.URL.Query().Get("page"); q != "" {
					_, _ = fmt.Sscan(q, &p)
					p--
				}
				p = min(max(p, 0), len(tc.pages)-1)
				fmt.Fprintf(w, `{"success":true,"data":{"rows":[%s]%s},"timestamp":1721351502594}`, tc.pages[p], tc.meta)
			}))
			t.Cleanup(srv.Close)
			c, err := client.New(client.Config{BaseURL: srv.URL, Account: "main", APIKey: "k", APISecret: "S", MaxRetries: -1,
				Metrics: client.NewMetrics(prometheus.NewRegistry()), Logger: log.NewNopLogger()})
			if err != nil {
				t.Fatal(err)
			}
			got, rejected, err := c.TokenConfigs(context.Background())
			if err != nil || len(rejected) != 0 {
				t.Fatal(err, rejected)
			}
			var tokens []string
			for _, r := range got {
				if !r.Collateral || r.CanCollateral || !r.CollateralRatio.Equal(*dec("0.5")) {
					t.Errorf("row %+v", r)
				}
				tokens = append(tokens, r.Token)
			}
			if strings.Join(tokens, " ") != tc.wantTokens || strings.Join(asked, " ") != tc.wantAsked {
				t.Errorf("tokens %q asked %q, want %q asked %q", tokens, asked, tc.wantTokens, tc.wantAsked)
			}
		})
	}
}
