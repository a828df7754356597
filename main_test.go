package main

import (
	"bytes"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/version"

	"github.com/woox-exporter/woox_exporter/endpoint"
	"github.com/woox-exporter/woox_exporter/internal/fakeexchange"
)

func TestHelpAndVersionExitWithoutStarting(t *testing.T) {
	for _, flag := range []string{"--help", "--version"} {
		var stdout, stderr bytes.Buffer
		code := run([]string{flag, "--web.listen-address=127.0.0.1:1"}, &stdout, &stderr, nil)
		if code != 0 || stdout.Len()+stderr.Len() == 0 {
			t.Errorf("%s: exit %d, output %q %q", flag, code, stdout.String(), stderr.String())
		}
		if strings.Contains(stderr.String(), exporterName+":") {
			t.Errorf("%s went on after printing: %s", flag, stderr.String())
		}
	}
}

// A collector turned off is not held to the budget: its interval is never
// used.
func TestIntervalsOfDisabledCollectorsAreNotChecked(t *testing.T) {
	env := []string{"WOOX_API_KEY=key", "WOOX_API_SECRET=secret"}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--sub-accounts.interval=1s"}, 0, "configuration OK"},
		{[]string{"--no-collector.account-info", "--account-info.interval=1s"}, 0, "configuration OK"},
		{[]string{"--account-info.interval=1s"}, 1, "--account-info.interval 1s does not fit the API budget"},
		{[]string{"--collector.sub-accounts", "--sub-accounts.interval=1s"}, 1, "--sub-accounts.interval 1s does not fit"},
		// 5 requests a minute: 12s a request; a quiet paged poll sends one.
		{[]string{"--account-info.interval=12s"}, 0, "configuration OK"},
		{[]string{"--wallet.interval=11s"}, 1, "the smallest interval that fits is 12s"},
		{[]string{"--token-history.interval=12s", "--credentials.interval=12s", "--wallet.interval=12s"}, 0, "configuration OK"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"--config.check"}, tc.args...), &stdout, &stderr, env)
		if code != tc.code || !strings.Contains(stdout.String()+stderr.String(), tc.want) {
			t.Errorf("%v: exit %d, output %q %q; want exit %d and %q", tc.args, code, stdout.String(), stderr.String(), tc.code, tc.want)
		}
	}
}

// Each endpoint's interval is held to its own limit: the published one by
// default, its --ENDPOINT.rate-limit, or --api.rate-limit for every private
// endpoint; the public endpoints to their per-IP limit; the account
// endpoints only once an account is configured.
func TestIntervalsFitEachEndpointsOwnLimit(t *testing.T) {
	withAccount := []string{"WOOX_API_KEY=key", "WOOX_API_SECRET=secret"}
	var noAccount []string
	for _, tc := range []struct {
		args []string
		env  []string
		code int
		want string
	}{
		// Positions: 30 per 10 s, 15 at budget 0.5: 667ms a poll.
		{[]string{"--positions.interval=700ms"}, withAccount, 0, "configuration OK"},
		{[]string{"--positions.interval=600ms"}, withAccount, 1,
			"--positions.interval 600ms does not fit the API budget (15 of 30/10s per account and endpoint, from --positions.rate-limit and --api.budget; 1 request(s) a poll): the smallest interval that fits is 667ms"},
		// Balances: 10 a second.
		{[]string{"--balances.interval=200ms"}, withAccount, 0, "configuration OK"},
		{[]string{"--balances.interval=200ms", "--balances.rate-limit=10/60s"}, withAccount, 1, "--balances.interval 200ms does not fit the API budget (5 of 10/60s per account and endpoint, from --balances.rate-limit"},
		{[]string{"--account-info.interval=1s", "--account-info.rate-limit=10/1s"}, withAccount, 0, "configuration OK"},
		// --api.rate-limit replaces every private endpoint's own.
		{[]string{"--api.rate-limit=10/60s"}, withAccount, 1, "--positions.interval 5s does not fit the API budget (5 of 10/60s per account and endpoint, from --api.rate-limit"},
		{[]string{"--api.rate-limit=100/1s", "--account-info.interval=1s"}, withAccount, 0, "configuration OK"},
		// Without an account, no account endpoint is polled.
		{[]string{"--account-info.interval=1s"}, noAccount, 0, "configuration OK"},
		// The public endpoints: 10 a second per IP.
		{[]string{"--system-info.interval=100ms"}, noAccount, 1, "--system-info.interval 100ms does not fit the API budget (5 of 10/1s per IP and endpoint, from the published limit"},
		{[]string{"--system-info.interval=200ms"}, noAccount, 0, "configuration OK"},
		{[]string{"--positions.rate-limit=ten"}, withAccount, 2, "--positions.rate-limit: rate limit \"ten\""},
		{[]string{"--api.budget=0.05"}, noAccount, 1, "--api.budget 0.05 with the published limit 10/1s (--token-network.interval): a budget of 0.05 of 10/1s allows no request at all"},
		{[]string{"--api.budget=0.4", "--account-info.rate-limit=2/60s"}, withAccount, 1, "--api.budget 0.4 with --account-info.rate-limit 2/60s (--account-info.interval): a budget of 0.40 of 2/60s allows no request at all"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"--config.check"}, tc.args...), &stdout, &stderr, tc.env)
		if code != tc.code || !strings.Contains(stdout.String()+stderr.String(), tc.want) {
			t.Errorf("%v: exit %d, output %q %q; want exit %d and %q", tc.args, code, stdout.String(), stderr.String(), tc.code, tc.want)
		}
	}
}

