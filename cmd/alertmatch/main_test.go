package main

import (
	"strings"
	"testing"
)

const alertsJSON = `[
 {"labels": {"alertname": "WooxWithdrawalsDisabled", "token": "ARB", "severity": "warning"}, "state": "firing"},
 {"labels": {"alertname": "WooxNewApiKey", "account": "main"}}
]
[{"labels": {"alertname": "WooxDataStale", "account": "sub", "token": ""}}]`

func TestRun(t *testing.T) {
	specs := []string{
		"WooxWithdrawalsDisabled",
		"WooxWithdrawalsDisabled token=ARB",
		"WooxWithdrawalsDisabled token=WOO",
		"WooxWithdrawalsDisabled  token=ARB severity=warning",
		"WooxNewApiKey account=sub",
		"WooxNewApiKey token=",      // absent label: no match
		"WooxDataStale token=",      // present, empty: match
		"WooxDataStale account=sub", // from the second array
		"WooxRateLimited",
		"Woox",
	}
	for _, tc := range []struct {
		mode string
		want []string
	}{
		{"present", []string{specs[0], specs[1], specs[3], specs[6], specs[7]}},
		{"missing", []string{specs[2], specs[4], specs[5], specs[8], specs[9]}},
	} {
		var out strings.Builder
		if err := run(append([]string{tc.mode}, specs...), strings.NewReader(alertsJSON), &out); err != nil {
			t.Fatal(err)
		}
		got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s: got %q, want %q", tc.mode, got, tc.want)
		}
	}
}

func TestRunErrors(t *testing.T) {
	for _, args := range [][]string{
		nil,
		{"all", "WooxNewApiKey"},
		{"present", ""},
		{"present", "WooxNewApiKey account"},
		{"present", "WooxNewApiKey =main"},
	} {
		if err := run(args, strings.NewReader("[]"), &strings.Builder{}); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
	if err := run([]string{"present", "X"}, strings.NewReader("{"), &strings.Builder{}); err == nil {
		t.Error("malformed input: no error")
	}
	var out strings.Builder
	if err := run([]string{"missing", "X"}, strings.NewReader(""), &out); err != nil || out.String() != "X\n" {
		t.Errorf("no input: %q, %v", out.String(), err)
	}
}
