package fakeexchange

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// EndpointPositions is the endpoint's name in the endpoint table (endpoint.All).
const EndpointPositions = endpoint.Positions

// PathPositions is the endpoint's path in the endpoint table.
var PathPositions = endpoint.PathOf(endpoint.Positions)

func init() {
	addRoute(endpoint.Positions, route{serve: (*Exchange).servePositions,
		validateAccount: func(_ *Scenario, a Account) error { return validatePositions(a.Positions) },
		validateEvent:   validatePositionsEvent,
		seedAccount:     seedPositionsAccount,
		apply:           func(e *Exchange, ev Event) error { return e.applyPositionEvent(ev.Position) },
		unreadable:      (*Exchange).unreadablePosition,
		demo:            func(s *Scenario) { s.account("main").Positions = defaultPositions() },
	})
}

// Position is one futures position, identified by symbol and side. Amounts
// are exact decimal text; an empty one is left out of the answer. The
// exchange keeps listing a closed position with a holding of 0.
type Position struct {
	Symbol string `yaml:"symbol"`
	// PositionSide is BOTH (one-way mode, the default), LONG or SHORT.
	PositionSide string `yaml:"position_side"`
	// MarginMode is CROSS (the default) or ISOLATED.
	MarginMode       string `yaml:"margin_mode"`
	Holding          string `yaml:"holding"`
	PendingLongQty   string `yaml:"pending_long_qty"`
	PendingShortQty  string `yaml:"pending_short_qty"`
	SettlePrice      string `yaml:"settle_price"`
	AverageOpenPrice string `yaml:"average_open_price"`
	Pnl24H           string `yaml:"pnl_24h"`
	Fee24H           string `yaml:"fee_24h"`
	MarkPrice        string `yaml:"mark_price"`
	// EstLiqPrice is "0" for a position the exchange would not liquidate.
	EstLiqPrice          string `yaml:"est_liq_price"`
	AdlQuantile          string `yaml:"adl_quantile"`
	Leverage             string `yaml:"leverage"`
	IsolatedMarginToken  string `yaml:"isolated_margin_token"`
	IsolatedMarginAmount string `yaml:"isolated_margin_amount"`
	// TimestampMs is when the position last changed, in Unix milliseconds;
	// 0 serves the time of the request.
	TimestampMs int64 `yaml:"timestamp_ms"`
	// MarkPriceWalk moves the served mark price towards the estimated
	// liquidation price over time; nil keeps it still.
	MarkPriceWalk *MarkPriceWalk `yaml:"mark_price_walk"`
}

// MarkPriceWalk moves the mark price by Step every Every of server time
// since the exchange's Start (or since SetPosition) towards the estimated
// liquidation price, never past it: a position walking towards liquidation.
type MarkPriceWalk = Walk

// positionState is a position with the time its walk starts; zero walks
// from the exchange's Start.
type positionState struct {
	Position
	walkFrom time.Time
}

// withDefaults fills in the side and margin mode.
func (p Position) withDefaults() Position {
	if p.PositionSide == "" {
		p.PositionSide = "BOTH"
	}
	if p.MarginMode == "" {
		p.MarginMode = "CROSS"
	}
	return p
}

// decimalFields are the decimal fields by name, for validation and patches.
func (p *Position) decimalFields() map[string]*string {
	return map[string]*string{
		"holding": &p.Holding, "pending_long_qty": &p.PendingLongQty, "pending_short_qty": &p.PendingShortQty,
		"settle_price": &p.SettlePrice, "average_open_price": &p.AverageOpenPrice, "pnl_24h": &p.Pnl24H,
		"fee_24h": &p.Fee24H, "mark_price": &p.MarkPrice, "est_liq_price": &p.EstLiqPrice,
		"adl_quantile": &p.AdlQuantile, "leverage": &p.Leverage, "isolated_margin_amount": &p.IsolatedMarginAmount,
	}
}

func (p Position) validate() error {
	if p.Symbol == "" {
		return fieldErr("symbol", "must not be empty")
	}
	if s := p.PositionSide; s != "" && s != "BOTH" && s != "LONG" && s != "SHORT" {
		return fieldErr("position_side", "must be BOTH, LONG or SHORT, not %q", s)
	}
	if m := p.MarginMode; m != "" && m != "CROSS" && m != "ISOLATED" {
		return fieldErr("margin_mode", "must be CROSS or ISOLATED, not %q", m)
	}
	for name, v := range p.decimalFields() {
		if err := validateDecimal(name, *v); err != nil {
			return err
		}
	}
	if w := p.MarkPriceWalk; w != nil {
		if err := w.validate("mark_price_walk"); err != nil {
			return err
		}
		if p.MarkPrice == "" || p.EstLiqPrice == "" {
			return fieldErr("mark_price_walk", "needs mark_price and est_liq_price")
		}
	}
	return nil
}

