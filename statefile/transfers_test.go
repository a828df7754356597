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

func sampleTransfers(t *testing.T) ledger.TransfersState {
	t.Helper()
	l := ledger.NewTally(1_700_000_000_000, 24*3600_000, 0, ledger.TransferFoldAt)
	l.Count([]ledger.Counted{{ID: "42", Labels: []string{"USDT", ledger.DirectionOut, "sub"}, Note: "app-sub",
		Amount: decimal.RequireFromString("0.123456789012345678901234567890"), LatestMs: 1_700_000_100_000}})
	l.Finish(1_700_000_200_000)
	return ledger.TransfersStateOf(l.Export())
}

func TestTransferStatesSurviveTokenHistorySavesAndAReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	s, err := Open(path, openTime, testSections...)
	if err != nil {
		t.Fatal(err)
	}
	want := sampleTransfers(t)
	if err := s.SaveSection("transfers", "main", want); err != nil {
		t.Fatal(err)
	}
	if err := save(s, "main", sampleState(t, 1)); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(path, openTime, testSections...)
	if err != nil {
		t.Fatal(err)
	}
	if s2.Corruption() != nil {
		t.Fatal(s2.Corruption().Err)
	}
	if got := sectionState(s2, "transfers"); !reflect.DeepEqual(got, want) {
		t.Errorf("restored %+v\nwant %+v", got, want)
	}
	if len(states(s2)) != 1 {
		t.Errorf("token history states = %d, want 1", len(states(s2)))
	}
}

func TestAStateFileWithoutTransfersStillLoadsAndIsWrittenAsBefore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	old, err := encode(map[string]ledger.State{"main": sampleState(t, 1)})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(old), "transfers") {
		t.Fatal("a document without transfer states names them")
	}
	if err := os.WriteFile(path, old, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, openTime, testSections...)
	if err != nil || s.Corruption() != nil {
		t.Fatalf("open: %v, corruption %v", err, s.Corruption())
	}
	if len(states(s)) != 1 || held(s, "transfers") != 0 {
		t.Fatalf("states %d, transfer states %d", len(states(s)), held(s, "transfers"))
	}
}

func TestABadTransferStateSetsTheFileAside(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	doc := `{"version": 1, "accounts": {}, "transfers": {"main": {"cursor_ms": 1, "horizon_ms": 2, "seen": [], "totals": []}}}`
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, openTime, testSections...)
	if err != nil {
		t.Fatal(err)
	}
	if c := s.Corruption(); c == nil || !strings.Contains(c.Err.Error(), "horizon after the cursor") {
		t.Fatalf("corruption = %v, want the transfer state named", c)
	}
}
