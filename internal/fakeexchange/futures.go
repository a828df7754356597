package fakeexchange

import (
	"strconv"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

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
}

// Perpetual is one perpetual's funding and prices. Decimals are exact text;
// an empty one is left out of the answer, as a field the exchange does not
// send (a null index price has been seen in a real answer).
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
