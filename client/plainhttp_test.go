package client

import (
	"strings"
	"testing"
)

func TestCheckPlainHTTPRefusesOnlyARemoteHostOverHTTP(t *testing.T) {
	for _, tc := range []struct {
		url     string
		refused bool
	}{
		{"http://api.woox.io", true},
		{"HTTP://api.woox.io:80", true},
		{"http://192.0.2.1", true},
		{"http://[2001:db8::1]:8080", true},
		{"http://localhost.example", true},
		{"http://128.0.0.1", true},
		{"https://api.woox.io", false},
		{"http://127.0.0.1:8080", false},
		{"http://127.255.0.9", false},
		{"http://[::1]:8080", false},
		{"http://localhost:8080", false},
		{"http://LocalHost.", false},
		// Left to New, which names what is wrong.
		{"ftp://x", false},
		{"http://", false},
	} {
		err := CheckPlainHTTP(tc.url)
		if (err != nil) != tc.refused {
			t.Errorf("CheckPlainHTTP(%q) = %v, want refused %v", tc.url, err, tc.refused)
		}
		if err != nil && (!strings.HasPrefix(strings.ToLower(err.Error()), strings.ToLower(tc.url)+": ") || !strings.Contains(err.Error(), "unencrypted")) {
			t.Errorf("CheckPlainHTTP(%q): %v, want the URL and the danger named", tc.url, err)
		}
	}
}

// The refusal names the URL without its password.
func TestCheckPlainHTTPRedactsThePassword(t *testing.T) {
	err := CheckPlainHTTP("http://user:hunter2@api.woox.io")
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("CheckPlainHTTP with a password: %v, want a refusal without the password", err)
	}
}
