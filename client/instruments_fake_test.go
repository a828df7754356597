package client_test

import (
	"context"
	"strings"
	"testing"

	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// The instruments through the fake: a symbol trading and one suspended, and
// the row the client rejects when the fake breaks one
// (TestTheFakesUnreadableRowsAreRejectedAlone).
var _ = addListEndpoint(endpoint.Instruments, listEndpoint{
	fill: func(s *fakeexchange.Scenario) {
		s.Instruments = []fakeexchange.Instrument{{Symbol: "PERP_BTC_USDT", Status: "TRADING"}, {Symbol: "PERP_WOO_USDT", Status: "SUSPENDED"}}
	},
	read: func(ctx context.Context, c *client.Client) (any, []client.RejectedRow, error) {
		return c.Instruments(ctx)
	},
	unreadable: client.RejectedRow{ID: "symbol SPOT_UNREADABLE1_USDT", Field: "status"},
})

// instrumentStates is each symbol and whether it trades, in order.
func instrumentStates(rows []client.Instrument) string {
	var out []string
	for _, i := range rows {
		s := i.Symbol + " " + i.Status
		if i.Trading() {
			s += " trading"
		}
		out = append(out, s)
	}
	return strings.Join(out, ", ")
}

func TestDocsInstruments(t *testing.T) {
	for _, file := range forms("docs_instruments") {
		t.Run(file, func(t *testing.T) {
			got, rejected, err := captureClient(t, endpoint.PathOf(endpoint.Instruments), file).Instruments(context.Background())
			if err != nil || len(rejected) != 0 {
				t.Fatal(err, rejected)
			}
			if s, want := instrumentStates(got), "SPOT_BTC_USDT TRADING trading, PERP_BTC_USDT TRADING trading, PERP_WOO_USDT SUSPENDED"; s != want {
				t.Errorf("got %s\nwant %s", s, want)
			}
		})
	}
}

// In every reading of the fake: the rows in symbol order, a suspension, a
// resumption and a delisting with the next request.
func TestInstrumentsAgainstTheFake(t *testing.T) {
	eachFakeMode(t, func(t *testing.T, s *fakeexchange.Scenario) {
		s.Instruments = []fakeexchange.Instrument{
			{Symbol: "SPOT_BTC_USDT", Status: "TRADING", BaseMin: "0.00001", QuoteTick: "0.1", MinNotional: "1", OrderMode: "NORMAL"},
			{Symbol: "PERP_BTC_USDT", Status: "TRADING", FundingIntervalHours: 8},
			{Symbol: "PERP_WOO_USDT", Status: "TESTING"},
		}
		h := newHarness(t, s)
		c := h.client(t, nil)
		read := func(want string) {
			t.Helper()
			got, rejected, err := c.Instruments(context.Background())
			if err != nil || len(rejected) != 0 {
				t.Fatal(err, rejected)
			}
			if s := instrumentStates(got); s != want {
				t.Errorf("got %s\nwant %s", s, want)
			}
		}
		read("PERP_BTC_USDT TRADING trading, PERP_WOO_USDT TESTING, SPOT_BTC_USDT TRADING trading")
		for _, ch := range []fakeexchange.Change[fakeexchange.Instrument]{
			{Row: fakeexchange.Instrument{Symbol: "PERP_BTC_USDT", Status: "SUSPENDED"}},
			{Row: fakeexchange.Instrument{Symbol: "PERP_WOO_USDT", Status: "TRADING"}},
			{Row: fakeexchange.Instrument{Symbol: "SPOT_BTC_USDT"}, Remove: true},
		} {
			if err := h.fake.Apply(fakeexchange.Event{Instrument: &ch}); err != nil {
				t.Fatal(err)
			}
		}
		read("PERP_BTC_USDT SUSPENDED, PERP_WOO_USDT TRADING trading")
	})
}

// An answer that cannot be read as a whole fails; an empty list is read.
func TestInstrumentsErrors(t *testing.T) {
	row := `{"symbol":"PERP_BTC_USDT","status":"TRADING"}`
	for body, want := range map[string]string{
		`{"success":true,"data":{}}`:                                 "answer has no rows",
		`{"success":true,"data":{"rows":[` + row + `,` + row + `]}}`: "instruments: symbol PERP_BTC_USDT listed twice",
		`{"success":true,"data":{"rows":{"symbol":"X"}}}`:            "rows",
		`{"success":true,"data":[]}`:                                 "instruments",
	} {
		_, _, err := bodyClient(t, endpoint.PathOf(endpoint.Instruments), []byte(body)).Instruments(context.Background())
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s:\nerror %v, want it to contain %q", body, err, want)
		}
	}
	got, _, err := bodyClient(t, endpoint.PathOf(endpoint.Instruments), []byte(`{"success":true,"data":{"rows":[]}}`)).Instruments(context.Background())
	if err != nil || len(got) != 0 {
		t.Errorf("an empty list: %v, %v", got, err)
	}
}
