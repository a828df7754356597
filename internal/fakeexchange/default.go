package fakeexchange

import "time"

// Keys of DefaultScenario, for end-to-end configurations. They are fake and
// grant nothing anywhere else.
const (
	// DefaultMainKey is an unrestricted READ/TRADE/WITHDRAWAL key of account "main".
	DefaultMainKey    = "fake-main-withdraw-key=="
	DefaultMainSecret = "FAKEMAINWITHDRAWSECRET000001"
	// DefaultMainReadKey is a READ-only key of "main" restricted to 127.0.0.1 and ::1.
	DefaultMainReadKey    = "fake-main-read-key=="
	DefaultMainReadSecret = "FAKEMAINREADSECRET0000000002"
	// DefaultMainTradeKey is a TRADE-only key of "main": private calls with it fail (-1002).
	DefaultMainTradeKey    = "fake-main-trade-key=="
	DefaultMainTradeSecret = "FAKEMAINTRADESECRET000000003"
	// DefaultSubKey is an unrestricted READ key of account "sub".
	DefaultSubKey    = "fake-sub-read-key=="
	DefaultSubSecret = "FAKESUBREADSECRET00000000004"
)

// DefaultScenario is the built-in scenario used when none is given: account
// "main" (Main, user 12523) with the keys DefaultMainKey, DefaultMainReadKey
// and DefaultMainTradeKey, recent history, a generator adding a record
// every 15 s and three futures positions (one closed); account "sub"
// (Sub-1, user 12524) with DefaultSubKey and a little history; ten token networks, WOO on BSC with withdrawals disabled
// and SOL on SOL with deposits disabled. Each call returns a fresh copy.
func DefaultScenario() *Scenario {
	ago := func(d time.Duration, id int64, typ, token, amount string) HistoryEntry {
		return HistoryEntry{HistoryRecord: HistoryRecord{ID: id, Type: typ, Token: token, Amount: amount}, TimestampAgo: d}
	}
	tn := func(token, network, protocol, name, minW, fee string, dep, wd int) TokenNetworkRow {
		return TokenNetworkRow{Token: token, Network: network, Protocol: protocol, Name: name,
			MinimumWithdrawal: minW, WithdrawalFee: fee, AllowDeposit: dep, AllowWithdraw: wd}
	}
	return &Scenario{
		Accounts: []Account{
			{
				Name: "main", AccountName: "Main", UserID: 12523,
				Keys: []Key{
					{APIKey: DefaultMainKey, APISecret: DefaultMainSecret, Permissions: []string{"READ", "TRADE", "WITHDRAWAL"}},
					{APIKey: DefaultMainReadKey, APISecret: DefaultMainReadSecret, Permissions: []string{"READ"}, AllowedIPs: []string{"127.0.0.1", "::1"}},
					{APIKey: DefaultMainTradeKey, APISecret: DefaultMainTradeSecret, Permissions: []string{"TRADE"}},
				},
				History: []HistoryEntry{
					ago(50*time.Minute, 1001, "DEPOSIT", "USDT", "2500.00000000"),
					ago(45*time.Minute, 1002, "DEPOSIT", "BTC", "0.05000000"),
					ago(40*time.Minute, 1003, "TRANSACTION_FEE", "USDT", "-1.25000000"),
					ago(30*time.Minute, 1004, "REALIZED_PNL", "USDT", "-12.5"),
					ago(20*time.Minute, 1005, "WITHDRAW", "USDT", "-300"),
					ago(15*time.Minute, 1006, "FUNDING_FEE", "USDT", "0.0314"),
					ago(10*time.Minute, 1007, "REBATE", "WOO", "4.2"),
					ago(5*time.Minute, 1008, "WITHDRAW", "BTC", "-0.01"),
				},
				HistoryGenerator: &HistoryGenerator{
					Every:  15 * time.Second,
					Types:  []string{"DEPOSIT", "WITHDRAW", "TRANSACTION_FEE", "REALIZED_PNL"},
					Tokens: []string{"USDT", "BTC", "ETH"},
				},
				AccountInfo: &AccountInfo{
					AccountMode: "FUTURES", Leverage: "10", MarginRatio: "2.5", OpenMarginRatio: "2.4", InitialMarginRatio: "0.1",
					MaintenanceMarginRatio: "0.03", TotalCollateral: "12500.5", FreeCollateral: "9000", TotalAccountValue: "12600.25",
					// Basis points, as the exchange sends fee rates.
					TakerFeeRate: "5", MakerFeeRate: "2", FuturesTakerFeeRate: "6", FuturesMakerFeeRate: "1",
				},
				Balances: []Balance{
					{Token: "BTC", Holding: "0.04", Frozen: "0.01", Staked: "0", AvailableBalance: "0.03", MarkPrice: "65000.5"},
					{Token: "USDT", Holding: "2186.25", Frozen: "300", Staked: "100", AvailableBalance: "1786.25", MarkPrice: "1"},
				},
				// Tokens are network-token ids, as the exchange sends them.
				Transfers: []Transfer{
					// In PROCESSING for two hours: a stuck withdrawal.
					{ID: "wd-1001", Token: "TRON_USDT", Side: "WITHDRAW", Amount: "300", Status: "PROCESSING", CreatedAgo: 2 * time.Hour, FeeToken: "USDT", FeeAmount: "1"},
					{ID: "dp-1002", Token: "ARB_ETH", Side: "DEPOSIT", Amount: "0.05", Status: "CONFIRMING", CreatedAgo: 10 * time.Minute},
					{ID: "wd-1003", Token: "BTC", Side: "WITHDRAW", Amount: "0.01", Status: "COMPLETED", CreatedAgo: 3 * time.Hour},
				},
				SubAccounts: []SubAccount{{ApplicationID: "6b43de5c-0955-4887-9862-d84e4689f9fe", Name: "Sub-1", CreatedTime: 1700000000000}}, Positions: defaultPositions(),
			},
			{
				Name: "sub", AccountName: "Sub-1", UserID: 12524,
				Keys: []Key{
					{APIKey: DefaultSubKey, APISecret: DefaultSubSecret, Permissions: []string{"READ"}},
				},
				History: []HistoryEntry{
					ago(55*time.Minute, 2001, "SUB_ACCOUNT_TRANSFER", "USDT", "1000"),
					ago(25*time.Minute, 2002, "INTEREST", "USDT", "-0.0042"),
					ago(2*time.Minute, 2003, "DEPOSIT", "ETH", "1.5"),
				},
				// A sub-account: its key may not list sub-accounts.
				IsSubAccount: true,
				Balances:     []Balance{{Token: "ETH", Holding: "1.5", Frozen: "0", Staked: "0", AvailableBalance: "1.5", MarkPrice: "3000"}},
			},
		},
		TokenNetworks: []TokenNetworkRow{
			tn("USDT", "ETH", "ERC20", "Ethereum", "10.00000000", "1.50000000", 1, 1),
			tn("USDT", "TRON", "TRC20", "Tron", "2.00000000", "1.00000000", 1, 1),
			tn("USDT", "BSC", "BEP20", "BNB Smart Chain", "2.00000000", "0.30000000", 1, 1),
			tn("USDT", "SOL", "SPL", "Solana", "2.00000000", "0.50000000", 1, 1),
			tn("BTC", "BTC", "BTC", "Bitcoin", "0.00100000", "0.00020000", 1, 1),
			tn("ETH", "ETH", "ERC20", "Ethereum", "0.01000000", "0.00150000", 1, 1),
			tn("ETH", "ARB", "ERC20", "Arbitrum One", "0.00500000", "0.00010000", 1, 1),
			tn("WOO", "ETH", "ERC20", "Ethereum", "50.00000000", "20.00000000", 1, 1),
			tn("WOO", "BSC", "BEP20", "BNB Smart Chain", "10.00000000", "1.00000000", 1, 0),
			tn("SOL", "SOL", "SOL", "Solana", "0.10000000", "0.01000000", 0, 1),
		},
	}
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
