package main

import (
	"bytes"
	"strings"
	"testing"
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
		"--log.level=loud", "--wallet.lookback=x", "--positions.rate-limit=x", "--api.timeout=x", "--shard.count=x"} {
		var stdout, stderr bytes.Buffer
		code := run([]string{arg}, &stdout, &stderr, nil)
		flag, _, _ := strings.Cut(arg, "=")
		if code != 2 || !strings.HasPrefix(stderr.String(), exporterName+": "+flag+": ") || strings.Count(stderr.String(), flag) != 1 {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and the error starting with %s once", arg, code, stderr.String(), flag)
		}
	}
}
