package fakeexchange

import (
	"strconv"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// EndpointFutures is the endpoint's name in the endpoint table (endpoint.All).
const EndpointFutures = endpoint.Futures

// PathFutures is the endpoint's path in the endpoint table.
var PathFutures = endpoint.PathOf(endpoint.Futures)

func init() { addRoute(endpoint.Futures, perpetuals.route()) }

// perpetuals answer data.rows in symbol order. An event changes a
// perpetual's fields (a new estimated rate), lists one or removes one; the
// unreadable row's mark price is not a number.
var perpetuals = &rowsEndpoint[Perpetual]{name: endpoint.Futures, section: "futures", event: "futures",
	under: "rows", sorted: true, change: patch,
	scenario: func(s *Scenario, _ Account) []Perpetual { return s.Futures },
	unreadable: func(e *Exchange, i int) any {
		return e.with(e.render(Perpetual{Symbol: "PERP_UNREADABLE" + strconv.Itoa(i+1) + "_USDT"}), "markPrice", "not a price")
	},
	demo: func(s *Scenario) { s.Futures = demoPerpetuals() },
}

// Perpetual is one perpetual's funding and prices. Decimals are exact text;
// an empty one is left out of the answer, as a field the exchange does not
// send (a null index price has been seen live).
type Perpetual struct {
	Symbol          string `yaml:"symbol" wire:"symbol,key"`
	IndexPrice      string `yaml:"index_price" wire:"indexPrice,decimal"`
	MarkPrice       string `yaml:"mark_price" wire:"markPrice,decimal"`
	EstFundingRate  string `yaml:"est_funding_rate" wire:"estFundingRate,decimal"`
	LastFundingRate string `yaml:"last_funding_rate" wire:"lastFundingRate,decimal"`
	// NextFundingTime is in Unix milliseconds.
	NextFundingTime int64  `yaml:"next_funding_time" wire:"nextFundingTime,integer"`
	OpenInterest    string `yaml:"open_interest" wire:"openInterest,decimal"`
}

// demoPerpetuals are the demo positions' perpetuals, funding due at a fixed
// time.
func demoPerpetuals() []Perpetual {
	return []Perpetual{
		{Symbol: "PERP_BTC_USDT", IndexPrice: "64990.1", MarkPrice: "65000", EstFundingRate: "0.0001", LastFundingRate: "0.00008", NextFundingTime: 1796083200000, OpenInterest: "1520.5"},
		{Symbol: "PERP_ETH_USDT", IndexPrice: "2999.5", MarkPrice: "3000", EstFundingRate: "-0.00002", LastFundingRate: "0.00001", NextFundingTime: 1796083200000, OpenInterest: "20480"},
		{Symbol: "PERP_LTC_USDT", IndexPrice: "96.8", MarkPrice: "96.83793449", EstFundingRate: "0.0001", LastFundingRate: "0.0001", NextFundingTime: 1796083200000, OpenInterest: "3100"},
	}
}
