package statefile

import (
	"fmt"

	"github.com/woox-exporter/woox_exporter/ledger"
)

// testSections are sections as the exporter's counted histories declare
// them: the token history (required), a transfer tally kept in its own form, withdrawals, and a tally
// kept as it is.
var testSections = []Section{
	{Name: "accounts", Zero: ledger.State{}, Required: true, Check: func(st any) error {
		_, err := ledger.FromState(st.(ledger.State), ledger.Config{})
		return err
	}},
	section("transfers", func(st ledger.TransfersState) error {
		tally, err := st.Tally()
		if err == nil {
			_, err = ledger.TallyFromState(tally, 0, 0, ledger.TransferFoldAt)
		}
		return err
	}),
	section("withdrawals", func(st ledger.WithdrawalsState) error {
		_, err := ledger.WithdrawalsFromState(st, 0, 0)
		return err
	}),
	section("tallies", func(st ledger.TallyState) error {
		_, err := ledger.TallyFromState(st, 0, 0, 0)
		return err
	}),
}

// section declares a section of states of type S.
func section[S any](name string, check func(S) error) Section {
	var zero S
	return Section{Name: name, Zero: zero, Check: func(st any) error {
		s, ok := st.(S)
		if !ok {
			return fmt.Errorf("a state of type %T", st)
		}
		return check(s)
	}}
}

// held is how many accounts of "main" s holds in section: 1 or 0.
func held(s *Store, section string) int {
	if _, ok := s.SectionState(section, "main"); ok {
		return 1
	}
	return 0
}

// sectionState is main's state of section in s.
func sectionState(s *Store, section string) any {
	st, _ := s.SectionState(section, "main")
	return st
}

// states are the token history states s holds, by account.
func states(s *Store) map[string]ledger.State {
	out := map[string]ledger.State{}
	for account, st := range s.Section("accounts") {
		out[account] = st.(ledger.State)
	}
	return out
}

// save saves account's token history state into s.
func save(s *Store, account string, st ledger.State) error {
	return s.SaveSection("accounts", account, st)
}

// encode renders a state file of token history states alone.
func encode(accounts map[string]ledger.State) ([]byte, error) {
	doc := Document{Sections: map[string]map[string]any{"accounts": {}}}
	for account, st := range accounts {
		doc.Sections["accounts"][account] = st
	}
	return EncodeDocument(doc, testSections...)
}

// decode is the token history states of a state file.
func decode(b []byte) (map[string]ledger.State, error) {
	doc, err := DecodeDocument(b, testSections...)
	if err != nil {
		return nil, err
	}
	out := map[string]ledger.State{}
	for account, st := range doc.Sections["accounts"] {
		out[account] = st.(ledger.State)
	}
	return out, nil
}
