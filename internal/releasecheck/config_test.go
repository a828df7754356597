package releasecheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/woox-exporter/woox_exporter/config"
)

const (
	defaultSrc  = repoRoot + "/deploy/systemd/woox_exporter.default"
	accountsSrc = repoRoot + "/deploy/systemd/accounts.yml"
)

var secretFileField = regexp.MustCompile(`(?m)^(\s*api_secret_file:\s*)(\S+)\s*$`)

// configProblems holds the files the packages install to the unit at
// unitPath: the secret paths of the /etc/default file and of the example
// accounts file are where LoadCredential= puts the credentials, the state
// file is in StateDirectory=, and the example loads as the exporter's
// configuration once its secrets exist.
func configProblems(t *testing.T, unitPath, defaultPath, accountsPath string) []string {
	t.Helper()
	settings := unitSettings(t, unitPath)
	id, src, _ := strings.Cut(setting(settings, "LoadCredential"), ":")
	creds := "/run/credentials/" + unitName + "/" + id + "_"
	var problems []string
	b, err := os.ReadFile(defaultPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"\n#WOOX_API_KEY=\n",
		"\n#WOOX_API_SECRET_FILE=" + creds + "default\n",
		`ARGS="--token-history.state-file=/var/lib/` + setting(settings, "StateDirectory") + "/",
	} {
		if !strings.Contains(string(b), want) {
			problems = append(problems, defaultPath+" has no line "+strings.TrimSpace(want)+" (LoadCredential="+id+":"+src+", StateDirectory=)")
		}
	}
	b, err = os.ReadFile(accountsPath)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret")
	if err := os.WriteFile(secret, []byte("SECRET\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	fields := secretFileField.FindAllStringSubmatch(string(b), -1)
	for _, m := range fields {
		if !strings.HasPrefix(m[2], creds) {
			problems = append(problems, accountsPath+": api_secret_file "+m[2]+" is not a credential of LoadCredential="+id+":"+src+" ("+creds+"NAME)")
		}
	}
	local := filepath.Join(dir, "accounts.yml")
	if err := os.WriteFile(local, []byte(secretFileField.ReplaceAllString(string(b), "${1}"+secret)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := config.Load(local, func(string) (string, bool) { return "", false }); err != nil || len(fields) == 0 {
		problems = append(problems, accountsPath+" does not load as a configuration with its secrets in place: "+errString(err))
	}
	return problems
}

func errString(err error) string {
	if err == nil {
		return "it names no api_secret_file"
	}
	return err.Error()
}

func TestConfigFilesNameTheUnitsCredentials(t *testing.T) {
	for _, p := range configProblems(t, unitFile, defaultSrc, accountsSrc) {
		t.Error(p)
	}
	renamed := unitCopy(t, unitFile, func(s string) string {
		return strings.Replace(s, "LoadCredential=secret:", "LoadCredential=secrets:", 1)
	})
	ps := configProblems(t, renamed, defaultSrc, accountsSrc)
	if !containsLine(ps, "woox_exporter.default has no line #WOOX_API_SECRET_FILE=") || !containsLine(ps, "accounts.yml: api_secret_file") {
		t.Errorf("a unit whose credentials are renamed: want a problem naming each file, got %q", ps)
	}
}
