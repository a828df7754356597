package statefile

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/woox-exporter/woox_exporter/ledger"
)

func sampleWithdrawals() ledger.WithdrawalsState {
	w := ledger.NewWithdrawals(1_700_000_000_000, 24*3600_000, 0)
	w.Count(nil, 1_700_000_100_000, nil)
	w.Count([]ledger.Withdrawal{{ID: "w1", Token: "USDT", Network: "ETH", Address: "0xAb", Target: ledger.Target{Network: "ETH", Address: "0xab"},
		Amount: "12.5", CreatedMs: 1_700_000_150_000}}, 1_700_000_200_000, nil)
	return w.Export()
}

func TestWithdrawalStatesSurviveOtherSavesAndAReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	s, err := Open(path, openTime, testSections...)
	if err != nil {
		t.Fatal(err)
	}
	want := sampleWithdrawals()
	if err := s.SaveSection("withdrawals", "main", want); err != nil {
		t.Fatal(err)
	}
	s2 := saveTheOthersAndReopen(t, s)
	if got := sectionState(s2, "withdrawals"); !reflect.DeepEqual(got, want) {
		t.Errorf("restored %+v\nwant %+v", got, want)
	}
}

// A file written before withdrawals were counted loads as it is, and one
// without withdrawal states is written without the field.
func TestAStateFileWithoutWithdrawalsStillLoads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	old, err := EncodeDocument(Document{Sections: map[string]map[string]any{"accounts": {"main": sampleState(t, 1)},
		"transfers": {"main": sampleTransfers(t)}}}, testSections...)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(old), "withdrawals") {
		t.Fatal("a document without withdrawal states names them")
	}
	if err := os.WriteFile(path, old, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, openTime, testSections...)
	if err != nil || s.Corruption() != nil {
		t.Fatalf("open: %v, corruption %v", err, s.Corruption())
	}
	if len(states(s)) != 1 || held(s, "transfers") != 1 || held(s, "withdrawals") != 0 {
		t.Fatalf("states %d, transfer states %d, withdrawal states %d", len(states(s)), held(s, "transfers"), held(s, "withdrawals"))
	}
}

func TestABadWithdrawalStateSetsTheFileAside(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	doc := `{"version": 1, "accounts": {}, "withdrawals": {"main": {"horizon_ms": 1, "seen": [{"id": "a"}, {"id": "a"}], "known": [], "totals": []}}}`
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, openTime, testSections...)
	if err != nil {
		t.Fatal(err)
	}
	if c := s.Corruption(); c == nil || !strings.Contains(c.Err.Error(), `id "a" twice`) {
		t.Fatalf("corruption = %v, want the withdrawal state named", c)
	}
}
