package releasecheck

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/woox-exporter/woox_exporter/internal/testsupport"
)

// Without systemd running, CI cannot start the unit; it runs the packaged
// binary under strace as the unit's user instead, and these checks read the
// log (strace -f -o) against what the unit would forbid: the system calls of
// SystemCallFilter=, the socket families of RestrictAddressFamilies=, writes
// outside StateDirectory= (ProtectSystem=strict), writable and executable
// memory (MemoryDenyWriteExecute=), home directories (ProtectHome=) and,
// should the unit set ProcSubset=pid, /proc beyond the processes.

// straceCall is one system call in an strace -f log: "PID name(args".
var straceCall = regexp.MustCompile(`^(?:\d+\s+)?([a-z_0-9]+)\((.*)$`)

var (
	quotedPath = regexp.MustCompile(`"([^"]*)"`)
	addrFamily = regexp.MustCompile(`^(AF_[A-Z0-9]+)`)
	procPath   = regexp.MustCompile(`^/proc/(\d+|self|thread-self)(/|$)`)
)

// syscallGroups expands systemd's system call groups (@system-service, ...)
// into the calls they hold, as the installed systemd defines them.
func syscallGroups(t *testing.T) map[string][]string {
	t.Helper()
	analyze := testsupport.Tool(t, "systemd-analyze", "systemd")
	// It exits non-zero when it cannot list the kernel's calls, which it
	// also says on stdout; the groups are all there.
	out, _ := exec.Command(analyze, "syscall-filter", "--no-pager").Output()
	groups := map[string][]string{}
	group := ""
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) == 0 || strings.HasPrefix(f[0], "#"):
		case strings.HasPrefix(l, "@"):
			group = f[0]
		case group != "":
			groups[group] = append(groups[group], f[0])
		}
	}
	if len(groups["@system-service"]) == 0 {
		t.Fatalf("systemd-analyze syscall-filter listed no @system-service:\n%s", out)
	}
	return groups
}

// expand adds the calls of name (a call or a group) to set.
func expand(groups map[string][]string, name string, set map[string]bool) {
	if !strings.HasPrefix(name, "@") {
		set[name] = true
		return
	}
	for _, m := range groups[name] {
		expand(groups, m, set)
	}
}

// allowedCalls is what the unit's SystemCallFilter= lines permit, in order:
// a line lists calls allowed, one starting with ~ calls taken away.
func allowedCalls(groups map[string][]string, filters []string) map[string]bool {
	allowed := map[string]bool{}
	for _, f := range filters {
		deny := strings.HasPrefix(f, "~")
		set := map[string]bool{}
		for _, name := range strings.Fields(strings.TrimPrefix(f, "~")) {
			expand(groups, name, set)
		}
		for c := range set {
			if deny {
				delete(allowed, c)
			} else {
				allowed[c] = true
			}
		}
	}
	return allowed
}

// writeFlags are open flags that write, and writeCalls calls whose first
// path names what they change.
var (
	writeFlags = []string{"O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"}
	writeCalls = []string{"renameat", "renameat2", "rename", "unlinkat", "unlink", "mkdirat", "mkdir", "linkat", "symlinkat", "fchmodat", "chmod", "truncate"}
)

