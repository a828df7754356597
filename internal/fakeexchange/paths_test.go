package fakeexchange

import "github.com/woox-exporter/woox_exporter/endpoint"

// The endpoints' names and paths of the endpoint table, by the short names
// the tests use.
const (
	EndpointTokenHistory    = endpoint.TokenHistory
	EndpointTokenNetwork    = endpoint.TokenNetwork
	EndpointCredentials     = endpoint.Credentials
	EndpointBalances        = endpoint.Balances
	EndpointPositions       = endpoint.Positions
	EndpointWallet          = endpoint.Wallet
	EndpointSubAccounts     = endpoint.SubAccounts
	EndpointSystemInfo      = endpoint.SystemInfo
	EndpointTransferHistory = endpoint.TransferHistory
)

var (
	PathAccountInfo     = endpoint.PathOf(endpoint.AccountInfo)
	PathBalances        = endpoint.PathOf(endpoint.Balances)
	PathCredentials     = endpoint.PathOf(endpoint.Credentials)
	PathPositions       = endpoint.PathOf(endpoint.Positions)
	PathSubAccounts     = endpoint.PathOf(endpoint.SubAccounts)
	PathSystemInfo      = endpoint.PathOf(endpoint.SystemInfo)
	PathTokenConfig     = endpoint.PathOf(endpoint.TokenConfig)
	PathTokenHistory    = endpoint.PathOf(endpoint.TokenHistory)
	PathTokenNetwork    = endpoint.PathOf(endpoint.TokenNetwork)
	PathTransferHistory = endpoint.PathOf(endpoint.TransferHistory)
	PathWalletHistory   = endpoint.PathOf(endpoint.Wallet)
)
