package statefile

import (
	"errors"
	"fmt"
	"maps"
)

// APIKeys is what was last seen of one account's API keys, by key id: the
// hex SHA-256 of the full API key, so that the file holds no key.
type APIKeys map[string]APIKey

// APIKey is what was last seen of one API key, so that a change made while
// the exporter was down is counted at its first poll after a restart:
// fingerprints of the key's set of allowed IPs and of its set of
// permissions, never the values, and the changes of each counted so far.
type APIKey struct {
	AllowedIPs        string `json:"allowed_ips_sha256"`
	Permissions       string `json:"permissions_sha256"`
	AllowedIPsChanges uint64 `json:"allowed_ips_changes"`
	PermissionChanges uint64 `json:"permission_changes"`
}

// check refuses anything but hex SHA-256 digests as key ids and
// fingerprints: an address in clear must never reach the file.
func (keys APIKeys) check() error {
	for id, k := range keys {
		if !isDigest(id) {
			return errors.New("a key id that is not a hex SHA-256 digest")
		}
		if !isDigest(k.AllowedIPs) || !isDigest(k.Permissions) {
			return fmt.Errorf("key %.8s…: a fingerprint that is not a hex SHA-256 digest", id)
		}
	}
	return nil
}

// isDigest reports whether s is 64 lowercase hex digits.
func isDigest(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range []byte(s) {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// APIKeyStates returns a copy of what was last saved of every account's API
// keys, accounts no longer watched included.
func (s *Store) APIKeyStates() map[string]APIKeys {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]APIKeys, len(s.doc.APIKeys))
	for name, keys := range s.doc.APIKeys {
		out[name] = maps.Clone(keys)
	}
	return out
}

// SaveAPIKeys records what was seen of one account's API keys and rewrites
// the file atomically, as Save does. Keys that are not digests are refused
// before anything is written.
func (s *Store) SaveAPIKeys(account string, keys APIKeys) error {
	if err := keys.check(); err != nil {
		return fmt.Errorf("save api keys of account %q: %w", account, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.doc.APIKeys == nil {
		s.doc.APIKeys = map[string]APIKeys{}
	}
	s.doc.APIKeys[account] = maps.Clone(keys)
	return s.writeLocked()
}