// PositionEvent opens, changes or removes a position of an account: the
// fields it sets replace the position's (a new one starts from zeros);
// Remove drops the row, as a reading of the API in which closed positions
// are not listed.
type PositionEvent struct {
	Account  string `yaml:"account"`
	Position `yaml:",inline"`
	Remove   bool `yaml:"remove"`
}

func (ev PositionEvent) validate() error {
	if ev.Remove {
		if ev.Symbol == "" {
			return fieldErr("symbol", "must not be empty")
		}
		return nil
	}
	return ev.Position.validate()
}

// SetPosition adds the position to account, or replaces the one with its
// symbol and side; its mark price walk starts now.
func (e *Exchange) SetPosition(account string, p Position) error {
	if err := p.validate(); err != nil {
		return fmt.Errorf("set position: %w", err)
	}
	return e.withAccount("set position", account, func(a *accountState) error {
		a.setPosition(positionState{Position: p.withDefaults(), walkFrom: e.now()})
		return nil
	})
}

// RemovePosition drops the row of the position with symbol and side (""
// for BOTH) from account, as if the exchange stopped listing it.
func (e *Exchange) RemovePosition(account, symbol, side string) error {
	return e.withAccount("remove position", account, func(a *accountState) error {
		i, found := a.findPosition(Position{Symbol: symbol, PositionSide: side}.withDefaults())
		if !found {
			return fmt.Errorf("remove position: account %q has no position %s %s", account, symbol, side)
		}
		a.positions = slices.Delete(a.positions, i, i+1)
		return nil
	})
}

// applyPositionEvent patches, opens or removes a position; a patched walk
// keeps its start.
func (e *Exchange) applyPositionEvent(ev *PositionEvent) error {
	if ev == nil {
		return nil
	}
	if ev.Remove {
		return e.RemovePosition(ev.Account, ev.Symbol, ev.PositionSide)
	}
	return e.withAccount("position event", ev.Account, func(a *accountState) error {
		p := positionState{Position: ev.withDefaults(), walkFrom: e.now()}
		if i, found := a.findPosition(p.Position); found {
			p = a.positions[i]
			p.patch(ev.Position)
		}
		a.setPosition(p)
		return nil
	})
}

// patch replaces the fields of p that q sets.
func (p *Position) patch(q Position) {
	if q.MarginMode != "" {
		p.MarginMode = q.MarginMode
	}
	if q.IsolatedMarginToken != "" {
		p.IsolatedMarginToken = q.IsolatedMarginToken
	}
	if q.TimestampMs != 0 {
		p.TimestampMs = q.TimestampMs
	}
	patchText(p.decimalFields(), q.decimalFields())
	if q.MarkPriceWalk != nil {
		w := *q.MarkPriceWalk
		p.MarkPriceWalk = &w
	}
}

// comparePositions orders positions by symbol, then side.
func comparePositions(a, b Position) int {
	if c := strings.Compare(a.Symbol, b.Symbol); c != 0 {
		return c
	}
	return strings.Compare(a.PositionSide, b.PositionSide)
}

func (a *accountState) findPosition(p Position) (int, bool) {
	return slices.BinarySearchFunc(a.positions, p, func(x positionState, p Position) int { return comparePositions(x.Position, p) })
}

func (a *accountState) setPosition(p positionState) {
	i, found := a.findPosition(p.Position)
	if found {
		a.positions[i] = p
		return
	}
	a.positions = slices.Insert(a.positions, i, p)
}

// markPrice is the mark price served at now: the walk's steps taken since
// it started (the exchange's Start for a scenario position), stopped at the
// estimated liquidation price.
func (p *positionState) markPrice(now, started time.Time) string {
	from := p.walkFrom
	if from.IsZero() {
		from = started
	}
	return p.MarkPriceWalk.at(p.MarkPrice, p.EstLiqPrice, from, now)
}

// servePositions answers with the fields of the live answer, in its order:
// adlQuantile and leverage JSON numbers, the other decimals strings.
func (e *Exchange) servePositions(account, rawQuery string) (any, *apiError) {
	if _, aerr := parseQuery(rawQuery); aerr != nil {
		return nil, aerr
	}
	now := e.now()
	e.mu.Lock()
	defer e.mu.Unlock()
	a := e.accounts[account]
	n := len(a.positions)
	return object{"positions": e.listRows(EndpointPositions, n, 0, e.listLength(EndpointPositions, n), func(i int) any {
		return e.positionRow(&a.positions[i], now)
	})}, nil
}

// unreadablePosition is a position row without symbol.
func (e *Exchange) unreadablePosition(i int) any {
	o := e.positionRow(&positionState{Position: Position{PositionSide: "BOTH", MarginMode: "CROSS", Holding: "1",
		TimestampMs: int64(i + 1)}}, e.now())
	delete(o, "symbol")
	return o
}

