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
