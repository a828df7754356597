package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestHelpAndVersionExitWithoutStarting(t *testing.T) {
	for _, flag := range []string{"--help", "--version"} {
		var stdout, stderr bytes.Buffer
		code := run([]string{flag, "--web.listen-address=127.0.0.1:1"}, &stdout, &stderr, func(string) string { return "" })
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
	getenv := func(k string) string {
		return map[string]string{"WOOX_API_KEY": "key", "WOOX_API_SECRET": "secret"}[k]
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--sub-accounts.interval=1s"}, 0, "configuration OK"},
		{[]string{"--no-collector.balances", "--balances.interval=1s"}, 0, "configuration OK"},
		{[]string{"--balances.interval=1s"}, 1, "--balances.interval 1s does not fit the API budget"},
		{[]string{"--collector.sub-accounts", "--sub-accounts.interval=1s"}, 1, "--sub-accounts.interval 1s does not fit"},
		// 5 requests a minute: 12s a request; a quiet paged poll sends one.
		{[]string{"--balances.interval=12s"}, 0, "configuration OK"},
		{[]string{"--wallet.interval=11s"}, 1, "the smallest interval that fits is 12s"},
		{[]string{"--token-history.interval=12s", "--credentials.interval=12s", "--wallet.interval=12s"}, 0, "configuration OK"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"--config.check"}, tc.args...), &stdout, &stderr, getenv)
		if code != tc.code || !strings.Contains(stdout.String()+stderr.String(), tc.want) {
			t.Errorf("%v: exit %d, output %q %q; want exit %d and %q", tc.args, code, stdout.String(), stderr.String(), tc.code, tc.want)
		}
	}
}
