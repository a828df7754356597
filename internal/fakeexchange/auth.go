package fakeexchange

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Values of Scenario.SignatureQuery.
const (
	SignatureQueryExact  = "exact"
	SignatureQuerySorted = "sorted"
)

// TimestampWindow is how far x-api-timestamp may be off server time.
const TimestampWindow = 300 * time.Second

// Sign returns the lowercase hex HMAC-SHA256 the exchange expects over
// timestamp, method, path and, when set, "?" and rawQuery.
func Sign(secret, timestampMs, method, path, rawQuery string) string {
	signed := timestampMs + method + path
	if rawQuery != "" {
		signed += "?" + rawQuery
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(signed))
	return hex.EncodeToString(mac.Sum(nil))
}

// VerifySignature reports whether signature is Sign's (lowercase hex only).
func VerifySignature(secret, timestampMs, method, path, rawQuery, signature string) bool {
	want := Sign(secret, timestampMs, method, path, rawQuery)
	return hmac.Equal([]byte(want), []byte(signature))
}

// keyRef is a key and the account that owns it.
type keyRef struct {
	account string
	key     Key
}

// authenticate checks the signature headers and returns the key they name.
func (e *Exchange) authenticate(r *http.Request, now time.Time) (keyRef, *apiError) {
	apiKey := r.Header.Get("x-api-key")
	if apiKey == "" {
		return keyRef{}, errUnauthorized("missing x-api-key header")
	}
	e.mu.Lock()
	ref, ok := e.keys[apiKey]
	e.mu.Unlock()
	if !ok {
		return keyRef{}, errUnauthorized("unknown api key")
	}
	ts := r.Header.Get("x-api-timestamp")
	ms, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return ref, errInvalidSignature("missing or malformed x-api-timestamp header")
	}
	if d := now.Sub(time.UnixMilli(ms)).Abs(); d >= TimestampWindow {
		return ref, errInvalidSignature("x-api-timestamp is outside the 300 s window of server time")
	}
	path, _, _ := strings.Cut(r.RequestURI, "?")
	if path == "" || !strings.HasPrefix(path, "/") {
		path = r.URL.EscapedPath()
	}
	query := r.URL.RawQuery
	if e.s.SignatureQuery == SignatureQuerySorted {
		query = sortQuery(query)
	}
	sig := r.Header.Get("x-api-signature")
	if sig == "" || !VerifySignature(ref.key.APISecret, ts, r.Method, path, query, sig) {
		return ref, errInvalidSignature("signature does not match")
	}
	if len(ref.key.AllowedIPs) > 0 && !ipAllowed(remoteIP(r), ref.key.AllowedIPs) {
		return ref, errUnauthorized("ip address not allowed for this api key")
	}
	if !slices.Contains(ref.key.Permissions, "READ") {
		return ref, errUnauthorized("api key lacks READ permission")
	}
	return ref, nil
}

// remoteIP is the client address of the connection; proxies are not trusted.
func remoteIP(r *http.Request) netip.Addr {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}
	}
	return ip.Unmap()
}

func ipAllowed(ip netip.Addr, allowed []string) bool {
	for _, a := range allowed {
		if p, err := netip.ParseAddr(a); err == nil && p.Unmap() == ip {
			return true
		}
	}
	return false
}

// sortQuery orders a raw query's parameters by name, each kept as sent.
func sortQuery(rawQuery string) string {
	params := strings.Split(rawQuery, "&")
	slices.SortStableFunc(params, func(a, b string) int {
		an, _, _ := strings.Cut(a, "=")
		bn, _, _ := strings.Cut(b, "=")
		return strings.Compare(an, bn)
	})
	return strings.Join(params, "&")
}
