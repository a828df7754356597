package main

import (
	"strings"
	"testing"
)

func TestCheckPlainHTTPRefusesOnlyARemoteHostOverHTTP(t *testing.T) {
	for _, tc := range []struct {
		url     string
		allowed bool
		refused bool
	}{
		{"http://api.woox.io", false, true},
		{"HTTP://api.woox.io:80", false, true},
		{"http://192.0.2.1", false, true},
		{"http://[2001:db8::1]:8080", false, true},
		{"http://localhost.example", false, true},
		{"http://128.0.0.1", false, true},
		{"http://api.woox.io", true, false},
		{"https://api.woox.io", false, false},
		{"http://127.0.0.1:8080", false, false},
		{"http://127.255.0.9", false, false},
		{"http://[::1]:8080", false, false},
		{"http://localhost:8080", false, false},
		{"http://LocalHost.", false, false},
		// Left to client.New, which names what is wrong.
		{"ftp://x", false, false},
		{"http://", false, false},
	} {
		err := checkPlainHTTP(tc.url, tc.allowed)
		if (err != nil) != tc.refused {
			t.Errorf("checkPlainHTTP(%q, %v) = %v, want refused %v", tc.url, tc.allowed, err, tc.refused)
		}
		if err != nil && (!strings.HasPrefix(err.Error(), "--woox.api-url ") || !strings.Contains(err.Error(), "--woox.allow-plain-http")) {
			t.Errorf("checkPlainHTTP(%q): %v, want the flag and its fix named", tc.url, err)
		}
	}
}
