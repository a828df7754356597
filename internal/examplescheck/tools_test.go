package examplescheck

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

const (
	examples          = "../../examples"
	prometheusFile    = examples + "/prometheus.yml"
	alertmanagerFile  = examples + "/alertmanager.yml"
	composeFile       = examples + "/docker-compose.yml"
	alertsDir         = "../../alerts"
	containerRulesDir = "/etc/prometheus/rules/"
)

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func report(t *testing.T, problems []string) {
	t.Helper()
	for _, p := range problems {
		t.Error(p)
	}
}

// run is nil when the command succeeds, else one problem: what ran, how it
// failed and its output.
func run(what string, cmd *exec.Cmd) []string {
	out, err := cmd.CombinedOutput()
	if err == nil {
		return nil
	}
	return []string{fmt.Sprintf("%s: %v\n%s", what, err, out)}
}

// prometheusConfigProblems: promtool loads the Prometheus configuration
// config, which names the rules by their path in the container
// (/etc/prometheus/rules/, where compose mounts alerts/), with that path
// pointing at the directory rules here, so the rule files it globs are
// loaded too.
func prometheusConfigProblems(t *testing.T, promtool string, config []byte, rules string) []string {
	t.Helper()
	rules, err := filepath.Abs(rules)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(config), containerRulesDir) {
		return []string{fmt.Sprintf("examples/prometheus.yml does not load %s (where compose mounts alerts/)", containerRulesDir)}
	}
	file := filepath.Join(t.TempDir(), "prometheus.yml")
	local := strings.ReplaceAll(string(config), containerRulesDir, rules+"/")
	if err := os.WriteFile(file, []byte(local), 0o600); err != nil {
		t.Fatal(err)
	}
	return run("promtool check config examples/prometheus.yml", exec.Command(promtool, "check", "config", file))
}

// alertmanagerConfigProblems: amtool loads the Alertmanager configuration.
func alertmanagerConfigProblems(amtool, path string) []string {
	return run("amtool check-config "+path, exec.Command(amtool, "check-config", path))
}

// composeProblems: docker-compose reads the compose file, paths relative
// to examples/.
func composeProblems(dockerCompose, path string) []string {
	return run("docker-compose config "+path, exec.Command(dockerCompose, "-f", path, "--project-directory", examples, "config", "-q"))
}

func TestPrometheusConfigLoadsWithTheRules(t *testing.T) {
	promtool := testsupport.Tool(t, "promtool", "prometheus")
	report(t, prometheusConfigProblems(t, promtool, read(t, prometheusFile), alertsDir))
}

func TestAlertmanagerConfigLoads(t *testing.T) {
	amtool := testsupport.Tool(t, "amtool", "prometheus-alertmanager")
	report(t, alertmanagerConfigProblems(amtool, alertmanagerFile))
}

func TestComposeFileLoads(t *testing.T) {
	dockerCompose := testsupport.Tool(t, "docker-compose", "docker-compose")
	report(t, composeProblems(dockerCompose, composeFile))
}

// writeBroken writes a copy of the file at path with from replaced by to,
// and fails unless from was there.
func writeBroken(t *testing.T, path, from, to string) string {
	t.Helper()
	b := string(read(t, path))
	if !strings.Contains(b, from) {
		t.Fatalf("%s has no %q to break", path, from)
	}
	file := filepath.Join(t.TempDir(), filepath.Base(path))
	if err := os.WriteFile(file, []byte(strings.Replace(b, from, to, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

func wantProblem(t *testing.T, got []string, want string) {
	t.Helper()
	for _, g := range got {
		if strings.Contains(g, want) {
			return
		}
	}
	t.Errorf("no problem containing %q; got:\n%s", want, strings.Join(got, "\n"))
}

func TestPrometheusConfigCheckFails(t *testing.T) {
	promtool := testsupport.Tool(t, "promtool", "prometheus")
	t.Run("rules elsewhere", func(t *testing.T) {
		b := strings.ReplaceAll(string(read(t, prometheusFile)), containerRulesDir, "/rules/")
		wantProblem(t, prometheusConfigProblems(t, promtool, []byte(b), alertsDir), "does not load /etc/prometheus/rules/")
	})
	t.Run("a bad scrape interval", func(t *testing.T) {
		b := strings.Replace(string(read(t, prometheusFile)), "scrape_interval: 15s", "scrape_interval: 15 seconds", 1)
		wantProblem(t, prometheusConfigProblems(t, promtool, []byte(b), alertsDir), "promtool check config examples/prometheus.yml: exit status")
	})
	t.Run("a rule file that does not parse", func(t *testing.T) {
		dir := t.TempDir()
		bad := "groups:\n  - name: broken\n    rules:\n      - alert: Broken\n        expr: sum(up\n"
		if err := os.WriteFile(filepath.Join(dir, "broken.rules.yml"), []byte(bad), 0o600); err != nil {
			t.Fatal(err)
		}
		wantProblem(t, prometheusConfigProblems(t, promtool, read(t, prometheusFile), dir), "broken.rules.yml")
	})
}

func TestAlertmanagerConfigCheckFails(t *testing.T) {
	amtool := testsupport.Tool(t, "amtool", "prometheus-alertmanager")
	bad := writeBroken(t, alertmanagerFile, "receiver: default", "receiver: nowhere")
	wantProblem(t, alertmanagerConfigProblems(amtool, bad), "amtool check-config "+bad)
}

func TestComposeCheckFails(t *testing.T) {
	dockerCompose := testsupport.Tool(t, "docker-compose", "docker-compose")
	bad := writeBroken(t, composeFile, "    restart: unless-stopped\n", "    restart: unless-stopped\n    restartt: always\n")
	wantProblem(t, composeProblems(dockerCompose, bad), "restartt")
}
