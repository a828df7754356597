package statefile

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/woox-exporter/woox_exporter/ledger"
)

func sampleTally() ledger.TallyState {
	l := ledger.NewTally(1_700_000_000_000, 24*3600_000, 0, 0)
	l.Count([]ledger.Counted{{ID: "7", Labels: []string{"PERP_BTC_USDT", "paid"}, Amount: decimal.RequireFromString("-0.000123456789"),
		LatestMs: 1_700_000_100_000}})
	l.Finish(1_700_000_200_000)
	return l.Export()
}

// Every tally section survives the other sections' saves and a reopen; a
// file written before it loads as it is; a state of it no tally rebuilds
// sets the file aside.
func TestEveryTallySectionSurvivesAndOlderFilesLoad(t *testing.T) {
	for _, section := range []string{"tallies"} {
		t.Run(section, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "state.json")
			s, err := Open(path, openTime, testSections...)
			if err != nil {
				t.Fatal(err)
			}
			want := sampleTally()
			if err := s.SaveSection(section, "main", want); err != nil {
				t.Fatal(err)
			}
			if err := s.SaveSection("transfers", "main", sampleTransfers(t)); err != nil {
				t.Fatal(err)
			}
			s2, err := Open(path, openTime, testSections...)
			if err != nil || s2.Corruption() != nil {
				t.Fatalf("reopen: %v, corruption %v", err, s2.Corruption())
			}
			if got := sectionState(s2, section); !reflect.DeepEqual(got, want) {
				t.Errorf("restored %+v\nwant %+v", got, want)
			}

			old, err := encode(map[string]ledger.State{"main": sampleState(t, 1)})
			if err != nil || strings.Contains(string(old), section) {
				t.Fatalf("a document without the section: %v, %s", err, old)
			}
			if err := os.WriteFile(path, old, 0o600); err != nil {
				t.Fatal(err)
			}
			if s3, err := Open(path, openTime, testSections...); err != nil || s3.Corruption() != nil || held(s3, section) != 0 {
				t.Fatalf("older file: %v, corruption %v", err, s3.Corruption())
			}

			bad := `{"version": 1, "accounts": {}, "` + section + `": {"main": {"cursor_ms": 1, "horizon_ms": 2, "seen": [], "totals": []}}}`
			if err := os.WriteFile(path, []byte(bad), 0o600); err != nil {
				t.Fatal(err)
			}
			s4, err := Open(path, openTime, testSections...)
			if err != nil || s4.Corruption() == nil || !strings.Contains(s4.Corruption().Err.Error(), section) {
				t.Fatalf("bad state: %v, corruption %v; want the section named", err, s4.Corruption())
			}
		})
	}
	if err := (&Store{}).SaveSection("no_such_section", "main", sampleTally()); err == nil {
		t.Error("a section the file does not keep was saved")
	}
}
