package fakeexchange

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// route is how the fake serves one endpoint of the endpoint table, with
// its share of the scenario: ServeHTTP does authentication, rate limits and
// faults alike for every endpoint, and validation, New, the event runner,
// DefaultScenario and the unreadable rows loop over the routes for the
// rest. Each endpoint's file fills in its own; a func left nil is a share
// it does not have.
type route struct {
	// Endpoint is the table's entry: name, path, per account or public
	// (public endpoints need no key and share one per-IP budget).
	endpoint.Endpoint
	// last runs the route's checks, seeds and event actions after every
	// other's: the late_record of an event moves a balance that the
	// event's balance action set.
	last bool
	// serve answers a request of account ("" for a public endpoint) with
	// the envelope's data or an error.
	serve func(e *Exchange, account, rawQuery string) (any, *apiError)

	// validate checks its scenario-wide sections, naming fields from the
	// scenario's top.
	validate func(s *Scenario) error
	// validateAccount checks its sections of a scenario account, naming
	// fields from the account.
	validateAccount func(s *Scenario, a Account) error
	// validateEvent checks its actions of an event, naming fields from the
	// event; accounts are the scenario's account names.
	validateEvent func(s *Scenario, ev Event, accounts map[string]bool) error
	// seed copies its scenario-wide sections into a new exchange.
	seed func(e *Exchange, s *Scenario)
	// seedAccount copies its sections of a scenario account into the new
	// account's state; created is the server time of New.
	seedAccount func(e *Exchange, st *accountState, a Account, created time.Time) error
	// apply applies its actions of an event.
	apply func(e *Exchange, ev Event) error
	// unreadable builds its i-th row that no client can read, served on
	// request (Scenario.UnreadableRows).
	unreadable func(e *Exchange, i int) any
}

// routes are every endpoint the fake serves, in the order of the endpoint
// table but for those marked last, which come after; in this order their
// checks, seeds and event actions run. Each endpoint's file adds its own
// with addRoute, at init: the serve funcs find their unreadable rows here,
// which a package-level initializer could not refer back to.
var routes []route

// addRoute adds the route of the table's endpoint called name.
func addRoute(name string, r route) {
	ep, ok := endpoint.Of(name)
	if !ok {
		panic("fakeexchange: no endpoint " + name + " in the endpoint table")
	}
	if _, twice := routeNamed(name); twice {
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

// routeAt finds the route of the endpoint served at path.
func routeAt(path string) (route, bool) {
	for _, r := range routes {
		if r.Path == path {
			return r, true
		}
	}
	return route{}, false
}

// routeNamed finds the route of the endpoint called name.
func routeNamed(name string) (route, bool) {
	for _, r := range routes {
		if r.Name == name {
			return r, true
		}
	}
	return route{}, false
}

// Account is one exchange account (main or sub-account). All its keys share
// one rate-limit budget and see the same history. Beyond its name and keys,
// its fields are the endpoints' sections, each read by its endpoint's file.
type Account struct {
	// Name identifies the account in the fake's API and request log.
	Name string `yaml:"name"`
	// AccountName is the accountName the credentials endpoint reports.
	AccountName      string            `yaml:"account_name"`
	UserID           int64             `yaml:"user_id"`
	Keys             []Key             `yaml:"keys"`
	History          []HistoryEntry    `yaml:"history"`
	HistoryGenerator *HistoryGenerator `yaml:"history_generator"`
	// AccountInfo is what the account info endpoint reports; nil serves a
	// spot account far from any margin call.
	AccountInfo *AccountInfo `yaml:"account_info"`
	Balances    []Balance    `yaml:"balances"`
	Transfers   []Transfer   `yaml:"transfers"`
	SubAccounts []SubAccount `yaml:"sub_accounts"`
	Positions   []Position   `yaml:"positions"`
	// AccountTransfers are transfers to and from the account's main or
	// sub-accounts, listed by the transfer history endpoint.
	AccountTransfers []AccountTransfer `yaml:"account_transfers"`
	// TokenConfig is what the token config endpoint lists, one row per
	// token.
	TokenConfig []TokenConfig `yaml:"token_config"`
	FundingFees []FundingFee  `yaml:"funding_fees"`
	// IsSubAccount makes the account a sub-account: the sub-accounts
	// endpoint refuses its keys (HTTP 401, code -1002).
	IsSubAccount bool `yaml:"is_sub_account"`
}

// Event is a change applied once: After the exchange's Start when a
// scenario holds it, at once by Apply. It is the one way to change an
// endpoint's data after New. Every action that is set is applied:
// ClearFaults, then Fault, then each endpoint's in the order of the
// endpoint table.
type Event struct {
	After       time.Duration `yaml:"after"`
	ClearFaults bool          `yaml:"clear_faults"`
	Fault       *Fault        `yaml:"fault"`

	// TokenNetwork's account is not used: the endpoint is public.
	TokenNetwork *Change[TokenNetworkRow] `yaml:"token_network"`
	// SystemStatus replaces what the system info endpoint reports.
	SystemStatus *SystemStatus `yaml:"system_status"`
	// Key adds an account's API key, changes it or revokes it.
	Key         *Change[Key]         `yaml:"key"`
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
	// LateRecord appends a history record whose money moves at once but
	// which is listed only later.
	LateRecord *LateRecordEvent `yaml:"late_record"`
}

// Change is an event's action on one row of an account's endpoint: Row
// changes the row of its key as the endpoint's file says (a new key adds
// it), or with Replace replaces it whole, its walks starting anew; Remove
// drops that row instead.
type Change[R any] struct {
	Account string `yaml:"account"`
	Row     R      `yaml:",inline"`
	Replace bool   `yaml:"replace"`
	Remove  bool   `yaml:"remove"`
}

// rowOnly refuses the replace and remove of an event whose endpoint takes
// neither.
func (c *Change[R]) rowOnly() error {
	if c.Replace || c.Remove {
		return fieldErr("remove", "the endpoint takes neither replace nor remove")
	}
	return nil
}

// validateEventAccount checks an event action that names an account: the
// account must be the scenario's, then the action valid (err nil).
func validateEventAccount(field, account string, accounts map[string]bool, err error) error {
	if !accounts[account] {
		return fieldErr(field+".account", "unknown account %q", account)
	}
	if err != nil {
		return fmt.Errorf("%s.%w", field, err)
	}
	return nil
}