// A flag whose value does not parse is named in the error, whatever the
// value's type.
func TestBadFlagValuesNameTheirFlag(t *testing.T) {
	for _, arg := range []string{"--positions.interval=5x", "--api.budget=half", "--limits.series-per-endpoint=ten",
		"--log.level=loud", "--wallet.lookback=x", "--positions.rate-limit=x", "--api.timeout=x", "--shard.count=x",
		"--api.max-requests-per-second=many"} {
		var stdout, stderr bytes.Buffer
		code := run([]string{arg}, &stdout, &stderr, nil)
		flag, _, _ := strings.Cut(arg, "=")
		if code != 2 || !strings.HasPrefix(stderr.String(), exporterName+": "+flag+": ") || strings.Count(stderr.String(), flag) != 1 {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and the error starting with %s once", arg, code, stderr.String(), flag)
		}
	}
}

// A long flag written with one dash, as Go's flag package takes it, gets
// the spelling kingpin wants; a short flag that does not exist does not.
func TestLongFlagWithOneDashSuggestsTwo(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-config.file=/nowhere.yml"}, exporterName + ": unknown short flag '-c': long flags take two dashes, as in --config.file\n"},
		{[]string{"-web.listen-address", ":1"}, exporterName + ": unknown short flag '-w': long flags take two dashes, as in --web.listen-address\n"},
		{[]string{"-x", "-config.file=/nowhere.yml"}, exporterName + ": unknown short flag '-x'\n"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(tc.args, &stdout, &stderr, nil); code != 2 || stderr.String() != tc.want {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}

// An http:// exchange URL to a remote host is refused naming the flag and
// its fix; --woox.allow-plain-http lets it through.
func TestPlainHTTPRefusalNamesTheFlagAndItsFix(t *testing.T) {
	for _, url := range []string{"http://api.woox.io", "http://192.0.2.1"} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"--config.check", "--woox.api-url=" + url}, &stdout, &stderr, nil)
		if code != 1 || !strings.HasPrefix(stderr.String(), exporterName+": --woox.api-url "+url+": ") || !strings.Contains(stderr.String(), "--woox.allow-plain-http") {
			t.Errorf("%s: exit %d, stderr %q; want exit 1 and the flag and its fix named", url, code, stderr.String())
		}
		stdout.Reset()
		stderr.Reset()
		if code := run([]string{"--config.check", "--woox.api-url=" + url, "--woox.allow-plain-http"}, &stdout, &stderr, nil); code != 0 {
			t.Errorf("%s with --woox.allow-plain-http: exit %d, stderr %q", url, code, stderr.String())
		}
	}
}

