package client

import (
	"regexp"
	"strings"
	"sync"
)

// redacted replaces a secret in text the exchange sent.
const redacted = "[REDACTED]"

// hexRun is a signature, a secret or a hash in text.
var hexRun = regexp.MustCompile(`[0-9A-Fa-f]{32,}`)

// recentSignatures is how many latest signatures a client redacts: an
// answer echoes its request's headers, or those of one shortly before.
const recentSignatures = 16

// signatureRing holds a client's latest signatures, valid for SigningWindow.
type signatureRing struct {
	mu   sync.Mutex
	sigs [recentSignatures]string
	next int
}

func (r *signatureRing) add(sig string) {
	r.mu.Lock()
	r.sigs[r.next] = sig
	r.next = (r.next + 1) % len(r.sigs)
	r.mu.Unlock()
}

func (r *signatureRing) redact(s string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, sig := range r.sigs {
		if sig != "" {
			s = strings.ReplaceAll(s, sig, redacted)
		}
	}
	return s
}

// redactHex replaces every run of 32 hex digits or more.
func redactHex(s string) string { return hexRun.ReplaceAllLiteralString(s, redacted) }

// redact removes from an exchange message the API key, the latest
// signatures and long hex runs, before it is cut to size.
func (c *Client) redact(s string) string {
	if k := c.creds.Load().key; k != "" {
		s = strings.ReplaceAll(s, k, redacted)
	}
	return redactHex(c.signatures.redact(s))
}
