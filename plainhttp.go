package main

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// checkPlainHTTP refuses an http:// exchange URL whose host is not
// loopback unless allowed: every signed request carries the API key and a
// signature that the exchange accepts again for minutes, and over plain
// http anyone on the path reads both. Other faults of the URL are left to
// client.New, which names them.
func checkPlainHTTP(apiURL string, allowed bool) error {
	u, err := url.Parse(apiURL)
	if err != nil || !strings.EqualFold(u.Scheme, "http") || u.Host == "" || allowed || isLoopbackHost(u.Hostname()) {
		return nil
	}
	return fmt.Errorf("--woox.api-url %s: plain http to %s would send the API key and request signatures unencrypted; use https://, or pass --woox.allow-plain-http if the network path is otherwise protected (loopback addresses need neither)",
		u.Redacted(), u.Hostname())
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
