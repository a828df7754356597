package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fileSecret and envSecret are the secrets the test files and environment
// hold; no error may contain them.
const (
	fileSecret = "FILE-" + testSecret
	envSecret  = "ENV-" + testSecret
)

// inTempConfigDir moves into a fresh directory holding secret files of
// several kinds, so that errors name "config.yml" as an operator would see it.
func inTempConfigDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	writeSecretFile(t, dir, "secret", fileSecret+"\n", 0o600)
	writeSecretFile(t, dir, "secret-0644", fileSecret+"\n", 0o644)
	writeSecretFile(t, dir, "secret-0604", fileSecret+"\n", 0o604)
	writeSecretFile(t, dir, "secret-empty", "\n\n", 0o600)
	writeSecretFile(t, dir, "secret-two-lines", fileSecret+"\n"+fileSecret+"\n", 0o600)
	if err := os.Mkdir(filepath.Join(dir, "secret-dir"), 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

func writeConfig(t *testing.T, content string) string {
	t.Helper()
	if err := os.WriteFile("config.yml", []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return "config.yml"
}

var testEnv = fakeEnv(map[string]string{
	"WOOX_MAIN_SECRET":  envSecret,
	"WOOX_BLANK_SECRET": " \n",
	"WOOX_EMPTY_SECRET": "",
})

func TestLoadFileValid(t *testing.T) {
	dir := inTempConfigDir(t)
	abs := filepath.Join(dir, "secret")
	cfg := writeConfig(t, `# Two accounts, one secret from a file, one from the environment.
accounts:
  - name: main
    api_key: "KEYMAIN1234"
    api_secret_file: `+abs+`
  - name: hedging.eu-1_b
    api_key: KEYHEDGE5678
    api_secret_env: WOOX_MAIN_SECRET
  - name: relative
    api_key: KEYREL
    api_secret_file: secret
`)
	got, err := LoadFile(cfg, testEnv)
	if err != nil {
		t.Fatalf("LoadFile: %v", err)
	}
	want := []Account{
		{Name: "main", APIKey: "KEYMAIN1234", Secret: NewSecret(fileSecret)},
		{Name: "hedging.eu-1_b", APIKey: "KEYHEDGE5678", Secret: NewSecret(envSecret), SecretEnv: "WOOX_MAIN_SECRET"},
		{Name: "relative", APIKey: "KEYREL", Secret: NewSecret(fileSecret)},
	}
	if len(got) != len(want) {
		t.Fatalf("LoadFile returned %d accounts, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("account %d = %+v (secret %q), want %+v (secret %q)", i, got[i], got[i].Secret.Reveal(), want[i], want[i].Secret.Reveal())
		}
	}
}

func TestLoadFileRelativeSecretPathIsRelativeToConfigDir(t *testing.T) {
	dir := t.TempDir()
	writeSecretFile(t, dir, "secret", fileSecret, 0o600)
	cfg := filepath.Join(dir, "config.yml")
	if err := os.WriteFile(cfg, []byte("accounts:\n  - {name: a, api_key: k, api_secret_file: secret}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir()) // somewhere without a file called secret
	got, err := LoadFile(cfg, testEnv)
	if err != nil {
		t.Fatalf("LoadFile: %v", err)
	}
	if len(got) != 1 || got[0].Secret.Reveal() != fileSecret {
		t.Errorf("LoadFile = %+v, want one account with the secret from %s", got, dir)
	}
}

func TestLoadFileErrors(t *testing.T) {
	// account is a valid account for cases that need a second one.
	const account = "  - name: main\n    api_key: KEY1\n    api_secret_env: WOOX_MAIN_SECRET\n"
	for _, tc := range []struct {
		name   string
		config string
		want   []string // each a line of the error, or the start of one
	}{
		{name: "empty file", config: "", want: []string{"config.yml: no accounts: the file is empty"}},
		{name: "only comments", config: "# nothing\n", want: []string{"config.yml: no accounts: the file is empty"}},
		{name: "empty document", config: "---\n", want: []string{"config.yml:2: no accounts: the file is empty"}},
		{name: "accounts null", config: "accounts:\n", want: []string{"config.yml:1: accounts: no accounts listed"}},
		{name: "accounts empty list", config: "accounts: []\n", want: []string{"config.yml:1: accounts: no accounts listed"}},
		{name: "no accounts field", config: "{}\n", want: []string{"config.yml:1: accounts: required: list at least one account"}},
		{name: "accounts not a list", config: "accounts:\n  name: main\n", want: []string{"config.yml:2: accounts: expected a list of accounts, got a mapping"}},
		{name: "top level is a list", config: "- name: main\n", want: []string{"config.yml:1: expected a mapping with an accounts list, got a list"}},
		{name: "top level is a scalar", config: "hello\n", want: []string{"config.yml:1: expected a mapping with an accounts list, got a scalar"}},
		{name: "unknown top-level field", config: "accounts:\n" + account + "scrape_interval: 5s\n", want: []string{"config.yml:5: scrape_interval: unknown field"}},
		{name: "odd top-level field is quoted", config: "accounts:\n" + account + "\"a b\": 1\n", want: []string{`config.yml:5: ["a b"]: unknown field`}},
		{name: "duplicate top-level field", config: "accounts:\n" + account + "accounts:\n" + account, want: []string{"config.yml:5: accounts: duplicate field, first given at line 1"}},
		{name: "invalid YAML", config: "accounts: []\nb: 2\nc 2\nd: 3\n", want: []string{"config.yml:3: invalid YAML: could not find expected ':'"}},
		// The line of the mistake, not where its block began.
		{name: "account indented one space short", config: "accounts:\n  - name: main\n    api_key: abc\n    api_secret_env: X\n  - name: b\n   api_key: k\n",
			want: []string{"config.yml:6: invalid YAML: did not find expected '-' indicator"}},
		{name: "field outdented", config: "accounts:\n  - name: main\n    api_key: abc\n  api_secret_env: X\n",
			want: []string{"config.yml:4: invalid YAML: did not find expected '-' indicator"}},
		{name: "tab for indentation", config: "accounts:\n  - name: main\n    api_key: abc\n\tapi_secret_env: X\n",
			want: []string{"config.yml:4: invalid YAML: found a tab character that violates indentation"}},
		{name: "flow list not closed", config: "accounts:\n  - name: main\n    api_key: [abc\n    api_secret_env: X\n",
			want: []string{"config.yml:3: invalid YAML: did not find expected ',' or ']'"}},
		{name: "unknown anchor", config: "accounts: *nope\n", want: []string{"config.yml: invalid YAML: unknown anchor 'nope' referenced"}},
		{name: "two documents", config: "accounts:\n" + account + "---\naccounts:\n" + account, want: []string{"config.yml:5: only one YAML document is allowed"}},
		{name: "account not a mapping", config: "accounts:\n  - main\n", want: []string{"config.yml:2: accounts[0]: expected an account"}},
		{
			name:   "inline secret",
			config: "accounts:\n  - name: main\n    api_key: KEY1\n    api_secret: " + fileSecret + "\n",
			want: []string{
				"config.yml:2: accounts[0]: one of api_secret_file or api_secret_env is required",
				"config.yml:4: accounts[0].api_secret: secrets are not accepted in the config file; put the secret in a file and set api_secret_file, or in an environment variable and set api_secret_env",
			},
		},
		{name: "unknown account field", config: "accounts:\n" + account + "    region: eu\n", want: []string{"config.yml:5: accounts[0].region: unknown field (known fields: name, api_key, api_secret_file, api_secret_env)"}},
		{name: "duplicate account field", config: "accounts:\n" + account + "    name: other\n", want: []string{"config.yml:5: accounts[0].name: duplicate field, first given at line 2"}},
		{name: "field not a string", config: "accounts:\n  - name: [a, b]\n    api_key: KEY1\n    api_secret_env: WOOX_MAIN_SECRET\n", want: []string{"config.yml:2: accounts[0].name: expected a string, got a list"}},
		{name: "name missing", config: "accounts:\n  - api_key: KEY1\n    api_secret_env: WOOX_MAIN_SECRET\n", want: []string{"config.yml:2: accounts[0].name: required"}},
		{name: "name empty", config: "accounts:\n  - name: \"\"\n    api_key: KEY1\n    api_secret_env: WOOX_MAIN_SECRET\n", want: []string{"config.yml:2: accounts[0].name: must not be empty"}},
		{name: "name null", config: "accounts:\n  - name: ~\n    api_key: KEY1\n    api_secret_env: WOOX_MAIN_SECRET\n", want: []string{"config.yml:2: accounts[0].name: must not be empty"}},
		{name: "name with a space", config: "accounts:\n  - name: my main\n    api_key: KEY1\n    api_secret_env: WOOX_MAIN_SECRET\n", want: []string{`config.yml:2: accounts[0].name: "my main" must match ^[a-zA-Z0-9_.-]+$`}},
		{name: "name with a slash", config: "accounts:\n  - name: a/b\n    api_key: KEY1\n    api_secret_env: WOOX_MAIN_SECRET\n", want: []string{`config.yml:2: accounts[0].name: "a/b" must match`}},
		{name: "name not ASCII", config: "accounts:\n  - name: haupt-konto-ä\n    api_key: KEY1\n    api_secret_env: WOOX_MAIN_SECRET\n", want: []string{`config.yml:2: accounts[0].name: "haupt-konto-ä" must match`}},
		{name: "duplicate name", config: "accounts:\n" + account + account, want: []string{
			`config.yml:5: accounts[1].name: duplicate account name "main", first defined at line 2`,
			`config.yml:6: accounts[1].api_key: the same API key as account "main" (line 3): both would poll one account and spend its one rate limit twice; list each account once`}},
		{name: "one key under two names", config: "accounts:\n" + account + strings.Replace(account, "name: main", "name: hedge", 1), want: []string{
			`config.yml:6: accounts[1].api_key: the same API key as account "main" (line 3): both would poll one account and spend its one rate limit twice; list each account once`}},
		{name: "api_key missing", config: "accounts:\n  - name: main\n    api_secret_env: WOOX_MAIN_SECRET\n", want: []string{"config.yml:2: accounts[0].api_key: required"}},
		{name: "api_key empty", config: "accounts:\n  - name: main\n    api_key: ''\n    api_secret_env: WOOX_MAIN_SECRET\n", want: []string{"config.yml:3: accounts[0].api_key: must not be empty"}},
		{name: "api_key with a space", config: "accounts:\n  - name: main\n    api_key: 'KEY 1'\n    api_secret_env: WOOX_MAIN_SECRET\n", want: []string{"config.yml:3: accounts[0].api_key: must not contain whitespace or control characters"}},
		{name: "no secret", config: "accounts:\n  - name: main\n    api_key: KEY1\n", want: []string{"config.yml:2: accounts[0]: one of api_secret_file or api_secret_env is required"}},
		{name: "both secrets", config: "accounts:\n" + account + "    api_secret_file: secret\n", want: []string{"config.yml:5: accounts[0]: api_secret_file and api_secret_env are mutually exclusive; set only one"}},
		{name: "api_secret_file empty", config: "accounts:\n  - name: main\n    api_key: KEY1\n    api_secret_file: ''\n", want: []string{"config.yml:4: accounts[0].api_secret_file: must not be empty"}},
		{name: "api_secret_file missing", config: "accounts:\n  - name: main\n    api_key: KEY1\n    api_secret_file: nope\n", want: []string{"config.yml:4: accounts[0].api_secret_file: read secret file: no such file or directory"}},
		{name: "api_secret_file mode 0644", config: "accounts:\n  - name: main\n    api_key: KEY1\n    api_secret_file: secret-0644\n", want: []string{"config.yml:4: accounts[0].api_secret_file: secret file has mode 0644 and is readable by other users; run chmod o-rwx on it"}},
		{name: "api_secret_file mode 0604", config: "accounts:\n  - name: main\n    api_key: KEY1\n    api_secret_file: secret-0604\n", want: []string{"config.yml:4: accounts[0].api_secret_file: secret file has mode 0604 and is readable by other users"}},
		{name: "api_secret_file empty content", config: "accounts:\n  - name: main\n    api_key: KEY1\n    api_secret_file: secret-empty\n", want: []string{"config.yml:4: accounts[0].api_secret_file: secret file: secret is empty"}},
		{name: "api_secret_file two lines", config: "accounts:\n  - name: main\n    api_key: KEY1\n    api_secret_file: secret-two-lines\n", want: []string{"config.yml:4: accounts[0].api_secret_file: secret file: secret contains whitespace or control characters"}},
		{name: "api_secret_file a directory", config: "accounts:\n  - name: main\n    api_key: KEY1\n    api_secret_file: secret-dir\n", want: []string{"config.yml:4: accounts[0].api_secret_file: secret file is not a regular file"}},
		{name: "api_secret_env empty", config: "accounts:\n  - name: main\n    api_key: KEY1\n    api_secret_env:\n", want: []string{"config.yml:4: accounts[0].api_secret_env: must not be empty"}},
		{name: "api_secret_env not a name", config: "accounts:\n  - name: main\n    api_key: KEY1\n    api_secret_env: " + fileSecret + "\n", want: []string{"config.yml:4: accounts[0].api_secret_env: must be the name of an environment variable"}},
		{name: "api_secret_env whitespace only", config: "accounts:\n  - name: main\n    api_key: KEY1\n    api_secret_env: WOOX_BLANK_SECRET\n", want: []string{"config.yml:4: accounts[0].api_secret_env: the environment variable it names: secret is empty"}},
		{
			name: "api_secret_env unset",
			config: `accounts:
  - name: main
    api_key: "KEY1"
    api_secret_file: secret
  - name: hedging
    api_key: "KEY2"
    api_secret_env: WOOX_HEDGING_SECRET
`,
			want: []string{"config.yml:7: accounts[1].api_secret_env: the environment variable it names is not set"},
		},
		{
			name: "api_secret_env set but empty",
			config: `accounts:
  - name: main
    api_key: "KEY1"
    api_secret_env: WOOX_EMPTY_SECRET
`,
			want: []string{"config.yml:4: accounts[0].api_secret_env: the environment variable it names is set but empty"},
		},
		{
			name: "every problem is reported, in line order",
			config: `accounts:
  - name: a b
    api_key: ""
    api_secret_env: UNSET
    extra: 1
  - name: ok
    api_key: KEY2
    api_secret_file: secret-0644
`,
			want: []string{
				`config.yml:2: accounts[0].name: "a b" must match`,
				"config.yml:3: accounts[0].api_key: must not be empty",
				"config.yml:4: accounts[0].api_secret_env: the environment variable it names is not set",
				"config.yml:5: accounts[0].extra: unknown field",
				"config.yml:8: accounts[1].api_secret_file: secret file has mode 0644",
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inTempConfigDir(t)
			cfg := writeConfig(t, tc.config)
			got, err := LoadFile(cfg, testEnv)
			if err == nil {
				t.Fatalf("LoadFile = %+v, want an error", got)
			}
			if got != nil {
				t.Errorf("LoadFile returned %+v with the error", got)
			}
			lines := strings.Split(err.Error(), "\n")
			if len(lines) != len(tc.want) {
				t.Errorf("error has %d lines, want %d:\n%v", len(lines), len(tc.want), err)
			}
			for i, want := range tc.want {
				if i < len(lines) && !strings.HasPrefix(lines[i], want) {
					t.Errorf("error line %d\n  = %q\nwant %q...", i, lines[i], want)
				}
			}
			for _, s := range []string{fileSecret, envSecret, testSecret} {
				if strings.Contains(err.Error(), s) {
					t.Errorf("error leaks a secret: %v", err)
				}
			}
		})
	}
}

// Owner and group may read (Kubernetes mounts secrets 0440 with fsGroup for a
// non-root container); other users may neither read nor write.
func TestLoadFileSecretFilePermissions(t *testing.T) {
	for _, tc := range []struct {
		mode os.FileMode
		ok   bool
		why  string
	}{
		{0o600, true, ""},
		{0o400, true, ""},
		{0o700, true, ""},
		{0o440, true, ""},
		{0o640, true, ""},
		{0o660, true, ""},
		{0o750, true, ""},
		{0o644, false, "readable"},
		{0o604, false, "readable"},
		{0o444, false, "readable"},
		{0o602, false, "writable"},
		{0o622, false, "writable"},
		{0o666, false, "readable"},
	} {
		t.Run(tc.mode.String(), func(t *testing.T) {
			dir := inTempConfigDir(t)
			writeSecretFile(t, dir, "s", fileSecret, tc.mode)
			_, err := LoadFile(writeConfig(t, "accounts:\n  - {name: a, api_key: k, api_secret_file: s}\n"), testEnv)
			if tc.ok {
				if err != nil {
					t.Errorf("mode %04o: %v", tc.mode, err)
				}
				return
			}
			want := fmt.Sprintf("secret file has mode %04o and is %s by other users; run chmod o-rwx on it", tc.mode, tc.why)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("mode %04o: error = %v, want it to contain %q ", tc.mode, err, want)
			}
		})
	}
}

func TestLoadFileUnreadable(t *testing.T) {
	t.Run("config file is a directory", func(t *testing.T) {
		dir := t.TempDir()
		_, err := LoadFile(dir, testEnv)
		if err == nil || err.Error() != "config file "+dir+" is not a regular file" {
			t.Errorf("error = %v, want one naming %s as not a regular file", err, dir)
		}
	})
	// Holds for root too (a directory as the secret file is in the table above).
	t.Run("secret file below a plain file", func(t *testing.T) {
		dir := inTempConfigDir(t)
		writeSecretFile(t, dir, "plain", fileSecret, 0o600)
		_, err := LoadFile(writeConfig(t, "accounts:\n  - {name: a, api_key: k, api_secret_file: plain/secret}\n"), testEnv)
		want := "config.yml:2: accounts[0].api_secret_file: read secret file: not a directory"
		if err == nil || err.Error() != want {
			t.Errorf("error = %v, want %s", err, want)
		}
	})
	if os.Geteuid() == 0 {
		// Root reads files whatever their mode: see the permission errors
		// as another user.
		rerunUnprivileged(t, "TestLoadFileUnreadable", "config_file_not_readable", "secret_file_not_readable")
		return
	}
	t.Run("config file not readable", func(t *testing.T) {
		inTempConfigDir(t)
		cfg := writeConfig(t, "accounts:\n  - {name: a, api_key: k, api_secret_file: secret}\n")
		if err := os.Chmod(cfg, 0o200); err != nil {
			t.Fatal(err)
		}
		_, err := LoadFile(cfg, testEnv)
		if err == nil || !strings.Contains(err.Error(), "read config file: open config.yml: permission denied") {
			t.Errorf("error = %v, want permission denied on config.yml", err)
		}
	})
	t.Run("secret file not readable", func(t *testing.T) {
		dir := inTempConfigDir(t)
		writeSecretFile(t, dir, "secret-0200", fileSecret, 0o200)
		_, err := LoadFile(writeConfig(t, "accounts:\n  - {name: a, api_key: k, api_secret_file: secret-0200}\n"), testEnv)
		want := "config.yml:2: accounts[0].api_secret_file: read secret file: permission denied"
		if err == nil || err.Error() != want {
			t.Errorf("error = %v, want %s", err, want)
		}
	})
}
