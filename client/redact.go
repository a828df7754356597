package client

import (
	"regexp"
	"strings"
	"sync"
)

// redacted replaces a secret in text the exchange sent before it reaches an
// error, a log line or a metric.
const redacted = "[REDACTED]"

// hexRun is what a signature (64 hex digits), a secret or a hash looks like
// in text: 32 hex digits or more.
var hexRun = regexp.MustCompile(`[0-9A-Fa-f]{32,}`)

// recentSignatures is how many of its latest signatures a client redacts
// from the exchange's messages: an answer echoes the headers of its own
// request, or of one shortly before.
const recentSignatures = 16

// signatureRing holds a client's latest signatures. A signature stays
// valid for SigningWindow, so one quoted back must not be logged.
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

// redact removes from a message of the exchange the client's API key, the
// signatures it sent lately and any long hex run, before it is cut to size.
func (c *Client) redact(s string) string {
	if k := c.creds.Load().key; k != "" {
		s = strings.ReplaceAll(s, k, redacted)
	}
	return redactHex(c.signatures.redact(s))
}
