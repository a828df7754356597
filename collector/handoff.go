package collector

import (
	"github.com/woox-exporter/woox_exporter/client"
	"github.com/woox-exporter/woox_exporter/ledger"
	"github.com/woox-exporter/woox_exporter/statefile"
)

// Handoff is what a stopped exporter passes to the one that replaces it in
// the same process (a reload): every account's token history and transfer
// ledger, so that their counters continue, with a state file or without.
type Handoff struct {
	History     map[string]ledger.State
	Transfers   map[string]ledger.TransfersState
	Withdrawals map[string]ledger.WithdrawalsState
	// APIKeys are what the credentials polls last saw, and counted, of
	// each account's keys.
	APIKeys map[string]statefile.APIKeys
}

// Handoff exports the ledgers; call it after Run has returned.
func (e *Exporter) Handoff() *Handoff {
	h := &Handoff{History: map[string]ledger.State{}, Transfers: map[string]ledger.TransfersState{}, Withdrawals: map[string]ledger.WithdrawalsState{},
		APIKeys: map[string]statefile.APIKeys{}}
	if e.history != nil {
		for _, a := range e.history.accounts {
			// A saved state not yet judged against the exchange's clock
			// stays in the state file, for the next exporter to judge.
			if a.reader.Judged() {
				h.History[a.name] = a.live.Load().Export()
			}
		}
	}
	if c, ok := e.byName[client.EndpointTransferHistory].(*TransferHistoryCollector); ok {
		for _, a := range c.accounts {
			h.Transfers[a.name] = a.ledger.Export()
		}
	}
	if c, ok := e.byName[client.EndpointCredentials].(*CredentialsCollector); ok {
		for _, a := range c.accounts {
			h.APIKeys[a.name] = a.keys.saved
		}
	}
	if c, ok := e.byName[client.EndpointWallet].(*WalletCollector); ok {
		for _, a := range c.reads {
			if w := a.withdrawals; w != nil {
				h.Withdrawals[w.account] = w.ledger.Export()
			}
		}
	}
	return h
}

// handedHistory is the account's token history ledger state from the
// exporter this one replaces, if it had the account.
func (cfg *Config) handedHistory(account string) (ledger.State, bool) {
	if cfg.Handoff == nil {
		return ledger.State{}, false
	}
	st, ok := cfg.Handoff.History[account]
	return st, ok
}

// handedTransfers is handedHistory for the transfer ledger.
func (cfg *Config) handedTransfers(account string) (ledger.TransfersState, bool) {
	if cfg.Handoff == nil {
		return ledger.TransfersState{}, false
	}
	st, ok := cfg.Handoff.Transfers[account]
	return st, ok
}

// handedWithdrawals is handedHistory for the withdrawal ledger.
func (cfg *Config) handedWithdrawals(account string) (ledger.WithdrawalsState, bool) {
	if cfg.Handoff == nil {
		return ledger.WithdrawalsState{}, false
	}
	st, ok := cfg.Handoff.Withdrawals[account]
	return st, ok
}

// handedAPIKeys is handedHistory for what was seen of the API keys.
func (cfg *Config) handedAPIKeys(account string) (statefile.APIKeys, bool) {
	if cfg.Handoff == nil {
		return nil, false
	}
	keys, ok := cfg.Handoff.APIKeys[account]
	return keys, ok
}
