package client

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// CheckPlainHTTP refuses an http:// exchange URL whose host is not
// loopback: every signed request carries the API key and a signature that
// the exchange accepts again for minutes, and over plain http anyone on the
// path reads both. Other faults of the URL are left to New, which names
// them.
func CheckPlainHTTP(baseURL string) error {
	u, err := url.Parse(baseURL)
	if err != nil || !strings.EqualFold(u.Scheme, "http") || u.Host == "" || isLoopbackHost(u.Hostname()) {
		return nil
	}
	return fmt.Errorf("%s: plain http to %s would send the API key and request signatures unencrypted", u.Redacted(), u.Hostname())
}

// isLoopbackHost reports whether host is localhost or a loopback address
// (127.0.0.0/8, ::1), the hosts whose traffic never leaves the machine.
func isLoopbackHost(host string) bool {
	if strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
