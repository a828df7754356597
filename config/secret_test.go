package config

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/go-kit/log"
	"go.yaml.in/yaml/v3"
)

// testSecret is recognisable in any output it leaks into.
const testSecret = "S3CRET-must-never-be-printed-4f9a"

func TestSecretRevealReturnsValue(t *testing.T) {
	s := NewSecret(testSecret)
	if got := s.Reveal(); got != testSecret {
		t.Fatalf("Reveal() = %q, want %q", got, testSecret)
	}
	if s.IsZero() {
		t.Error("IsZero() = true for a non-empty secret")
	}
	if !(Secret{}).IsZero() || !NewSecret("").IsZero() {
		t.Error("IsZero() = false for an empty secret")
	}
}

func TestSecretIsRedactedEverywhere(t *testing.T) {
	sec := NewSecret(testSecret)
	acc := Account{Name: "main", APIKey: "AbCdEfGhIjKl", Secret: sec}
	outputs := map[string]string{}

	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%20s", "%-20v", "%.3s"} {
		outputs["Secret "+verb] = fmt.Sprintf(verb, sec)
		outputs["*Secret "+verb] = fmt.Sprintf(verb, &sec)
		outputs["Account "+verb] = fmt.Sprintf(verb, acc)
		outputs["*Account "+verb] = fmt.Sprintf(verb, &acc)
		outputs["[]Account "+verb] = fmt.Sprintf(verb, []Account{acc})
		outputs["map "+verb] = fmt.Sprintf(verb, map[string]Account{"a": acc})
	}
	outputs["Sprint"] = fmt.Sprint(sec, acc, &acc)
	outputs["Sprintln"] = fmt.Sprintln(sec, acc, &acc)
	outputs["String"] = sec.String()
	outputs["GoString"] = sec.GoString()
	outputs["error"] = fmt.Errorf("sign request with %v for %+v", sec, acc).Error()
	outputs["wrapped error"] = fmt.Errorf("outer: %w", errors.New(fmt.Sprint(acc))).Error()

	for name, v := range map[string]any{"Account": acc, "*Account": &acc, "[]Account": []Account{acc}, "Secret": sec} {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("json.Marshal(%s): %v", name, err)
		}
		outputs["json "+name] = string(b)
		b, err = yaml.Marshal(v)
		if err != nil {
			t.Fatalf("yaml.Marshal(%s): %v", name, err)
		}
		outputs["yaml "+name] = string(b)
		b, err = xml.Marshal(v)
		if err != nil {
			t.Fatalf("xml.Marshal(%s): %v", name, err)
		}
		outputs["xml "+name] = string(b)
	}
	text, err := sec.MarshalText()
	if err != nil {
		t.Fatal(err)
	}
	outputs["MarshalText"] = string(text)

	var slogBuf bytes.Buffer
	slogger := slog.New(slog.NewJSONHandler(&slogBuf, nil))
	slogger.Info("msg", "secret", sec, "account", acc, "ptr", &acc)
	slog.New(slog.NewTextHandler(&slogBuf, nil)).Info("msg", "secret", sec, "account", acc)
	outputs["slog"] = slogBuf.String()

	var kitBuf bytes.Buffer
	if err := log.NewLogfmtLogger(&kitBuf).Log("secret", sec, "account", acc, "ptr", &acc); err != nil {
		t.Fatal(err)
	}
	if err := log.NewJSONLogger(&kitBuf).Log("secret", sec, "account", acc); err != nil {
		t.Fatal(err)
	}
	outputs["go-kit log"] = kitBuf.String()

	for name, out := range outputs {
		if strings.Contains(out, testSecret) {
			t.Errorf("%s leaks the secret: %s", name, out)
		}
		if !strings.Contains(out, "redacted") { // JSON and XML escape the angle brackets
			t.Errorf("%s does not say %s: %s", name, redacted, out)
		}
	}
}