func (e *Exchange) positionRow(p *positionState, now time.Time) object {
	o := object{"symbol": p.Symbol}
	for _, f := range []struct{ name, text string }{
		{"holding", p.Holding}, {"pendingLongQty", p.PendingLongQty}, {"pendingShortQty", p.PendingShortQty},
		{"settlePrice", p.SettlePrice}, {"averageOpenPrice", p.AverageOpenPrice}, {"pnl24H", p.Pnl24H},
		{"fee24H", p.Fee24H}, {"markPrice", p.markPrice(now, e.started)}, {"estLiqPrice", p.EstLiqPrice},
	} {
		e.set(o, f.name, e.decimalField(f.text))
	}
	ts := p.TimestampMs
	if ts == 0 {
		ts = now.UnixMilli()
	}
	e.set(o, "timestamp", e.integer(ts))
	e.set(o, "adlQuantile", e.numberField(p.AdlQuantile))
	e.set(o, "positionSide", p.PositionSide)
	e.set(o, "marginMode", p.MarginMode)
	e.setAlways(o, "isolatedMarginToken", p.IsolatedMarginToken)
	for _, f := range []struct{ name, text string }{
		{"isolatedMarginAmount", p.IsolatedMarginAmount}, {"isolatedFrozenLong", "0"}, {"isolatedFrozenShort", "0"},
	} {
		e.set(o, f.name, e.decimalField(f.text))
	}
	e.set(o, "leverage", e.numberField(p.Leverage))
	return o
}

// validatePositions checks a scenario account's positions: each valid, and
// no symbol and side twice.
func validatePositions(ps []Position) error {
	seen := map[[2]string]bool{}
	for i, p := range ps {
		if err := p.validate(); err != nil {
			return fmt.Errorf("positions[%d].%w", i, err)
		}
		p = p.withDefaults()
		key := [2]string{p.Symbol, p.PositionSide}
		if seen[key] {
			return fieldErr(fmt.Sprintf("positions[%d]", i), "duplicate symbol %s side %s", p.Symbol, p.PositionSide)
		}
		seen[key] = true
	}
	return nil
}

func validatePositionsEvent(_ *Scenario, ev Event, accounts map[string]bool) error {
	if p := ev.Position; p != nil {
		return validateEventAccount("position", p.Account, accounts, p.validate())
	}
	return nil
}

// seedPositionsAccount stores the account's positions; their walks start
// with the exchange.
func seedPositionsAccount(_ *Exchange, st *accountState, a Account, _ time.Time) error {
	for _, p := range a.Positions {
		st.setPosition(positionState{Position: p.withDefaults()})
	}
	return nil
}

// CapturedPosition is the position of the live answer captured in
// client/testdata/captures/futures_positions.json: a one-way, cross-margin
// long without a liquidation price.
func CapturedPosition() Position {
	return Position{Symbol: "PERP_LTC_USDT", PositionSide: "BOTH", MarginMode: "CROSS", Holding: "0.1",
		PendingLongQty: "0", PendingShortQty: "0", SettlePrice: "96.87", AverageOpenPrice: "96.87", Pnl24H: "0",
		Fee24H: "0.0048435", MarkPrice: "96.83793449", EstLiqPrice: "0", TimestampMs: 1752500555823, AdlQuantile: "2",
		IsolatedMarginToken: "", IsolatedMarginAmount: "0", Leverage: "10"}
}

// defaultPositions are the captured position (no liquidation price), an
// isolated short 20 % from its liquidation price, and a closed position the
// exchange still lists.
func defaultPositions() []Position {
	return []Position{
		CapturedPosition(),
		{Symbol: "PERP_BTC_USDT", PositionSide: "BOTH", MarginMode: "ISOLATED", Holding: "-0.02", PendingLongQty: "0",
			PendingShortQty: "0", SettlePrice: "64000", AverageOpenPrice: "64000", Pnl24H: "-12.5", Fee24H: "0.768",
			MarkPrice: "65000", EstLiqPrice: "78000", AdlQuantile: "1", Leverage: "5",
			IsolatedMarginToken: "USDT", IsolatedMarginAmount: "260"},
		{Symbol: "PERP_ETH_USDT", PositionSide: "BOTH", MarginMode: "CROSS", Holding: "0", PendingLongQty: "0",
			PendingShortQty: "0", SettlePrice: "0", AverageOpenPrice: "0", Pnl24H: "4.2", Fee24H: "0.9",
			MarkPrice: "3000", EstLiqPrice: "0", AdlQuantile: "0", Leverage: "10", IsolatedMarginAmount: "0"},
	}
}
