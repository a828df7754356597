package releasecheck

import (
	"bufio"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/common/model"

	"github.com/woox-exporter/woox_exporter/internal/exportertest"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// runAsUnit starts the installed binary as the installed unit would, with
// systemd not running: as the unit's user and group, without capabilities
// or a way to gain them, with its umask, its environment file, its
// ExecStart and the credentials LoadCredential= would hand it, plus the
// fake exchange's address and a free port. It runs under strace, whose log
// is then read against the unit's sandbox.
func runAsUnit(t *testing.T, r *release) {
	t.Helper()
	settings := unitSettings(t, installUnit)
	u, err := user.Lookup(setting(settings, "User"))
	if err != nil {
		t.Fatalf("the unit's User=: %v", err)
	}
	env := envFile(t, strings.TrimPrefix(setting(settings, "EnvironmentFile"), "-"))
	stateDir := "/var/lib/" + setting(settings, "StateDirectory")

	fake, err := fakeexchange.New(fakeexchange.DefaultScenario())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	addr, err := exportertest.FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	argv := append(execStart(t, setting(settings, "ExecStart"), env), "--woox.api-url="+srv.URL, "--web.listen-address="+addr)

	// Not t.TempDir: the user could not enter its parent.
	logDir, err := os.MkdirTemp("", "releasecheck-strace")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if !t.Failed() {
			_ = os.RemoveAll(logDir)
		}
	})
	chown(t, logDir, u)
	log := filepath.Join(logDir, "strace.log")
	procEnv := []string{
		"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin",
		"HOME=" + u.HomeDir, "USER=" + u.Username, "LOGNAME=" + u.Username,
		"CREDENTIALS_DIRECTORY=" + loadCredentials(t, settings, u), "STATE_DIRECTORY=" + stateDir,
	}
	for k, v := range env {
		procEnv = append(procEnv, k+"="+v)
	}
	cmd := exec.Command("/bin/sh", "-c", `umask "$1"; shift; exec "$@"`, "sh", setting(settings, "UMask"),
		testsupport.Tool(t, "setpriv", "util-linux"), "--reuid="+u.Username, "--regid="+setting(settings, "Group"),
		"--init-groups", "--no-new-privs", "--inh-caps=-all", "--bounding-set=-all", "--",
		testsupport.Tool(t, "strace", "strace"), "-f", "-qq", "-s", "512", "-o", log, "--")
	cmd.Args = append(cmd.Args, argv...)
	cmd.Dir, cmd.Env = "/", procEnv
	p, err := exportertest.StartCommand(cmd, addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	if _, err := p.Ready(time.Minute); err != nil {
		t.Fatal(err)
	}
	checkScrape(t, p, r)
	stop(t, p)

	for _, a := range argv {
		if path, ok := strings.CutPrefix(a, "--token-history.state-file="); ok {
			if !strings.HasPrefix(path, stateDir+"/") {
				t.Errorf("ARGS puts the state file at %s, outside StateDirectory= %s", path, stateDir)
			}
			for _, p := range ownedProblems(path, u, 0o600) {
				t.Error("the state file after a clean stop: " + p)
			}
		}
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	// A log without the exporter's start would pass every check below.
	if !strings.Contains(string(b), `execve("`+installBin+`"`) {
		t.Fatalf("strace's log %s does not show the exporter's start", log)
	}
	t.Logf("strace log: %d lines", strings.Count(string(b), "\n"))
	for _, p := range sandboxProblems(syscallGroups(t), settings, stateDir, string(b)) {
		t.Errorf("the unit would refuse what the exporter did: %s (strace log: %s)", p, log)
	}
}

// checkScrape waits until the exporter has read the account through the
// credential, and checks that it reports the snapshot's version and commit
// and the process metrics the alerts read.
func checkScrape(t *testing.T, p *exportertest.Process, r *release) {
	t.Helper()
	var samples map[string]*model.Sample
	testsupport.WaitFor(t, "a successful poll of account default", func() bool {
		var err error
		if samples, err = exportertest.Samples(http.DefaultClient, p.URL()+"/metrics"); err != nil {
			t.Fatalf("scrape: %v\n%s", err, p.Output())
		}
		for _, s := range samples {
			if s.Metric[model.MetricNameLabel] == "woox_poll_success" && s.Metric["account"] == "default" && s.Value == 1 {
				return true
			}
		}
		return false
	})
	info, start := false, false
	for _, s := range samples {
		switch s.Metric[model.MetricNameLabel] {
		case "woox_exporter_build_info":
			info = string(s.Metric["version"]) == r.Version && string(s.Metric["revision"]) == r.Commit
			if !info {
				t.Errorf("woox_exporter_build_info: want version %s, revision %s, got %s", r.Version, r.Commit, s.Metric)
			}
		case "process_start_time_seconds":
			start = true
		}
	}
	if !info || !start {
		t.Errorf("/metrics: woox_exporter_build_info %t, process_start_time_seconds %t; want both", info, start)
	}
}

// stop sends SIGTERM to the exporter (strace's child) by its PID, as
// systemctl stop does, and wants it to exit with status 0.
func stop(t *testing.T, p *exportertest.Process) {
	t.Helper()
	children, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", p.Pid(), p.Pid()))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(children)))
	if err != nil {
		t.Fatalf("strace's child: %q: %v", children, err)
	}
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(30 * time.Second); err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, p.Output())
	}
}