func TestCleanSecret(t *testing.T) {
	for _, tc := range []struct {
		raw, want, wantErr string
	}{
		{raw: "abc", want: "abc"},
		{raw: "abc\n", want: "abc"},
		{raw: "abc \t\r\n\n", want: "abc"},
		{raw: "", wantErr: "secret is empty"},
		{raw: " \n\t", wantErr: "secret is empty"},
		{raw: "abc\ndef\n", wantErr: "whitespace or control characters"},
		{raw: " abc", wantErr: "whitespace or control characters"},
		{raw: "ab\x00c", wantErr: "whitespace or control characters"},
	} {
		got, err := cleanSecret(tc.raw)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("cleanSecret(%q) error = %v, want it to contain %q", tc.raw, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got.Reveal() != tc.want {
			t.Errorf("cleanSecret(%q) = %q, %v; want %q", tc.raw, got.Reveal(), err, tc.want)
		}
	}
}

// What the loaders return keeps the secret only where it is redacted: the
// accounts read from a file and from the environment print and marshal
// without it.
func TestLoadedAccountsNeverShowTheSecret(t *testing.T) {
	dir := inTempConfigDir(t)
	fromFile, err := LoadFile(writeConfig(t, "accounts:\n  - {name: a, api_key: k, api_secret_file: secret}\n  - {name: b, api_key: k2, api_secret_env: WOOX_MAIN_SECRET}\n"), testEnv)
	if err != nil {
		t.Fatal(err)
	}
	fromEnv, err := FromEnv(fakeEnv(map[string]string{EnvAPIKey: "k", EnvAPISecret: testSecret}))
	if err != nil {
		t.Fatal(err)
	}
	fromEnvFile, err := FromEnv(fakeEnv(map[string]string{EnvAPIKey: "k", EnvAPISecretFile: dir + "/secret"}))
	if err != nil {
		t.Fatal(err)
	}
	loaded := []Account{fromFile[0], fromFile[1], *fromEnv, *fromEnvFile}
	secrets := map[string]bool{fileSecret: true, envSecret: true, testSecret: true}
	for _, a := range loaded {
		if !secrets[a.Secret.Reveal()] {
			t.Fatalf("account %s holds an unexpected secret", a.Name)
		}
	}
	var outputs []string
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q"} {
		outputs = append(outputs, fmt.Sprintf(verb, loaded), fmt.Sprintf(verb, fromEnv))
	}
	j, err := json.Marshal(loaded)
	if err != nil {
		t.Fatal(err)
	}
	y, err := yaml.Marshal(loaded)
	if err != nil {
		t.Fatal(err)
	}
	outputs = append(outputs, string(j), string(y))
	for _, out := range outputs {
		for s := range secrets {
			if strings.Contains(out, s) {
				t.Errorf("a loaded account shows its secret: %s", out)
			}
		}
	}
}

// wooxShapedSecret has the shape of a WOO X API secret: 28 uppercase letters
// and digits, which is also a valid environment variable name and file name.
const wooxShapedSecret = "K7QXW2MZP4RTB9HVN3CJD8LFY6GS"

// A secret pasted where its variable or file belongs is never echoed: the
// error names the field (and the file and line) instead.
func TestSecretPastedIntoANameFieldIsNeverEchoed(t *testing.T) {
	for _, tc := range []struct {
		name   string
		config string            // config.yml content; empty: the environment alone
		env    map[string]string // the environment
		want   string
	}{
		{
			name:   "api_secret_env holds the secret",
			config: "accounts:\n  - name: main\n    api_key: KEY1\n    api_secret_env: " + wooxShapedSecret + "\n",
			want:   "config.yml:4: accounts[0].api_secret_env: ",
		},
		{
			name:   "api_secret_env holds the secret and a variable of that name is blank",
			config: "accounts:\n  - name: main\n    api_key: KEY1\n    api_secret_env: " + wooxShapedSecret + "\n",
			env:    map[string]string{wooxShapedSecret: " "},
			want:   "config.yml:4: accounts[0].api_secret_env: ",
		},
		{
			name:   "api_secret_file holds the secret",
			config: "accounts:\n  - name: main\n    api_key: KEY1\n    api_secret_file: " + wooxShapedSecret + "\n",
			want:   "config.yml:4: accounts[0].api_secret_file: ",
		},
		{
			name: "WOOX_API_SECRET_FILE holds the secret",
			env:  map[string]string{EnvAPIKey: "KEY1", EnvAPISecretFile: wooxShapedSecret},
			want: "environment: WOOX_API_SECRET_FILE: ",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inTempConfigDir(t)
			path := ""
			if tc.config != "" {
				path = writeConfig(t, tc.config)
			}
			got, err := Load(path, fakeEnv(tc.env))
			if err == nil {
				t.Fatalf("Load = %+v, want an error", got)
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %q does not start with %q", err, tc.want)
			}
			if strings.Contains(err.Error(), wooxShapedSecret) {
				t.Errorf("error echoes the secret: %v", err)
			}
		})
	}
}
