package e2e

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
)

// A second exporter on a state file another one holds refuses to start,
// under --config.check too, naming the file; once the first has stopped,
// the file is free again.
func TestBinaryRefusesAStateFileAnotherExporterHolds(t *testing.T) {
	url := serveFake(t, startFake(t))
	dir := t.TempDir()
	state := filepath.Join(dir, "woox.json")
	args := []string{"--woox.api-url=" + url, "--config.file=" + accountsConfig(t, dir, "main"), "--token-history.state-file=" + state}
	first := exportertest.Start(t, defaultSecrets, args...)
	first.WaitReady(t)

	second := func(extra ...string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, exportertest.Binary(t), append(append([]string{"--web.listen-address=" + freeAddr(t)}, args...), extra...)...)
		cmd.Env = append([]string{"PATH=" + os.Getenv("PATH")}, defaultSecrets...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	for _, extra := range [][]string{nil, {"--config.check"}} {
		out, err := second(extra...)
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() == 0 {
			t.Fatalf("second exporter %v on a held state file: %v, want a non-zero exit\n%s", extra, err, out)
		}
		if !strings.Contains(out, state) || !strings.Contains(out, "in use by another exporter") {
			t.Errorf("second exporter %v: the error does not name %s and why:\n%s", extra, state, out)
		}
		if strings.Contains(out, "watching account") || strings.Contains(out, "OK") {
			t.Errorf("second exporter %v got as far as starting:\n%s", extra, out)
		}
	}
	if _, err := first.Ready(time.Second); err != nil {
		t.Errorf("the first exporter after the second one's attempt: %v", err)
	}
	first.Stop(t)

	if out, err := second("--config.check"); err != nil {
		t.Errorf("--config.check once the first exporter stopped: %v\n%s", err, out)
	}
}