// writeDeskAccounts writes a config file of n accounts desk-00, desk-01, ...
// whose secrets are in the variable SECRET, and returns its path.
func writeDeskAccounts(t *testing.T, n int) string {
	t.Helper()
	var yaml strings.Builder
	yaml.WriteString("accounts:\n")
	for i := range n {
		fmt.Fprintf(&yaml, "  - {name: desk-%02d, api_key: key-%02d, api_secret_env: SECRET}\n", i, i)
	}
	path := filepath.Join(t.TempDir(), "accounts.yml")
	if err := os.WriteFile(path, []byte(yaml.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// --config.check says which share of the accounts a replica holds, and the
// shares add up to every account.
func TestConfigCheckCountsTheShardsAccounts(t *testing.T) {
	path := writeDeskAccounts(t, 20)
	env := []string{"SECRET=S"}
	total := 0
	for index := range 3 {
		var stdout, stderr bytes.Buffer
		args := []string{"--config.check", "--config.file=" + path, "--shard.count=3", fmt.Sprintf("--shard.index=%d", index)}
		if code := run(args, &stdout, &stderr, env); code != 0 {
			t.Fatalf("shard %d: exit %d: %s", index, code, stderr.String())
		}
		var n int
		if _, err := fmt.Sscanf(stdout.String(), "configuration OK: %d of 20 account(s) on shard", &n); err != nil {
			t.Fatalf("shard %d: %q: %v", index, stdout.String(), err)
		}
		total += n
	}
	if total != 20 {
		t.Errorf("the shards hold %d accounts together, want 20", total)
	}
}

// quietNeed is what accounts at the default intervals, positions polled
// every positionsEvery, need a second when every poll is quiet, from the
// endpoint table (each account endpoint on by default once an interval per
// account, the public ones once): the figure the rate cap's warning gives.
func quietNeed(accounts int, positionsEvery time.Duration) float64 {
	need := 0.0
	for _, ep := range endpoint.All {
		every, n := ep.DefaultInterval, 1.0
		if ep.Name == endpoint.Positions {
			every = positionsEvery
		}
		if ep.PerAccount {
			n = float64(accounts)
		}
		if !ep.OffByDefault {
			need += n / every.Seconds()
		}
	}
	return need
}

// The rate cap warns, naming the figures and what to do, when the accounts'
// quiet polls alone need more requests a second than it allows (20 accounts
// at the default intervals need about 10 a second); a shard counts its own
// accounts. It refuses a negative cap.
func TestRateCapWarnsWhenTheAccountsNeedMoreAndRefusesANegativeOne(t *testing.T) {
	path := writeDeskAccounts(t, 20)
	const warning = "need more requests a second than --api.max-requests-per-second allows"
	// The caps just above what is needed, at a tenth: no warning.
	enough := func(need float64) string { return strconv.FormatFloat(math.Ceil(need*10+1e-9)/10, 'f', 1, 64) }
	need, slower := quietNeed(20, 5*time.Second), quietNeed(20, 10*time.Second)
	if need <= 8 || need/2 >= 8 || slower <= 8 {
		t.Fatalf("20 accounts need %.2f a second (%.2f with positions every 10s): the cases below count on 8 being under both and over half", need, slower)
	}
	for _, tc := range []struct {
		args []string
		code int
		warn string // "" for none
	}{
		{[]string{"--api.max-requests-per-second=8"}, 0, "requests_per_second_needed=" + strconv.FormatFloat(need, 'f', 1, 64) + " max_requests_per_second=8 accounts=20"},
		{[]string{"--api.max-requests-per-second=" + enough(need)}, 0, ""},
		{[]string{"--api.max-requests-per-second=0"}, 0, ""},
		{nil, 0, ""},
		{[]string{"--api.max-requests-per-second=8", "--shard.count=2", "--shard.index=0"}, 0, ""},
		{[]string{"--api.max-requests-per-second=" + enough(slower), "--positions.interval=10s"}, 0, ""},
		{[]string{"--api.max-requests-per-second=-1"}, 1, ""},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"--config.check", "--config.file=" + path}, tc.args...), &stdout, &stderr, []string{"SECRET=S"})
		warned := strings.Contains(stderr.String(), warning)
		switch {
		case code != tc.code:
			t.Errorf("%v: exit %d, stderr %q; want exit %d", tc.args, code, stderr.String(), tc.code)
		case code == 1 && !strings.HasPrefix(stderr.String(), exporterName+": --api.max-requests-per-second -1: "):
			t.Errorf("%v: stderr %q; want the flag named", tc.args, stderr.String())
		case warned != (tc.warn != "") || !strings.Contains(stderr.String(), tc.warn):
			t.Errorf("%v: stderr %q; want warning %t with %q", tc.args, stderr.String(), tc.warn != "", tc.warn)
		case warned && (strings.Count(stderr.String(), warning) != 1 || !strings.Contains(stderr.String(), "level=warn")):
			t.Errorf("%v: stderr %q; want one warning, at warn", tc.args, stderr.String())
		}
	}
}

