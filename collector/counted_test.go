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
	var sections []statefile.Section
	for _, s := range StateSections() {
		sections = append(sections, statefile.Section(s))
	}
	return statefile.Open(path, now, sections...)
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

// Every counted history declares its own section, under the name the state
// file has always used.
func TestEveryCountedHistoryHasItsSection(t *testing.T) {
	var names []string
	for _, s := range StateSections() {
		names = append(names, s.Name)
	}
	if got := strings.Join(names, " "); got != "api_keys funding_fees transfers withdrawals" {
		t.Errorf("sections %s", got)
	}
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
