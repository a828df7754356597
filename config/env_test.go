package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeSecretFile writes content to dir/name with exactly mode, whatever the
// umask, and returns its path.
func writeSecretFile(t *testing.T, dir, name, content string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
	return p
}

// fakeEnv is a Lookup that sees only vars.
func fakeEnv(vars map[string]string) Lookup {
	return func(k string) (string, bool) {
		v, ok := vars[k]
		return v, ok
	}
}

func TestFromEnv(t *testing.T) {
	dir := t.TempDir()
	good := writeSecretFile(t, dir, "good", testSecret+"\n", 0o600)
	open := writeSecretFile(t, dir, "open", testSecret+"\n", 0o644)
	empty := writeSecretFile(t, dir, "empty", "\n", 0o600)

	for _, tc := range []struct {
		name    string
		env     map[string]string
		want    *Account
		wantErr []string // substrings of the error
	}{
		{name: "nothing set means no account", env: nil, want: nil},
		{
			name: "key and secret",
			env:  map[string]string{EnvAPIKey: "key1", EnvAPISecret: testSecret},
			want: &Account{Name: "default", APIKey: "key1", Secret: NewSecret(testSecret)},
		},
		{
			name: "secret trailing newline is trimmed",
			env:  map[string]string{EnvAPIKey: "key1", EnvAPISecret: testSecret + "\n"},
			want: &Account{Name: "default", APIKey: "key1", Secret: NewSecret(testSecret)},
		},
		{
			name: "key and secret file",
			env:  map[string]string{EnvAPIKey: "key1", EnvAPISecretFile: good},
			want: &Account{Name: "default", APIKey: "key1", Secret: NewSecret(testSecret)},
		},
		{
			name:    "key without secret",
			env:     map[string]string{EnvAPIKey: "key1"},
			wantErr: []string{"WOOX_API_KEY is set but neither WOOX_API_SECRET nor WOOX_API_SECRET_FILE is"},
		},
		{
			name:    "secret without key",
			env:     map[string]string{EnvAPISecret: testSecret},
			wantErr: []string{"WOOX_API_SECRET is set but WOOX_API_KEY is not"},
		},
		{
			name:    "secret file without key",
			env:     map[string]string{EnvAPISecretFile: good},
			wantErr: []string{"WOOX_API_SECRET_FILE is set but WOOX_API_KEY is not"},
		},
		{
			name:    "both secret variables",
			env:     map[string]string{EnvAPIKey: "key1", EnvAPISecret: testSecret, EnvAPISecretFile: good},
			wantErr: []string{"WOOX_API_SECRET and WOOX_API_SECRET_FILE are both set; set only one"},
		},
		{
			name:    "both secret variables without key",
			env:     map[string]string{EnvAPISecret: testSecret, EnvAPISecretFile: good},
			wantErr: []string{"WOOX_API_SECRET and WOOX_API_SECRET_FILE are both set"},
		},
		{
			name:    "secret set but empty",
			env:     map[string]string{EnvAPIKey: "key1", EnvAPISecret: ""},
			wantErr: []string{"environment: WOOX_API_SECRET is set but empty: give it a value, or unset it"},
		},
		{
			name:    "secret file variable set but empty",
			env:     map[string]string{EnvAPIKey: "key1", EnvAPISecretFile: ""},
			wantErr: []string{"environment: WOOX_API_SECRET_FILE is set but empty"},
		},
		{
			name:    "key set but empty",
			env:     map[string]string{EnvAPIKey: "", EnvAPISecret: testSecret},
			wantErr: []string{"environment: WOOX_API_KEY is set but empty"},
		},
		{
			name:    "whitespace-only secret",
			env:     map[string]string{EnvAPIKey: "key1", EnvAPISecret: " \n"},
			wantErr: []string{"WOOX_API_SECRET: secret is empty"},
		},
		{
			name:    "key with a space",
			env:     map[string]string{EnvAPIKey: "key1 ", EnvAPISecret: testSecret},
			wantErr: []string{"WOOX_API_KEY: must not contain whitespace"},
		},
		{
			name:    "secret file readable by others",
			env:     map[string]string{EnvAPIKey: "key1", EnvAPISecretFile: open},
			wantErr: []string{"WOOX_API_SECRET_FILE: secret file has mode 0644 and is readable by other users; run chmod o-rwx on it"},
		},
		{
			name:    "secret file missing",
			env:     map[string]string{EnvAPIKey: "key1", EnvAPISecretFile: filepath.Join(dir, "missing")},
			wantErr: []string{"WOOX_API_SECRET_FILE: read secret file: no such file or directory"},
		},
		{
			name:    "secret file empty",
			env:     map[string]string{EnvAPIKey: "key1", EnvAPISecretFile: empty},
			wantErr: []string{"WOOX_API_SECRET_FILE: secret file: secret is empty"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FromEnv(fakeEnv(tc.env))
			if tc.wantErr != nil {
				if err == nil {
					t.Fatalf("FromEnv() = %+v, want an error", got)
				}
				if got != nil {
					t.Errorf("FromEnv() returned %+v with the error", got)
				}
				for _, want := range tc.wantErr {
					if !strings.Contains(err.Error(), want) {
						t.Errorf("error %q does not contain %q", err, want)
					}
				}
				if strings.Contains(err.Error(), testSecret) {
					t.Errorf("error leaks the secret: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("FromEnv(): %v", err)
			}
			if (got == nil) != (tc.want == nil) || (got != nil && *got != *tc.want) {
				t.Errorf("FromEnv() = %+v (secret %q), want %+v (secret %q)", got, revealOf(got), tc.want, revealOf(tc.want))
			}
		})
	}
}

func revealOf(a *Account) string {
	if a == nil {
		return ""
	}
	return a.Secret.Reveal()
}

func TestLoadPicksOneSource(t *testing.T) {
	dir := t.TempDir()
	writeSecretFile(t, dir, "secret", "file-secret\n", 0o600)
	cfg := filepath.Join(dir, "config.yml")
	if err := os.WriteFile(cfg, []byte("accounts:\n  - name: main\n    api_key: filekey\n    api_secret_file: secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := fakeEnv(map[string]string{EnvAPIKey: "envkey", EnvAPISecret: "env-secret"})

	t.Run("file given", func(t *testing.T) {
		got, err := Load(cfg, fakeEnv(nil))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].Name != "main" || got[0].APIKey != "filekey" || got[0].Secret.Reveal() != "file-secret" {
			t.Errorf("Load(file) = %+v, want only the file's account", got)
		}
	})
	// The account the environment describes would not be watched: each of
	// its variables beside a file is refused, naming both.
	for _, v := range []string{EnvAPIKey, EnvAPISecret, EnvAPISecretFile} {
		t.Run("file given: "+v+" refused", func(t *testing.T) {
			got, err := Load(cfg, fakeEnv(map[string]string{v: "x"}))
			if got != nil || err == nil || !strings.Contains(err.Error(), v+" is set beside --config.file") {
				t.Errorf("Load(file) with %s = %+v, %v; want an error naming both", v, got, err)
			}
		})
	}
	t.Run("file given: a secret variable it names is read", func(t *testing.T) {
		named := filepath.Join(dir, "named.yml")
		if err := os.WriteFile(named, []byte("accounts:\n  - {name: main, api_key: filekey, api_secret_env: "+EnvAPISecret+"}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := Load(named, fakeEnv(map[string]string{EnvAPISecret: "env-secret"}))
		if err != nil || len(got) != 1 || got[0].Secret.Reveal() != "env-secret" {
			t.Errorf("Load(file naming %s) = %+v, %v; want its account", EnvAPISecret, got, err)
		}
	})
	t.Run("no file: environment", func(t *testing.T) {
		got, err := Load("", env)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0].Name != DefaultAccountName || got[0].APIKey != "envkey" || got[0].Secret.Reveal() != "env-secret" {
			t.Errorf("Load(\"\") = %+v, want the environment's account", got)
		}
	})
	t.Run("neither: no accounts", func(t *testing.T) {
		got, err := Load("", fakeEnv(nil))
		if got != nil || err != nil {
			t.Errorf("Load(\"\") = %+v, %v; want nil, nil", got, err)
		}
	})
	t.Run("environment error", func(t *testing.T) {
		got, err := Load("", fakeEnv(map[string]string{EnvAPIKey: "envkey"}))
		if got != nil || err == nil {
			t.Errorf("Load(\"\") = %+v, %v; want an error", got, err)
		}
	})
	t.Run("missing file is an error", func(t *testing.T) {
		got, err := Load(filepath.Join(dir, "nope.yml"), env)
		if got != nil || err == nil || !strings.Contains(err.Error(), "read config file") {
			t.Errorf("Load(missing) = %+v, %v; want a read error", got, err)
		}
	})
}
