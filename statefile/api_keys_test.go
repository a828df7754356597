package statefile

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/woox-exporter/woox_exporter/ledger"
)

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func sampleAPIKeys() APIKeys {
	return APIKeys{digest("key-1"): {AllowedIPs: digest("ips"), Permissions: digest("perms"), AllowedIPsChanges: 3, PermissionChanges: 1}}
}

// What was seen of the keys comes back after a reopen, beside the token
// history and transfer states, and saving another section keeps it.
func TestAPIKeyStatesSurviveOtherSavesAndAReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	s, err := Open(path, openTime)
	if err != nil {
		t.Fatal(err)
	}
	want := sampleAPIKeys()
	if err := s.SaveAPIKeys("main", want); err != nil {
		t.Fatal(err)
	}
	s2 := saveTheOthersAndReopen(t, s)
	if got := s2.APIKeyStates()["main"]; !reflect.DeepEqual(got, want) {
		t.Errorf("restored %+v\nwant %+v", got, want)
	}
	// A copy: changing it changes nothing saved.
	s2.APIKeyStates()["main"][digest("key-1")] = APIKey{}
	if got := s2.APIKeyStates()["main"]; !reflect.DeepEqual(got, want) {
		t.Errorf("APIKeyStates handed out the store's own map: %+v", got)
	}
}

// A file written before API keys were saved loads unchanged and is written
// back without the section.
func TestAStateFileWithoutAPIKeysStillLoadsAndIsWrittenAsBefore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	old, err := EncodeDocument(Document{Transfers: map[string]ledger.TransfersState{"main": sampleTransfers(t)}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(old), "api_keys") {
		t.Fatal("a document without API keys names them")
	}
	if err := os.WriteFile(path, old, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, openTime)
	if err != nil || s.Corruption() != nil {
		t.Fatalf("open: %v, corruption %v", err, s.Corruption())
	}
	if len(s.APIKeyStates()) != 0 || len(s.TransferStates()) != 1 {
		t.Fatalf("api key states %d, transfer states %d", len(s.APIKeyStates()), len(s.TransferStates()))
	}
	if err := s.Save("main", sampleState(t, 1)); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); strings.Contains(string(b), "api_keys") {
		t.Errorf("written with an api_keys section nothing saved:\n%s", b)
	}
}

// Only digests are kept: an address or a key in clear, in a file or handed
// to SaveAPIKeys, is refused.
func TestAPIKeysInClearAreRefused(t *testing.T) {
	for _, tc := range []struct{ name, keys string }{
		{"address in clear", `{"` + digest("k") + `": {"allowed_ips_sha256": "10.0.0.1", "permissions_sha256": "` + digest("p") + `"}}`},
		{"key in clear", `{"AbCdEf==": {"allowed_ips_sha256": "` + digest("i") + `", "permissions_sha256": "` + digest("p") + `"}}`},
		{"upper-case hex", `{"` + strings.ToUpper(digest("k")) + `": {"allowed_ips_sha256": "` + digest("i") + `", "permissions_sha256": "` + digest("p") + `"}}`},
		{"unknown field", `{"` + digest("k") + `": {"allowed_ips": ["10.0.0.1"], "allowed_ips_sha256": "` + digest("i") + `", "permissions_sha256": "` + digest("p") + `"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "state.json")
			doc := `{"version": 1, "accounts": {}, "api_keys": {"main": ` + tc.keys + `}}`
			if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
				t.Fatal(err)
			}
			s, err := Open(path, openTime)
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
	s, err := Open(filepath.Join(t.TempDir(), "state.json"), openTime)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SaveAPIKeys("main", APIKeys{digest("k"): {AllowedIPs: "10.0.0.1", Permissions: digest("p")}}); err == nil {
		t.Error("SaveAPIKeys took an address in clear")
	}
	if _, err := os.Stat(s.Path()); err == nil {
		t.Error("a file was written")
	}
}
