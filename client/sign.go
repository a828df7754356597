package client

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
)

// Sign returns the hex HMAC-SHA256, keyed by the API secret, of timestamp +
// METHOD + path ("?query" for GET and DELETE, as sent) + body.
func Sign(secret, timestampMs, method, pathAndQuery, body string) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(timestampMs))
	mac.Write([]byte(method))
	mac.Write([]byte(pathAndQuery))
	mac.Write([]byte(body))
	return hex.EncodeToString(mac.Sum(nil))
}
