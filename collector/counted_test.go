package collector

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/ledger"
	"github.com/woox-exporter/woox_exporter/statefile"
)

// openState opens the state file at path with the counted histories'
// sections, as the binary does.
func openState(path string, now time.Time) (*statefile.Store, error) {
	return statefile.Open(path, now, statefile.SectionsOf(StateSections())...)
}

// savedStates are the token history states store holds.
func savedStates(store *statefile.Store) map[string]ledger.State {
	out := map[string]ledger.State{}
	for account, st := range store.Section(tokenHistorySection) {
		out[account] = st.(ledger.State)
	}
	return out
}

// encodeState is a state file holding accounts' token history states.
func encodeState(accounts map[string]ledger.State) ([]byte, error) {
	doc := statefile.Document{Sections: map[string]map[string]any{tokenHistorySection: {}}}
	for account, st := range accounts {
		doc.Sections[tokenHistorySection][account] = st
	}
	return statefile.EncodeDocument(doc, statefile.SectionsOf(StateSections())...)
}

// failingStore is a state store whose section saves fail while failing is
// set.
type failingStore struct {
	StateStore
	failing bool
}

func (s *failingStore) SaveSection(section, account string, st any) error {
	if s.failing {
		return errors.New("disk full")
	}
	return s.StateStore.SaveSection(section, account, st)
}

// A state file as the exporter wrote it before its histories were counted
// by one type restores each history's state exactly, and is written back
// holding the same states.
func TestAStateFileWrittenBeforeRestoresEveryCountedHistory(t *testing.T) {
	key, ips, perms := keyID("key-1"), keyID("ips"), keyID("perms")
	doc := `{"version": 1, "accounts": {},
  "transfers": {"main": {"cursor_ms": 1700000200000, "horizon_ms": 1699913800000, "seen": [{"id": "42", "latest_ms": 1700000100000}],
    "totals": [{"token": "USDT", "direction": "out", "counterparty": "sub", "counterparty_application_id": "app-sub", "records": 1,
      "amount": "0.123456789012345678901234567890", "last_ms": 1700000100000}]}},
  "api_keys": {"main": {"` + key + `": {"allowed_ips_sha256": "` + ips + `", "permissions_sha256": "` + perms + `",
    "allowed_ips_changes": 3, "permission_changes": 1}}},
  "withdrawals": {"main": {"horizon_ms": 1700000000000, "seen": [{"id": "w1", "created_ms": 1700000150000}],
    "known": [{"network": "ETH", "address": "0xab", "last_ms": 1700000150000}],
    "totals": [{"token": "USDT", "network": "ETH", "destination": "new", "count": 1}],
    "flagged": [{"id": "w1", "token": "USDT", "network": "ETH", "address": "0xAb", "amount": "12.5", "destination": "new", "seen_ms": 1700000200000}]}}}
`
	want := map[string]any{
		transfers.section: ledger.TransfersState{CursorMs: 1700000200000, HorizonMs: 1699913800000,
			Seen: []ledger.SeenTransfer{{ID: "42", LatestMs: 1700000100000}}, Totals: []ledger.TransferTotalText{{Token: "USDT",
				Direction: "out", Counterparty: "sub", CounterpartyID: "app-sub", Records: 1, Amount: "0.123456789012345678901234567890", LastMs: 1700000100000}}},
		apiKeyChanges.section: APIKeys{key: {AllowedIPs: ips, Permissions: perms, AllowedIPsChanges: 3, PermissionChanges: 1}},
		withdrawals.section: ledger.WithdrawalsState{HorizonMs: 1700000000000, Seen: []ledger.SeenWithdrawal{{ID: "w1", CreatedMs: 1700000150000}},
			Known:   []ledger.KnownTarget{{Target: ledger.Target{Network: "ETH", Address: "0xab"}, LastMs: 1700000150000}},
			Totals:  []ledger.WithdrawalTotal{{Token: "USDT", Network: "ETH", Destination: "new", Count: 1}},
			Flagged: []ledger.FlaggedWithdrawal{{ID: "w1", Token: "USDT", Network: "ETH", Address: "0xAb", Amount: "12.5", Destination: "new", SeenMs: 1700000200000}}},
	}
	path := filepath.Join(t.TempDir(), "state.json")
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	check := func(when string) *statefile.Store {
		t.Helper()
		s, err := openState(path, historyNow)
		if err != nil || s.Corruption() != nil {
			t.Fatalf("%s: open: %v, corruption %v", when, err, s.Corruption())
		}
		for section, st := range want {
			if got, ok := s.SectionState(section, "main"); !ok || !reflect.DeepEqual(got, st) {
				t.Errorf("%s: %s = %+v, want %+v", when, section, got, st)
			}
		}
		return s
	}
	if err := check("as written before").SaveSection(transfers.section, "main", want[transfers.section]); err != nil {
		t.Fatal(err)
	}
	check("written back")
}

