package statefile

import (
	"fmt"

	"github.com/woox-exporter/woox_exporter/ledger"
)

// testSections are sections as the exporter's counted histories declare
// them: a transfer tally kept in its own form, withdrawals, and a tally
// kept as it is.
var testSections = []Section{
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
