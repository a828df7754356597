package fakeexchange

import (
	"strconv"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

func init() { addRoute(endpoint.Instruments, instruments.route()) }

// instruments answer data.rows in symbol order. An event sets a symbol's
// status (a suspension, trading resumed), lists a new one, or with remove
// delists one; the unreadable row has no status.
var instruments = &rowsEndpoint[Instrument]{name: endpoint.Instruments, section: "instruments", event: "instrument",
	under: "rows", sorted: true, change: patch,
	scenario: func(s *Scenario, _ Account) []Instrument { return s.Instruments },
	unreadable: func(e *Exchange, i int) any {
		return e.render(Instrument{Symbol: "SPOT_UNREADABLE" + strconv.Itoa(i+1) + "_USDT", BaseTick: "1"})
	},
}

// Instrument is one symbol the exchange lists. Limits are exact text, left
// out when empty.
type Instrument struct {
	Symbol string `yaml:"symbol" wire:"symbol,key"`
	// Status is TRADING, SUSPENDED or TESTING as documented, or any other
	// value, which clients must read as not trading.
	Status      string `yaml:"status" wire:"status"`
	BaseMin     string `yaml:"base_min" wire:"baseMin,decimal"`
	BaseTick    string `yaml:"base_tick" wire:"baseTick,decimal"`
	QuoteTick   string `yaml:"quote_tick" wire:"quoteTick,decimal"`
	MinNotional string `yaml:"min_notional" wire:"minNotional,decimal"`
	OrderMode   string `yaml:"order_mode" wire:"orderMode"`
	// FundingIntervalHours is sent for perpetuals only.
	FundingIntervalHours int64 `yaml:"funding_interval_hours" wire:"fundingIntervalHours,integer"`
}