// Only digests are kept: an address or a key in clear, in a file or handed
// to the state file to save, is refused.
func TestAPIKeysInClearAreRefused(t *testing.T) {
	for _, tc := range []struct{ name, keys string }{
		{"address in clear", `{"` + keyID("k") + `": {"allowed_ips_sha256": "10.0.0.1", "permissions_sha256": "` + keyID("p") + `"}}`},
		{"key in clear", `{"AbCdEf==": {"allowed_ips_sha256": "` + keyID("i") + `", "permissions_sha256": "` + keyID("p") + `"}}`},
		{"upper-case hex", `{"` + strings.ToUpper(keyID("k")) + `": {"allowed_ips_sha256": "` + keyID("i") + `", "permissions_sha256": "` + keyID("p") + `"}}`},
		{"unknown field", `{"` + keyID("k") + `": {"allowed_ips": ["10.0.0.1"], "allowed_ips_sha256": "` + keyID("i") + `", "permissions_sha256": "` + keyID("p") + `"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "state.json")
			doc := `{"version": 1, "accounts": {}, "api_keys": {"main": ` + tc.keys + `}}`
			if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
				t.Fatal(err)
			}
			s, err := openState(path, historyNow)
			if err != nil {
				t.Fatal(err)
			}
			if s.Corruption() == nil {
				t.Fatal("loaded")
			}
			if strings.Contains(s.Corruption().Err.Error(), "10.0.0.1") {
				t.Errorf("the reason quotes the address: %v", s.Corruption().Err)
			}
		})
	}
	s, err := openState(filepath.Join(t.TempDir(), "state.json"), historyNow)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SaveSection(apiKeyChanges.section, "main", APIKeys{keyID("k"): {AllowedIPs: "10.0.0.1", Permissions: keyID("p")}}); err == nil {
		t.Error("the state file took an address in clear")
	}
	if _, err := os.Stat(s.Path()); err == nil {
		t.Error("a file was written")
	}
}

// What was seen of API keys survives a reopen exactly, beside other
// sections' saves.
func TestAPIKeyStatesSurviveOtherSavesAndAReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	s, err := openState(path, historyNow)
	if err != nil {
		t.Fatal(err)
	}
	want := APIKeys{keyID("key-1"): {AllowedIPs: keyID("ips"), Permissions: keyID("perms"), AllowedIPsChanges: 3, PermissionChanges: 1}}
	if err := s.SaveSection(apiKeyChanges.section, "main", want); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveSection(fundingFees.section, "main", ledger.NewTally(0, 0, 0, 0).Export()); err != nil {
		t.Fatal(err)
	}
	s2, err := openState(path, historyNow)
	if err != nil || s2.Corruption() != nil {
		t.Fatalf("reopen: %v, corruption %v", err, s2.Corruption())
	}
	if got, _ := s2.SectionState(apiKeyChanges.section, "main"); !reflect.DeepEqual(got, want) {
		t.Errorf("reopened: %+v, want %+v", got, want)
	}
}
