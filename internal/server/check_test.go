package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"
)

// A password written where its bcrypt hash belongs is refused naming the
// user, saying it is not a hash and how to make one, never showing it.
func TestWebConfigPlainPasswordNamesTheUserAndHowToHash(t *testing.T) {
	hash, err := bcrypt.GenerateFromPassword([]byte("s3cret"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(users string) string {
		path := filepath.Join(dir, "web.yml")
		if err := os.WriteFile(path, []byte("basic_auth_users:\n"+users), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	if err := CheckWebConfigFile(write("  prometheus: " + string(hash) + "\n")); err != nil {
		t.Errorf("a bcrypt hash is refused: %v", err)
	}
	err = CheckWebConfigFile(write("  prometheus: " + string(hash) + "\n  grafana: plain-text-password\n"))
	if err == nil {
		t.Fatal("a plain-text password is accepted")
	}
	for _, want := range []string{`the password of user "grafana" is not a bcrypt hash`, `htpasswd -nBC 10 "" | tr -d ':\n'`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "plain-text-password") {
		t.Errorf("error shows the password: %q", err)
	}
}
