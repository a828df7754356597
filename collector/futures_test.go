package collector

import (
	"context"
	"testing"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

// Odd bytes in every label (TestInvalidUTF8AndOddLabelValuesDoNotBreakTheScrape).
var _ = addOddAnswer(endpoint.Futures, oddAnswer{path: endpoint.PathOf(endpoint.Futures), family: "woox_futures_mark_price",
	body: `{"success":true,"data":{"rows":[` +
		`{"symbol":"PERP_B\xffTC_USDT","markPrice":"65000","indexPrice":null},` +
		`{"symbol":"` + oddLong + `","markPrice":1,"estFundingRate":"0.0001"},` +
		`{"symbol":"PERP_E\xc3\x28TH_USDT","mark_price":"3000","next_funding_time":"1796083200.000"}` +
		`]},"timestamp":1700000000000}`})

// Each field is a series of its own: one not sent (an index price the real
// exchange sent null) leaves that series out and the rest stands.
func TestFuturesInEveryEncoding(t *testing.T) {
	for name, mode := range encodings {
		t.Run(name, func(t *testing.T) {
			s := &fakeexchange.Scenario{Venue: fakeexchange.Venue{Futures: []fakeexchange.Perpetual{
				{Symbol: "PERP_BTC_USDT", IndexPrice: "64990.1", MarkPrice: "65000", EstFundingRate: "0.0001", LastFundingRate: "0.00008",
					NextFundingTime: 1796083200000, OpenInterest: "1520.5"},
				{Symbol: "PERP_ETH_USDT", MarkPrice: "3000", EstFundingRate: "-0.00002", LastFundingRate: "0", NextFundingTime: 1796083200000},
			}}}
			mode(s)
			e := onlyPublic(t, newRig(t, s), endpoint.Futures)
			expectMetrics(t, e.byName[endpoint.Futures], "futures.metrics")
		})
	}
}

// A new estimated rate shows with the next poll.
func TestFuturesRateChange(t *testing.T) {
	r := newRig(t, &fakeexchange.Scenario{Venue: fakeexchange.Venue{Futures: []fakeexchange.Perpetual{
		{Symbol: "PERP_BTC_USDT", IndexPrice: "64990.1", MarkPrice: "65000", EstFundingRate: "0.0001", LastFundingRate: "0.00008",
			NextFundingTime: 1796083200000, OpenInterest: "1520.5"},
		{Symbol: "PERP_ETH_USDT", MarkPrice: "3000", EstFundingRate: "-0.00002", LastFundingRate: "0", NextFundingTime: 1796083200000},
	}}})
	e := onlyPublic(t, r, endpoint.Futures)
	if err := r.fake.Apply(fakeexchange.Event{Futures: &fakeexchange.Change[fakeexchange.Perpetual]{
		Row: fakeexchange.Perpetual{Symbol: "PERP_BTC_USDT", EstFundingRate: "0.003", NextFundingTime: 1796112000000}}}); err != nil {
		t.Fatal(err)
	}
	e.pollers[0].pollOnce(context.Background())
	if st := e.pollers[0].lastStatus(); !st.success {
		t.Fatal("futures poll failed")
	}
	expectMetrics(t, e.byName[endpoint.Futures], "futures_changed.metrics")
}
