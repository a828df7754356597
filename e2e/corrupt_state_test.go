package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
)

// The warning about a corrupt state file names where and how it is
// corrupt, not what it holds: encoding/json's messages quote the file (a
// character, a field name).
func TestCorruptStateFileLogLineNamesTheOffsetNotTheContent(t *testing.T) {
	url := serveFake(t, startFake(t))
	for _, tc := range []struct{ name, content, want string }{
		{"not JSON", `{"version":1,"accounts":zq7content}`, "not JSON at byte offset 25"},
		{"unknown field", `{"version":1,"zq7content":{},"accounts":{}}`, "unknown field at byte offset 13"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			state := filepath.Join(dir, "woox.json")
			if err := os.WriteFile(state, []byte(tc.content), 0o600); err != nil {
				t.Fatal(err)
			}
			p := exportertest.Start(t, defaultSecrets, "--woox.api-url="+url, "--config.file="+accountsConfig(t, dir, "main"),
				"--token-history.state-file="+state)
			p.WaitReady(t)
			p.Stop(t)
			var warn string
			for _, line := range strings.Split(p.Output(), "\n") {
				if strings.Contains(line, "state file unusable") {
					warn = line
				}
			}
			if !strings.Contains(warn, tc.want) {
				t.Errorf("warning %q does not name %q\n%s", warn, tc.want, p.Output())
			}
			if strings.Contains(p.Output(), "zq7") || strings.Contains(p.Output(), "'z'") {
				t.Errorf("the log quotes the state file:\n%s", p.Output())
			}
		})
	}
}