// sandboxProblems reads the strace -f log of a run against the unit's
// settings, and names each thing the unit would refuse, once.
func sandboxProblems(groups map[string][]string, settings map[string][]string, stateDir, log string) []string {
	allowed := allowedCalls(groups, settings["SystemCallFilter"])
	families := strings.Fields(setting(settings, "RestrictAddressFamilies"))
	found := map[string]bool{}
	for _, l := range strings.Split(log, "\n") {
		m := straceCall.FindStringSubmatch(strings.TrimSpace(l))
		if m == nil {
			continue
		}
		call, args := m[1], m[2]
		if len(allowed) > 0 && !allowed[call] {
			found["system call "+call+" is outside SystemCallFilter="+strings.Join(settings["SystemCallFilter"], " ")] = true
		}
		path := ""
		if p := quotedPath.FindStringSubmatch(args); p != nil {
			path = p[1]
		}
		switch {
		case call == "socket":
			if f := addrFamily.FindString(args); f != "" && len(families) > 0 && !slices.Contains(families, f) {
				found["socket family "+f+" is outside RestrictAddressFamilies="+strings.Join(families, " ")] = true
			}
		case (call == "mmap" || call == "mprotect") && strings.Contains(args, "PROT_WRITE") && strings.Contains(args, "PROT_EXEC"):
			found["writable and executable memory ("+call+") is refused by MemoryDenyWriteExecute="] = true
		}
		if path == "" {
			continue
		}
		writes := slices.Contains(writeCalls, call) || (strings.HasPrefix(call, "open") && containsAny(args, writeFlags))
		if writes && path != "/dev/null" && !strings.HasPrefix(path, stateDir+"/") {
			// By directory: the names of temporary files differ each run.
			found[fmt.Sprintf("%s writes in %s, outside StateDirectory=%s (ProtectSystem=strict)", call, filepath.Dir(path), stateDir)] = true
		}
		if strings.HasPrefix(path, "/home/") || strings.HasPrefix(path, "/root/") || strings.HasPrefix(path, "/run/user/") {
			found[call+" reads "+path+", hidden by ProtectHome="] = true
		}
		if setting(settings, "ProcSubset") == "pid" && strings.HasPrefix(path, "/proc/") && !procPath.MatchString(path) {
			found[call+" reads "+path+", hidden by ProcSubset=pid"] = true
		}
	}
	problems := make([]string, 0, len(found))
	for p := range found {
		problems = append(problems, p)
	}
	sort.Strings(problems)
	return problems
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// sampleLog is what the exporter's run leaves in strace's log, one line of
// each kind the checks read.
const sampleLog = `4242 execve("/usr/bin/woox_exporter", ["/usr/bin/woox_exporter"], 0x7ffd /* 5 vars */) = 0
4243 openat(AT_FDCWD, "/proc/stat", O_RDONLY|O_CLOEXEC) = 3
4243 socket(AF_INET6, SOCK_STREAM|SOCK_CLOEXEC|SOCK_NONBLOCK, IPPROTO_IP) = 5
4243 openat(AT_FDCWD, "/var/lib/woox_exporter/.state-123", O_RDWR|O_CREAT|O_EXCL|O_CLOEXEC, 0600) = 7
4243 renameat(AT_FDCWD, "/var/lib/woox_exporter/.state-123", AT_FDCWD, "/var/lib/woox_exporter/state.json") = 0
4244 futex(0xc000100148, FUTEX_WAKE_PRIVATE, 1 <unfinished ...>
4244 <... futex resumed>) = 1
4242 +++ exited with 0 +++
`

func TestSandboxCheckFindsWhatTheUnitRefuses(t *testing.T) {
	groups := syscallGroups(t)
	settings := unitSettings(t, unitFile)
	state := "/var/lib/" + setting(settings, "StateDirectory")
	if ps := sandboxProblems(groups, settings, state, sampleLog); len(ps) > 0 {
		t.Errorf("the exporter's usual calls, against the shipped unit: want no problem, got %q", ps)
	}
	bad := sampleLog +
		"4245 setresuid(0, 0, 0) = 0\n" +
		"4245 socket(AF_NETLINK, SOCK_RAW|SOCK_CLOEXEC, NETLINK_ROUTE) = 9\n" +
		"4245 openat(AT_FDCWD, \"/etc/woox_exporter/accounts.yml\", O_WRONLY|O_TRUNC) = 8\n" +
		"4245 mmap(NULL, 4096, PROT_READ|PROT_WRITE|PROT_EXEC, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f00\n" +
		"4245 openat(AT_FDCWD, \"/root/.netrc\", O_RDONLY) = -1 ENOENT\n"
	ps := sandboxProblems(groups, settings, state, bad)
	for _, want := range []string{"setresuid", "AF_NETLINK", "in /etc/woox_exporter,", "MemoryDenyWriteExecute", "/root/.netrc"} {
		if !containsLine(ps, want) {
			t.Errorf("want a problem naming %s, got %q", want, ps)
		}
	}
	settings["ProcSubset"] = []string{"pid"}
	if ps := sandboxProblems(groups, settings, state, sampleLog); !containsLine(ps, "/proc/stat") {
		t.Errorf("with ProcSubset=pid: want a problem naming /proc/stat, got %q", ps)
	}
}
