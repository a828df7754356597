package endpoint

import "time"

// Names of the endpoints, as All spells them.
const (
	TokenNetwork    = "token_network"
	Credentials     = "credentials"
	TokenHistory    = "token_history"
	SystemInfo      = "system_info"
	AccountInfo     = "account_info"
	Balances        = "balances"
	Wallet          = "wallet"
	SubAccounts     = "sub_accounts"
	Positions       = "positions"
	TransferHistory = "transfer_history"
	TokenConfig     = "token_config"
	FundingFee      = "funding_fee"
	Instruments     = "instruments"
	Futures         = "futures"
	SymbolConfig    = "symbol_config"
	Orders          = "orders"
	AlgoOrders      = "algo_orders"
)

// All are every endpoint the exporter reads, in the order their collectors
// export. Adding an endpoint is one entry here and its files in client,
// collector and the fake exchange (docs/development.md, Adding an endpoint).
var All = []Endpoint{
	{Name: TokenNetwork, Path: "/v3/public/tokenNetwork", Limit: Limit{10, time.Second},
		DefaultInterval: 5 * time.Minute, Description: "the public token networks"},
	// A key's allow-list or permissions changed is a security event: one
	// request a quiet poll, 1 of the 10 a minute the endpoint allows.
	{Name: Credentials, Path: "/v3/account/credentials", Limit: Limit{10, time.Minute}, Page: "account/credentials",
		PerAccount: true, Paged: true, DefaultInterval: time.Minute, Description: "each account's API keys"},
	{Name: TokenHistory, Path: "/v3/asset/token/history", Limit: Limit{10, time.Minute}, Page: "assets/token_history",
		PerAccount: true, Paged: true, DefaultInterval: time.Minute, Description: "each account's token history"},
	{Name: SystemInfo, Path: "/v3/public/systemInfo", Limit: Limit{10, time.Second},
		DefaultInterval: time.Minute, Description: "the exchange's public system status"},
	// Margin ratio, balances and positions move with prices: polled as
	// often as their limits sensibly allow, so that a liquidation is paged
	// minutes before it.
	{Name: AccountInfo, Path: "/v3/account/info", Limit: Limit{10, time.Minute}, Page: "account/get_account_info",
		PerAccount: true, DefaultInterval: 15 * time.Second, Description: "each account's margin and fees"},
	{Name: Balances, Path: "/v3/asset/balances", Limit: Limit{10, time.Second}, Page: "assets/get_balances",
		PerAccount: true, DefaultInterval: 15 * time.Second, Description: "each account's token balances"},
	// A withdrawal to an address nobody expects pages within a minute of
	// its row: new rows every 15 s, 4 of the 5 requests a minute the
	// budget allows (--api.budget of 10 per 60 s); the whole lookback,
	// for the transfers in flight, replaces one of them every
	// --wallet.lookback-interval.
	{Name: Wallet, Path: "/v3/asset/wallet/history", Limit: Limit{10, time.Minute}, Page: "assets/get_wallet_history",
		PerAccount: true, Paged: true, DefaultInterval: 15 * time.Second, Description: "each account's deposits and withdrawals"},
	{Name: SubAccounts, Path: "/v3/account/subAccounts/all", Limit: Limit{10, time.Minute}, Page: "account/sub_accounts",
		PerAccount: true, DefaultInterval: 15 * time.Minute, OffByDefault: true, Description: "each main account's sub-accounts"},
	{Name: Positions, Path: "/v3/futures/positions", Limit: Limit{30, 10 * time.Second}, Page: "futures/get_positions",
		PerAccount: true, DefaultInterval: 5 * time.Second, Description: "each account's futures positions"},
	// One request a quiet poll, a tenth of the budget (--api.budget of 20
	// per 60 s), leaving the rest to pages of a busy day.
	{Name: TransferHistory, Path: "/v3/asset/transfer/history", Limit: Limit{20, time.Minute}, Page: "assets/get_transfer_history",
		PerAccount: true, Paged: true, DefaultInterval: time.Minute,
		Description: "each account's transfers to and from its main or sub-accounts"},
	// Cheap (10 requests a second published) and a haircut moves margin at
	// once: polled with the account's margin.
	{Name: TokenConfig, Path: "/v3/account/tokenConfig", Limit: Limit{10, time.Second}, Page: "account/get_token_config",
		PerAccount: true, DefaultInterval: 15 * time.Second,
		Description: "each account's collateral ratio and margin limits by token"},
	// Funding is paid every few hours: a poll every 5 minutes is one
	// request of the 20 a minute published, and a payment listed late is
	// found by a poll within the late window.
	{Name: FundingFee, Path: "/v3/futures/fundingFee/history", Limit: Limit{20, time.Minute}, Page: "futures/get_fundingFee_history",
		PerAccount: true, Paged: true, DefaultInterval: 5 * time.Minute, Description: "each account's funding fee payments"},
	// A symbol suspended or delisted cannot be traded out of: each
	// minute is one request of the 600 a minute published per IP.
	{Name: Instruments, Path: "/v3/public/instruments", Limit: Limit{10, time.Second}, Page: "public_data/instruments",
		DefaultInterval: time.Minute, Description: "the public instruments and their trading status"},
	// Funding is announced hours before it is charged: a minute is soon
	// enough to page before the next funding time.
	{Name: Futures, Path: "/v3/public/futures", Limit: Limit{10, time.Second},
		DefaultInterval: time.Minute, Description: "the public perpetuals' funding rates and prices"},
	// A symbol's limits change rarely, and a cut pages within the hour:
	// one request every 5 minutes of the 10 a second published.
	{Name: SymbolConfig, Path: "/v3/account/symbolConfig", Limit: Limit{10, time.Second}, Page: "account/get_symbol_config",
		PerAccount: true, DefaultInterval: 5 * time.Minute,
		Description: "each account's max leverage, margin factor and max position by symbol"},
	// A runaway bot floods the book in seconds: every 15 s, one request
	// of a page of one row (meta.total counts them all) of the 10 a second.
	{Name: Orders, Path: "/v3/trade/orders", Limit: Limit{10, time.Second}, Page: "trading/get_orders",
		PerAccount: true, DefaultInterval: 15 * time.Second, Description: "each account's count of open orders"},
	// Stops are few: their pages every 15 s, of the 10 a second.
	{Name: AlgoOrders, Path: "/v3/trade/algoOrders", Limit: Limit{10, time.Second}, Page: "trading/get_algo_orders",
		PerAccount: true, Paged: true, DefaultInterval: 15 * time.Second,
		Description: "each account's open algo orders (stops, take-profits) by symbol and type"},
}
