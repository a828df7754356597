package releasecheck

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

const (
	// pkg is the package's name, userName the system user it runs as.
	pkg         = "prometheus-woox-exporter"
	userName    = "woox_exporter"
	installUnit = "/usr/lib/systemd/system/" + unitName
	defaultFile = "/etc/default/woox_exporter"
	secretsDir  = "/etc/woox_exporter/secrets"
)

// checkInstalledDeb installs the .deb of this machine's architecture,
// configures one account as docs/deploying.md says, reinstalls it, runs it
// as its unit would and removes it, then purges it.
func checkInstalledDeb(t *testing.T, r *release) {
	deb := r.find(t, "Linux Package", "linux", runtime.GOARCH, ".deb")
	if os.Geteuid() != 0 {
		t.Fatal("installing the .deb needs root")
	}
	dpkg := testsupport.Tool(t, "dpkg", "dpkg")
	if installed(t) {
		t.Fatalf("%s is installed already; this test installs and purges it: dpkg --purge %s first", pkg, pkg)
	}
	// A purge leaves the user, as Debian's packages do: one left by an
	// earlier run goes, so that the install is seen to create it.
	if _, err := user.Lookup(userName); err == nil {
		run(t, "userdel", userName)
	}
	if _, err := user.LookupGroup(userName); err == nil {
		run(t, "groupdel", userName)
	}
	run(t, dpkg, "--install", deb.file())
	t.Cleanup(func() { _ = exec.Command(dpkg, "--purge", pkg).Run() })
	for _, p := range installedProblems(t) {
		t.Error(p)
	}

	// As the docs say: the secret in the directory LoadCredential= reads,
	// the key and the secret file's line in /etc/default/woox_exporter.
	writeFile(t, filepath.Join(secretsDir, "default"), fakeexchange.DefaultMainReadSecret+"\n", 0o600)
	edited := editDefault(t, fakeexchange.DefaultMainReadKey)
	run(t, dpkg, "--install", deb.file())
	if b, err := os.ReadFile(defaultFile); err != nil || string(b) != edited {
		t.Errorf("a reinstall changed the edited %s (%v)", defaultFile, err)
	}

	runAsUnit(t, r)

	run(t, dpkg, "--remove", pkg)
	for _, p := range presence(map[string]bool{installBin: false, installUnit: false, defaultFile: true, "/var/lib/woox_exporter": true}) {
		t.Error("after dpkg --remove: " + p)
	}
	run(t, dpkg, "--purge", pkg)
	for _, p := range presence(map[string]bool{defaultFile: false, "/etc/woox_exporter": false, "/var/lib/woox_exporter": false}) {
		t.Error("after dpkg --purge: " + p)
	}
	if installed(t) {
		t.Errorf("dpkg --purge left %s installed", pkg)
	}
}

// installed reports whether dpkg lists the package as installed.
func installed(t *testing.T) bool {
	t.Helper()
	out, _ := exec.Command("dpkg-query", "--show", "--showformat=${db:Status-Status}", pkg).Output()
	return strings.TrimSpace(string(out)) == "installed"
}

func run(t *testing.T, name string, args ...string) {
	t.Helper()
	if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

func writeFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// installedProblems: the package's files are in place, the postinstall
// script made the system user and its state directory, and systemd accepts
// the unit.
func installedProblems(t *testing.T) []string {
	t.Helper()
	var problems []string
	u, err := user.Lookup(userName)
	if err != nil {
		return []string{"no user " + userName + " after install: " + err.Error()}
	}
	out, err := exec.Command("getent", "passwd", userName).Output()
	if f := strings.Split(strings.TrimSpace(string(out)), ":"); err != nil || len(f) != 7 || f[6] != "/usr/sbin/nologin" {
		problems = append(problems, fmt.Sprintf("user %s: want the shell /usr/sbin/nologin, getent says %q (%v)", userName, out, err))
	}
	if u.Uid == "0" || len(u.Uid) > 3 {
		problems = append(problems, fmt.Sprintf("user %s has uid %s, want a system user's (1-999)", userName, u.Uid))
	}
	want := map[string]bool{}
	for _, f := range packaged {
		want[f.path] = true
	}
	problems = append(problems, presence(want)...)
	problems = append(problems, ownedProblems("/var/lib/woox_exporter", u, os.ModeDir|0o700)...)
	problems = append(problems, ownedProblems(defaultFile, &user.User{Uid: "0", Gid: "0"}, 0o600)...)
	if got, err := os.ReadFile(installUnit); err != nil {
		problems = append(problems, err.Error())
	} else if want, _ := os.ReadFile(unitFile); !bytes.Equal(got, want) {
		problems = append(problems, installUnit+" is not deploy/systemd/"+unitName)
	}
	return append(problems, verifyProblems(t, installUnit)...)
}

// ownedProblems: path belongs to u and has mode.
func ownedProblems(path string, u *user.User, mode os.FileMode) []string {
	fi, err := os.Stat(path)
	if err != nil {
		return []string{err.Error()}
	}
	st := fi.Sys().(*syscall.Stat_t)
	if fmt.Sprint(st.Uid) != u.Uid || fmt.Sprint(st.Gid) != u.Gid || fi.Mode() != mode {
		return []string{fmt.Sprintf("%s: %s %d:%d, want %s %s:%s", path, fi.Mode(), st.Uid, st.Gid, mode, u.Uid, u.Gid)}
	}
	return nil
}

// editDefault sets the key and uncomments the secret file's line in the
// installed /etc/default/woox_exporter, as the docs tell users to, and
// returns the edited text.
func editDefault(t *testing.T, key string) string {
	t.Helper()
	b, err := os.ReadFile(defaultFile)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for old, repl := range map[string]string{
		"\n#WOOX_API_KEY=\n":        "\nWOOX_API_KEY=" + key + "\n",
		"\n#WOOX_API_SECRET_FILE=/": "\nWOOX_API_SECRET_FILE=/",
	} {
		if !strings.Contains(text, old) {
			t.Fatalf("%s has no line %q for docs/deploying.md's edit", defaultFile, strings.TrimSpace(old))
		}
		text = strings.Replace(text, old, repl, 1)
	}
	writeFile(t, defaultFile, text, 0o600)
	return text
}

// presence names each path that exists when it should not, or is missing.
func presence(want map[string]bool) []string {
	var problems []string
	for path, present := range want {
		_, err := os.Lstat(path)
		switch {
		case present && err != nil:
			problems = append(problems, path+" is gone: "+err.Error())
		case !present && err == nil:
			problems = append(problems, path+" is still there")
		}
	}
	return problems
}
