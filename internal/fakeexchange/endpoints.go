package fakeexchange

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// route is how the fake serves one endpoint of the endpoint table and takes
// its share of the scenario; ServeHTTP, validation, New and Apply loop over
// the routes. A func left nil is a share the endpoint does not have.
type route struct {
	endpoint.Endpoint
	// last runs the route's checks, seeds and event actions after every
	// other's: an event's history moves a balance its balance action set.
	last bool
	// serve answers a request of account ("" for a public endpoint).
	serve func(e *Exchange, account, rawQuery string) (any, *apiError)
	// validate, validateAccount and validateEvent check its sections of
	// the scenario, of an account and of an event, naming fields from there.
	validate        func(s *Scenario) error
	validateAccount func(s *Scenario, a Account) error
	validateEvent   func(s *Scenario, ev Event, accounts map[string]bool) error
	// seed and seedAccount copy its validated sections into a new exchange
	// and a new account; created is the server time of New.
	seed        func(e *Exchange, s *Scenario)
	seedAccount func(e *Exchange, st *accountState, a Account, created time.Time)
	apply       func(e *Exchange, ev Event) error
	// unreadable builds its i-th row no client can read (UnreadableRows).
	unreadable func(e *Exchange, i int) any
}

// routes are every endpoint the fake serves, in the table's order but for
// those marked last; each endpoint's file adds its own at init (addRoute),
// so that its serve func can find its route.
var routes []route

// addRoute adds the route of the table's endpoint called name.
func addRoute(name string, r route) {
	ep, ok := endpoint.Of(name)
	if !ok {
		panic("fakeexchange: no endpoint " + name + " in the endpoint table")
	}
	if _, twice := routeOf(name); twice {
		panic("fakeexchange: two routes of endpoint " + name)
	}
	r.Endpoint = ep
	routes = append(routes, r)
	order := func(r route) int {
		i := slices.IndexFunc(endpoint.All, func(ep endpoint.Endpoint) bool { return ep.Name == r.Name })
		if r.last {
			i += len(endpoint.All)
		}
		return i
	}
	slices.SortFunc(routes, func(a, b route) int { return cmp.Compare(order(a), order(b)) })
}

// routeOf finds the route of the endpoint called, or served at, key.
func routeOf(key string) (route, bool) {
	i := slices.IndexFunc(routes, func(r route) bool { return r.Name == key || r.Path == key })
	if i < 0 {
		return route{}, false
	}
	return routes[i], true
}

// Account is one exchange account (main or sub-account), whose keys share
// one rate-limit budget; beyond its names and keys, its fields are the
// endpoints' sections, each read by its endpoint's file.
type Account struct {
	// Name is the account's in the fake's API; AccountName the exchange's.
	Name             string            `yaml:"name"`
	AccountName      string            `yaml:"account_name"`
	UserID           int64             `yaml:"user_id"`
	Keys             []Key             `yaml:"keys"`
	History          []HistoryEntry    `yaml:"history"`
	HistoryGenerator *HistoryGenerator `yaml:"history_generator"`
	// AccountInfo nil serves a spot account far from any margin call.
	AccountInfo *AccountInfo `yaml:"account_info"`
	Balances    []Balance    `yaml:"balances"`
	Transfers   []Transfer   `yaml:"transfers"`
	SubAccounts []SubAccount `yaml:"sub_accounts"`
	Positions   []Position   `yaml:"positions"`
	// AccountTransfers are transfers to and from the owner's other accounts.
	AccountTransfers []AccountTransfer `yaml:"account_transfers"`
	TokenConfig      []TokenConfig     `yaml:"token_config"`
	FundingFees      []FundingFee      `yaml:"funding_fees"`
	SymbolConfig     []SymbolConfig    `yaml:"symbol_config"`
	Orders           []Order           `yaml:"orders"`
	AlgoOrders       []AlgoOrder       `yaml:"algo_orders"`
	// IsSubAccount makes the sub-accounts endpoint refuse its keys (-1002).
	IsSubAccount bool `yaml:"is_sub_account"`
}

// Venue is a scenario's public market lists: the instruments endpoint's
// symbols and the futures endpoint's perpetuals.
type Venue struct {
	Instruments []Instrument `yaml:"instruments"`
	Futures     []Perpetual  `yaml:"futures"`
}

// Event is the one way to change an endpoint's data after New: applied
// After the exchange's Start when a scenario holds it, at once by Apply. Its
// actions apply in order: ClearFaults, Fault, UnreadableRows, then each
// endpoint's.
type Event struct {
	After       time.Duration `yaml:"after"`
	ClearFaults bool          `yaml:"clear_faults"`
	Fault       *Fault        `yaml:"fault"`
	// UnreadableRows sets Scenario.UnreadableRows of the endpoints it names.
	UnreadableRows *map[string]int `yaml:"unreadable_rows"`

	// The account of a public endpoint's change is not used.
	TokenNetwork *Change[TokenNetworkRow] `yaml:"token_network"`
	SystemStatus *Change[SystemStatus]    `yaml:"system_status"`
	// Key adds an account's API key, changes it or revokes it.
	Key *Change[Key] `yaml:"key"`
	// Credentials makes the credentials endpoint list its Rows (All) instead
	// of the account's keys, which still sign: a list clients must not trust
	// blindly. Remove lists the keys again.
	Credentials *Change[Key]         `yaml:"credentials"`
	AccountInfo *Change[AccountInfo] `yaml:"account_info"`
	Balance     *Change[Balance]     `yaml:"balance"`
	// UnrecordedBalanceMove moves a balance with no history record.
	UnrecordedBalanceMove *BalanceMoveEvent        `yaml:"unrecorded_balance_move"`
	Transfer              *Change[Transfer]        `yaml:"transfer"`
	AddSubAccount         *Change[SubAccount]      `yaml:"add_sub_account"`
	Position              *Change[Position]        `yaml:"position"`
	AccountTransfer       *Change[AccountTransfer] `yaml:"account_transfer"`
	TokenConfig           *Change[TokenConfig]     `yaml:"token_config"`
	FundingFee            *Change[FundingFee]      `yaml:"funding_fee"`
	// Instrument sets a symbol's status, lists one or (remove) delists it.
	Instrument   *Change[Instrument]   `yaml:"instrument"`
	Futures      *Change[Perpetual]    `yaml:"futures"`
	SymbolConfig *Change[SymbolConfig] `yaml:"symbol_config"`
	Order        *Change[Order]        `yaml:"order"`
	AlgoOrder    *Change[AlgoOrder]    `yaml:"algo_order"`
	History      *HistoryEvent         `yaml:"history"`
}

// Change is an event's action on an endpoint's rows: Row changes the row of
// its key as the endpoint's file says (a new key adds it), with Replace
// replaces it whole (its walks starting anew); Remove drops it. All replaces
// every row by Rows as given, repeats and all, as the exchange may list them.
type Change[R any] struct {
	Account string `yaml:"account"`
	Row     R      `yaml:",inline"`
	Replace bool   `yaml:"replace"`
	Remove  bool   `yaml:"remove"`
	All     bool   `yaml:"all"`
	Rows    []R    `yaml:"rows"`
}

// validateEventAccount checks that an event action names a scenario account,
// then that it is valid (err nil).
func validateEventAccount(field, account string, accounts map[string]bool, err error) error {
	if !accounts[account] {
		return fieldErr(field+".account", "unknown account %q", account)
	}
	if err != nil {
		return fmt.Errorf("%s.%w", field, err)
	}
	return nil
}
