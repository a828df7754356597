package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fuzzSecret is what every secret file and environment variable holds in
// FuzzLoadFile; an error must never contain it.
const fuzzSecret = "FUZZ-SECRET-c0ffee-9d1b7a"

// FuzzLoadFile feeds arbitrary files to LoadFile. It must not panic, must not
// put a secret into an error, and must return only valid accounts. Secret
// files "secret" (0600), "secret-open" (0644) and "secret-empty" sit next to
// the config file; any environment variable but UNSET holds fuzzSecret.
func FuzzLoadFile(f *testing.F) {
	f.Add([]byte("accounts:\n  - name: main\n    api_key: KEY1\n    api_secret_file: secret\n  - name: hedging\n    api_key: KEY2\n    api_secret_env: WOOX_HEDGING_SECRET\n"))
	f.Add([]byte("accounts:\n  - {name: a, api_key: k, api_secret_file: secret-open}\n  - {name: a, api_key: k, api_secret_env: UNSET}\n"))
	f.Add([]byte("accounts:\n  - &x {name: a, api_key: k, api_secret: inline}\n  - *x\n"))
	f.Add([]byte(""))

	dir := f.TempDir()
	for name, content := range map[string]string{"secret": fuzzSecret + "\n", "secret-open": fuzzSecret, "secret-empty": "\n"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			f.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(dir, "secret-open"), 0o644); err != nil {
		f.Fatal(err)
	}
	cfg := filepath.Join(dir, "config.yml")
	lookup := func(k string) (string, bool) {
		if k == "UNSET" {
			return "", false
		}
		return fuzzSecret, true
	}

	f.Fuzz(func(t *testing.T, data []byte) {
		// The fuzz function runs sequentially within a worker process, so
		// the config file can be rewritten in place next to the secrets.
		if err := os.WriteFile(cfg, data, 0o600); err != nil {
			t.Fatal(err)
		}

		accounts, err := LoadFile(cfg, lookup)
		if err != nil {
			if accounts != nil {
				t.Errorf("LoadFile returned accounts with an error: %v", err)
			}
			// The input itself may spell out the secret, as a key for example.
			if strings.Contains(err.Error(), fuzzSecret) && !strings.Contains(string(data), fuzzSecret) {
				t.Errorf("error leaks the secret: %v", err)
			}
			return
		}
		if len(accounts) == 0 {
			t.Fatal("LoadFile returned no accounts and no error")
		}
		seen := map[string]bool{}
		for _, a := range accounts {
			if !accountNameRE.MatchString(a.Name) || seen[a.Name] {
				t.Errorf("invalid or duplicate account name %q", a.Name)
			}
			seen[a.Name] = true
			if checkAPIKey(a.APIKey) != nil {
				t.Errorf("account %q: invalid API key accepted", a.Name)
			}
			if a.Secret.Reveal() != fuzzSecret {
				t.Errorf("account %q: secret is not the one from the file or environment", a.Name)
			}
		}
	})
}