func TestFillVersionFromBuildInfo(t *testing.T) {
	saved := [3]string{version.Version, version.Revision, version.BuildDate}
	t.Cleanup(func() { version.Version, version.Revision, version.BuildDate = saved[0], saved[1], saved[2] })
	for _, tc := range []struct {
		name                    string
		ldflags                 [3]string
		info                    *debug.BuildInfo
		ok                      bool
		version, revision, date string
	}{
		{"no build info", [3]string{}, nil, false, "devel", "", ""},
		{"go build in a checkout", [3]string{}, &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.time", Value: "2026-11-23T01:00:00Z"}, {Key: "vcs.modified", Value: "true"}}},
			true, "devel", "abc123-modified", "2026-11-23T01:00:00Z"},
		{"go install at a version", [3]string{}, &debug.BuildInfo{Main: debug.Module{Version: "v0.1.0"}}, true, "v0.1.0", "", ""},
		{"release build with ldflags", [3]string{"0.1.0", "fedcba", "20261123"}, &debug.BuildInfo{Main: debug.Module{Version: "v9"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}}}, true, "0.1.0", "fedcba", "20261123"},
	} {
		version.Version, version.Revision, version.BuildDate = tc.ldflags[0], tc.ldflags[1], tc.ldflags[2]
		fillVersion(tc.info, tc.ok)
		if version.Version != tc.version || version.Revision != tc.revision || version.BuildDate != tc.date {
			t.Errorf("%s: version %q revision %q date %q, want %q %q %q", tc.name,
				version.Version, version.Revision, version.BuildDate, tc.version, tc.revision, tc.date)
		}
	}
}

// A mistyped key variable beside a secret stops the start with "WOOX_API_KEY
// is not set": the error, the only line the user sees, names the variable
// that was set instead, never its value.
func TestMistypedKeyVariableIsNamedInTheError(t *testing.T) {
	for _, env := range [][]string{
		{"WOOX_APIKEY=the-key-value", "WOOX_API_SECRET=THESECRETVALUE"},
		{"WOOX_APIKEY=the-key-value", "WOOX_API_SECRET_FILE=/nonexistent/secret"},
	} {
		for _, args := range [][]string{{"--config.check"}, {"--web.listen-address=127.0.0.1:0"}} {
			var stdout, stderr bytes.Buffer
			code := run(args, &stdout, &stderr, env)
			out := stderr.String()
			if code != 1 || !strings.Contains(out, "WOOX_API_KEY is not; the exporter does not read WOOX_APIKEY: mistyped?") {
				t.Errorf("%v %v: exit %d, stderr %q; want exit 1 and WOOX_APIKEY named", env, args, code, out)
			}
			if strings.Contains(out, "the-key-value") || strings.Contains(out, "THESECRETVALUE") {
				t.Errorf("%v %v: a value in the error: %q", env, args, out)
			}
		}
	}
}

// --config.check warns of an allow-list entry on a network the exchange
// does not list, naming the listed one it most likely means, and says so
// when it could not read the token networks to check.
func TestConfigCheckWarnsOfAllowListNetworksTheExchangeDoesNotList(t *testing.T) {
	fake, err := fakeexchange.New(fakeexchange.DefaultScenario())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	list := filepath.Join(t.TempDir(), "allowlist.yml")
	if err := os.WriteFile(list, []byte("- network: ETHEREUM\n  address: \"0x31d64B3230f8baDD91dE1710A65DF536aF8f7cDa\"\n- network: ETH\n  address: \"0x31d64B3230f8baDD91dE1710A65DF536aF8f7cDb\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"WOOX_API_KEY=" + fakeexchange.DefaultMainReadKey, "WOOX_API_SECRET=" + fakeexchange.DefaultMainReadSecret}
	for _, tc := range []struct {
		url, want string
	}{
		{srv.URL, `msg="an allow-list entry names a network the exchange does not list: every withdrawal on it would page as unlisted; use the network's name as the token networks give it" entry="ETHEREUM 0x31d64B3230f8baDD91dE1710A65DF536aF8f7cDa (line 1)" closest_listed=ETH`},
		{closed.URL, `msg="could not check the allow-list's networks: the exchange's token networks could not be read"`},
	} {
		var stdout, stderr bytes.Buffer
		args := []string{"--config.check", "--woox.api-url=" + tc.url, "--wallet.withdrawal-allowlist=" + list, "--api.timeout=2s"}
		if code := run(args, &stdout, &stderr, env); code != 0 || !strings.HasPrefix(stdout.String(), "configuration OK") {
			t.Fatalf("%s: exit %d, stdout %q, stderr %s", tc.url, code, stdout.String(), stderr.String())
		}
		if strings.Count(stderr.String(), tc.want) != 1 || strings.Contains(stderr.String(), "0x31d64B3230f8baDD91dE1710A65DF536aF8f7cDb") {
			t.Errorf("%s: stderr lacks %s once, or names the entry on ETH:\n%s", tc.url, tc.want, stderr.String())
		}
	}
}
