package fakeexchange

import (
	"cmp"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

func init() { addRoute(endpoint.Positions, positions.route()) }

// positions answer as captured: data.positions in symbol and side order,
// adlQuantile and leverage JSON numbers. The unreadable row has no symbol.
var positions = &rowsEndpoint[Position]{name: endpoint.Positions, section: "positions", event: "position",
	under: "positions", sorted: true, change: patch, defaults: Position.withDefaults,
	scenario: func(_ *Scenario, a Account) []Position { return a.Positions },
	servedAt: func(_ *Exchange, _ *accountState, p Position, since, now time.Time) Position {
		p.MarkPrice = p.MarkPriceWalk.at(p.MarkPrice, p.EstLiqPrice, since, now)
		if p.TimestampMs == 0 {
			p.TimestampMs = now.UnixMilli()
		}
		return p
	},
	unreadable: func(e *Exchange, i int) any {
		return e.render(Position{PositionSide: "BOTH", MarginMode: "CROSS", Holding: "1", TimestampMs: int64(i + 1)})
	},
}

// Position is a futures position, by symbol and side: exact decimal text, empty
// left out. A closed position is listed with a holding of 0.
type Position struct {
	Symbol string `yaml:"symbol" wire:"symbol,key"`
	// PositionSide is BOTH (one-way mode, the default), LONG or SHORT.
	PositionSide string `yaml:"position_side" wire:"positionSide,key"`
	// MarginMode is CROSS (the default) or ISOLATED.
	MarginMode       string `yaml:"margin_mode" wire:"marginMode"`
	Holding          string `yaml:"holding" wire:"holding,decimal"`
	PendingLongQty   string `yaml:"pending_long_qty" wire:"pendingLongQty,decimal"`
	PendingShortQty  string `yaml:"pending_short_qty" wire:"pendingShortQty,decimal"`
	SettlePrice      string `yaml:"settle_price" wire:"settlePrice,decimal"`
	AverageOpenPrice string `yaml:"average_open_price" wire:"averageOpenPrice,decimal"`
	Pnl24H           string `yaml:"pnl_24h" wire:"pnl24H,decimal"`
	Fee24H           string `yaml:"fee_24h" wire:"fee24H,decimal"`
	MarkPrice        string `yaml:"mark_price" wire:"markPrice,decimal"`
	// EstLiqPrice is "0" for a position the exchange would not liquidate.
	EstLiqPrice          string `yaml:"est_liq_price" wire:"estLiqPrice,decimal"`
	AdlQuantile          string `yaml:"adl_quantile" wire:"adlQuantile,number"`
	Leverage             string `yaml:"leverage" wire:"leverage,number"`
	IsolatedMarginToken  string `yaml:"isolated_margin_token" wire:"isolatedMarginToken,always"`
	IsolatedMarginAmount string `yaml:"isolated_margin_amount" wire:"isolatedMarginAmount,decimal"`
	// "0" in every answer seen.
	isolatedFrozenLong  string `wire:"isolatedFrozenLong,decimal"`
	isolatedFrozenShort string `wire:"isolatedFrozenShort,decimal"`
	// TimestampMs is when it last changed (Unix ms); 0 serves the request's
	// time.
	TimestampMs int64 `yaml:"timestamp_ms" wire:"timestamp,integer"`
	// MarkPriceWalk walks MarkPrice towards EstLiqPrice; nil keeps it still.
	MarkPriceWalk *Walk `yaml:"mark_price_walk"`
}

// withDefaults fills in the side, the margin mode and the frozen amounts.
func (p Position) withDefaults() Position {
	if p.PositionSide == "" {
		p.PositionSide = "BOTH"
	}
	if p.MarginMode == "" {
		p.MarginMode = "CROSS"
	}
	p.isolatedFrozenLong, p.isolatedFrozenShort = "0", "0"
	return p
}

func (p Position) check() error {
	s, m := p.PositionSide, p.MarginMode
	return cmp.Or(fieldErrIf(s != "" && s != "BOTH" && s != "LONG" && s != "SHORT", "position_side", "must be BOTH, LONG or SHORT, not %q", s),
		fieldErrIf(m != "" && m != "CROSS" && m != "ISOLATED", "margin_mode", "must be CROSS or ISOLATED, not %q", m),
		p.MarkPriceWalk.validate("mark_price_walk", p.MarkPrice != "" && p.EstLiqPrice != "", "mark_price and est_liq_price"))
}

// CapturedPosition is the position as captured
// (client/testdata/captures/futures_positions.json): a one-way cross long, no
// liquidation price.
func CapturedPosition() Position {
	return Position{Symbol: "PERP_LTC_USDT", PositionSide: "BOTH", MarginMode: "CROSS", Holding: "0.1",
		PendingLongQty: "0", PendingShortQty: "0", SettlePrice: "96.87", AverageOpenPrice: "96.87", Pnl24H: "0",
		Fee24H: "0.0048435", MarkPrice: "96.83793449", EstLiqPrice: "0", TimestampMs: 1752500555823, AdlQuantile: "2",
		IsolatedMarginToken: "", IsolatedMarginAmount: "0", Leverage: "10"}
}
