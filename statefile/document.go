package statefile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"

	"github.com/woox-exporter/woox_exporter/ledger"
)

// Version is the document version this package writes and reads.
const Version = 1

// Document is the content of the state file.
type Document struct {
	Version int `json:"version"`
	// Accounts maps an account name to its ledger state.
	Accounts map[string]ledger.State `json:"accounts"`
	// Transfers maps an account name to its transfer ledger state; absent
	// from files written before the transfer history was counted, which
	// load as they are.
	Transfers map[string]ledger.TransfersState `json:"transfers,omitempty"`
	// APIKeys maps an account name to what was last seen of its API keys
	// (APIKeys); absent from older files, which load as they are.
	APIKeys map[string]APIKeys `json:"api_keys,omitempty"`
	// Withdrawals maps an account name to its withdrawal ledger state;
	// absent from files written before withdrawals were counted, which
	// load as they are.
	Withdrawals map[string]ledger.WithdrawalsState `json:"withdrawals,omitempty"`
	// FundingFees maps an account name to its funding fee tally (a tally
	// section); absent from older files, which load as they are.
	FundingFees map[string]ledger.TallyState `json:"funding_fees,omitempty"`
}

// Decode parses and checks a state document: the version, and that every
// account's state rebuilds a ledger. It never returns a partial result.
// Whether a cursor is plausible in time is not judged here: only the
// exchange's clock can tell, and only for that account (see
// ledger.State.Check).
func Decode(b []byte) (map[string]ledger.State, error) {
	doc, err := DecodeDocument(b)
	return doc.Accounts, err
}

// DecodeDocument is Decode of the whole document, the transfer and
// withdrawal states too.
func DecodeDocument(b []byte) (Document, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var doc Document
	if err := dec.Decode(&doc); err != nil {
		return Document{}, decodeError(err, dec, b)
	}
	if dec.More() {
		return Document{}, errors.New("decode: data after the document")
	}
	if doc.Version != Version {
		return Document{}, fmt.Errorf("version %d: this exporter reads version %d", doc.Version, Version)
	}
	if doc.Accounts == nil {
		return Document{}, errors.New("no accounts object")
	}
	for name, st := range doc.Accounts {
		if _, err := ledger.FromState(st, ledger.Config{}); err != nil {
			return Document{}, fmt.Errorf("account %q: %w", name, err)
		}
	}
	if err := checkSections(&doc); err != nil {
		return Document{}, err
	}
	return doc, nil
}

// Encode renders a state document.
func Encode(accounts map[string]ledger.State) ([]byte, error) {
	return EncodeDocument(Document{Accounts: accounts})
}

// EncodeDocument renders a state document, the transfer and withdrawal
// states too, at
// this package's Version.
func EncodeDocument(doc Document) ([]byte, error) {
	if doc.Accounts == nil {
		doc.Accounts = map[string]ledger.State{}
	}
	doc.Version = Version
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Each section beyond the token history is a map from account name to that
// account's state, absent from files written before it was kept (omitempty):
// such files load as they are. checkSections rebuilds every state of every
// section, so that a file any of them cannot use is set aside whole.
func checkSections(doc *Document) error {
	for name, st := range doc.Transfers {
		if _, err := ledger.TransfersFromState(st, 0, 0); err != nil {
			return fmt.Errorf("account %q: %w", name, err)
		}
	}
	for name, keys := range doc.APIKeys {
		if err := keys.check(); err != nil {
			return fmt.Errorf("account %q: api keys: %w", name, err)
		}
	}
	for name, st := range doc.Withdrawals {
		if _, err := ledger.WithdrawalsFromState(st, 0, 0); err != nil {
			return fmt.Errorf("account %q: %w", name, err)
		}
	}
	for section, of := range tallies {
		for name, st := range *of(doc) {
			if _, err := ledger.TallyFromState(st, 0, 0, 0); err != nil {
				return fmt.Errorf("account %q: %s: %w", name, section, err)
			}
		}
	}
	return nil
}

// tallies are the sections of ledger.Tally states (a history counted once
// by id into totals by labels), by their JSON name: a field of Document and
// its line here.
var tallies = map[string]func(*Document) *map[string]ledger.TallyState{
	"funding_fees": func(d *Document) *map[string]ledger.TallyState { return &d.FundingFees },
}

// TallyStates returns a copy of every account's saved state of the tally
// section (see tallies); none for a section this package does not keep.
func (s *Store) TallyStates(section string) map[string]ledger.TallyState {
	of, ok := tallies[section]
	if !ok {
		return nil
	}
	return states(s, of)
}

// SaveTally records one account's state of the tally section and rewrites
// the file atomically, as Save does.
func (s *Store) SaveTally(section, account string, st ledger.TallyState) error {
	of, ok := tallies[section]
	if !ok {
		return fmt.Errorf("save %s of account %q: no such section of the state file", section, account)
	}
	return save(s, of, account, st)
}

// TransferStates returns a copy of every account's saved transfer ledger
// state.
func (s *Store) TransferStates() map[string]ledger.TransfersState {
	return states(s, func(d *Document) *map[string]ledger.TransfersState { return &d.Transfers })
}

// SaveTransfers records the transfer ledger state of one account and
// rewrites the file atomically, as Save does.
func (s *Store) SaveTransfers(account string, st ledger.TransfersState) error {
	return save(s, func(d *Document) *map[string]ledger.TransfersState { return &d.Transfers }, account, st)
}

// WithdrawalStates returns a copy of every account's saved withdrawal
// ledger state.
func (s *Store) WithdrawalStates() map[string]ledger.WithdrawalsState {
	return states(s, func(d *Document) *map[string]ledger.WithdrawalsState { return &d.Withdrawals })
}

// SaveWithdrawals records the withdrawal ledger state of one account and
// rewrites the file atomically, as Save does.
func (s *Store) SaveWithdrawals(account string, st ledger.WithdrawalsState) error {
	return save(s, func(d *Document) *map[string]ledger.WithdrawalsState { return &d.Withdrawals }, account, st)
}

// states is a copy of a section's states, never nil.
func states[T any](s *Store, of func(*Document) *map[string]T) map[string]T {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := maps.Clone(*of(&s.doc))
	if out == nil {
		out = map[string]T{}
	}
	return out
}

// save records one account's state of a section and rewrites the file.
func save[T any](s *Store, of func(*Document) *map[string]T, account string, st T) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := of(&s.doc)
	if *m == nil {
		*m = map[string]T{}
	}
	(*m)[account] = st
	return s.writeLocked()
}
