package client

import (
	"strings"
	"testing"
)

// The exchange address is a scheme and a host: anything after the host
// would be accepted and then make every request miss.
func TestNewChecksTheExchangeURL(t *testing.T) {
	for url, want := range map[string]string{
		"https://api.woox.io":            "",
		"https://api.woox.io/":           "",
		"http://127.0.0.1:8080":          "",
		"ftp://api.woox.io":              "want http(s)://host",
		"https://":                       "want http(s)://host",
		"https://api.woox.io/v3":         "no path",
		"https://api.woox.io?x=1":        "no path, query",
		"https://api.woox.io/#frag":      "no path",
		"https://u:p@api.woox.io":        "user",
		"https://u:secret@api.woox.io/x": "xxxxx",
		"api.woox.io":                    "want http(s)://host",
		"https://api.woox.io/v3/api":     "no path",
	} {
		_, err := New(Config{BaseURL: url})
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", url, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: error %v, want it to contain %q", url, err, want)
		}
	}
}