// envFile reads an EnvironmentFile= as systemd does for the lines it holds:
// KEY=VALUE, a value in quotes unquoted, comments and blank lines skipped.
func envFile(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	env := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, ";") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		if n := len(v); n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n-1] == v[0] {
			v = v[1 : n-1]
		}
		env[strings.TrimSpace(k)] = v
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return env
}

// execStart expands ExecStart= as systemd does for what it holds: $NAME
// becomes the words of NAME's value, ${NAME} its value as one word.
func execStart(t *testing.T, line string, env map[string]string) []string {
	t.Helper()
	var argv []string
	for _, w := range strings.Fields(line) {
		switch {
		case strings.HasPrefix(w, "${") && strings.HasSuffix(w, "}"):
			argv = append(argv, env[w[2:len(w)-1]])
		case strings.HasPrefix(w, "$"):
			argv = append(argv, strings.Fields(env[w[1:]])...)
		case strings.ContainsAny(w, "%$\"'\\"):
			t.Fatalf("ExecStart=%s: this test does not expand %q as systemd would", line, w)
		default:
			argv = append(argv, w)
		}
	}
	return argv
}

// loadCredentials copies what the unit's LoadCredential= lines name into
// /run/credentials/UNIT, readable by the unit's user alone, as systemd
// does: ID:FILE as ID, ID:DIR as ID_NAME for each file NAME in it.
func loadCredentials(t *testing.T, settings map[string][]string, u *user.User) string {
	t.Helper()
	dir := "/run/credentials/" + unitName
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir); _ = os.Remove(filepath.Dir(dir)) })
	for _, c := range settings["LoadCredential"] {
		id, src, _ := strings.Cut(c, ":")
		files := map[string]string{id: src}
		if entries, err := os.ReadDir(src); err == nil {
			files = map[string]string{}
			for _, e := range entries {
				if e.Type().IsRegular() {
					files[id+"_"+e.Name()] = filepath.Join(src, e.Name())
				}
			}
		}
		for name, path := range files {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("LoadCredential=%s: %v", c, err)
			}
			writeFile(t, filepath.Join(dir, name), string(b), 0o400)
			chown(t, filepath.Join(dir, name), u)
		}
	}
	if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	chown(t, dir, u)
	return dir
}

func chown(t *testing.T, path string, u *user.User) {
	t.Helper()
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(path, uid, gid); err != nil {
		t.Fatal(err)
	}
}
