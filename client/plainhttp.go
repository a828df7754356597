package client

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// CheckPlainHTTP refuses an http:// exchange URL not to loopback: anyone on
// the path would read the API key and signatures valid for minutes. Other
// faults are left to New.
func CheckPlainHTTP(baseURL string) error {
	u, err := url.Parse(baseURL)
	if err != nil || !strings.EqualFold(u.Scheme, "http") || u.Host == "" || isLoopbackHost(u.Hostname()) {
		return nil
	}
	return fmt.Errorf("%s: plain http to %s would send the API key and request signatures unencrypted", u.Redacted(), u.Hostname())
}

// isLoopbackHost reports whether host is localhost or a loopback address.
func isLoopbackHost(host string) bool {
	if strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
