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

// The perpetuals through the fake, and the row the client rejects when the
// fake breaks one (TestTheFakesUnreadableRowsAreRejectedAlone).
var _ = addListEndpoint(endpoint.Futures, listEndpoint{
	fill: func(s *fakeexchange.Scenario) {
		s.Futures = []fakeexchange.Perpetual{{Symbol: "PERP_BTC_USDT", MarkPrice: "65000", EstFundingRate: "0.0001"}, {Symbol: "PERP_ETH_USDT", MarkPrice: "3000"}}
	},
	read: func(ctx context.Context, c *client.Client) (any, []client.RejectedRow, error) {
		return c.Perpetuals(ctx)
	},
	unreadable: client.RejectedRow{ID: "symbol PERP_UNREADABLE1_USDT", Field: "markPrice"},
})

// perpetualText is a perpetual's fields as text, "-" for one not sent.
func perpetualText(p client.Perpetual) string {
	s := p.Symbol
	for _, d := range []fmt.Stringer{p.EstFundingRate, p.LastFundingRate, p.MarkPrice, p.IndexPrice} {
		if d == nil || fmt.Sprint(d) == "<nil>" {
			s += " -"
			continue
		}
		s += " " + d.String()
	}
	return fmt.Sprintf("%s %d", s, p.NextFundingTimeMs)
}

func perpetualsText(rows []client.Perpetual) string {
	var out []string
	for _, p := range rows {
		out = append(out, perpetualText(p))
	}
	return strings.Join(out, "; ")
}

// The null index price of the second row leaves that field out alone.
func TestDocsFutures(t *testing.T) {
	for _, file := range forms("docs_futures") {
		t.Run(file, func(t *testing.T) {
			got, rejected, err := captureClient(t, endpoint.PathOf(endpoint.Futures), file).Perpetuals(context.Background())
			if err != nil || len(rejected) != 0 {
				t.Fatal(err, rejected)
			}
			want := "PERP_BTC_USDT 0.00008 0.0001 65000.5 64990.12 1721376000000; PERP_ETH_USDT -0.00002 0.00001 3000.1 - 1721376000000"
			if s := perpetualsText(got); s != want {
				t.Errorf("got  %s\nwant %s", s, want)
			}
		})
	}
}

// In every reading of the fake: a field not sent is nil, and a new rate is
// read with the next request.
func TestFuturesAgainstTheFake(t *testing.T) {
	eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
		s.Futures = []fakeexchange.Perpetual{
			{Symbol: "PERP_BTC_USDT", IndexPrice: "64990.1", MarkPrice: "65000", EstFundingRate: "0.0001", LastFundingRate: "0.00008", NextFundingTime: 1796083200000, OpenInterest: "1520.5"},
			{Symbol: "PERP_ETH_USDT", MarkPrice: "3000", EstFundingRate: "-0.00002"},
		}
		h := newHarness(t, s)
		c := h.client(t, nil)
		read := func(want string) {
			t.Helper()
			got, rejected, err := c.Perpetuals(context.Background())
			if err != nil || len(rejected) != 0 {
				t.Fatal(err, rejected)
			}
			if s := perpetualsText(got); s != want {
				t.Errorf("got  %s\nwant %s", s, want)
			}
		}
		read("PERP_BTC_USDT 0.0001 0.00008 65000 64990.1 1796083200000; PERP_ETH_USDT -0.00002 - 3000 - 0")
		if err := h.fake.Apply(fakeexchange.Event{Futures: &fakeexchange.Change[fakeexchange.Perpetual]{
			Row: fakeexchange.Perpetual{Symbol: "PERP_ETH_USDT", EstFundingRate: "0.002", NextFundingTime: 1796112000000}}}); err != nil {
			t.Fatal(err)
		}
		read("PERP_BTC_USDT 0.0001 0.00008 65000 64990.1 1796083200000; PERP_ETH_USDT 0.002 - 3000 - 1796112000000")
	})
}

// An answer that cannot be read as a whole fails.
func TestFuturesErrors(t *testing.T) {
	row := `{"symbol":"PERP_BTC_USDT","markPrice":"1"}`
	for body, want := range map[string]string{
		`{"success":true,"data":{}}`:                                 "answer has no rows",
		`{"success":true,"data":{"rows":[` + row + `,` + row + `]}}`: "futures: symbol PERP_BTC_USDT listed twice",
		`{"success":true,"data":[]}`:                                 "futures",
	} {
		_, _, err := bodyClient(t, endpoint.PathOf(endpoint.Futures), []byte(body)).Perpetuals(context.Background())
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s:\nerror %v, want it to contain %q", body, err, want)
		}
	}
}
