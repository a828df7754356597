package collector

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/netip"
	"slices"
	"strings"

	"github.com/go-kit/log/level"

	"github.com/woox-exporter/woox_exporter/client"
)

// apiKeyChanges are what was last seen of each account's API keys, and
// the changes counted of each; an address in clear never reaches the
// state file, not even for one save.
var apiKeyChanges = newCountedHistory[APIKeys](StateSection{Name: "api_keys", Zero: APIKeys(nil), Check: checkOf(APIKeys.check), CheckSaves: true},
	"API keys")

// APIKeys is what was last seen of one account's API keys, by key id: the
// hex SHA-256 of the full API key, so that the state file holds no key.
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
// fingerprints: an address in clear must never reach the state file.
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

// keyWatch counts the changes of one account's API keys: replacing an
// allowed IP, or trading one permission for another, leaves every gauge of
// the key as it was.
type keyWatch struct {
	// seen is what the last poll saw of each key, by keyID; state what
	// the state file holds, the counters exported. Poller only.
	seen  APIKeys
	state *countedState[APIKeys]
}

// keyChange is one key's changes found by a poll, for the log.
type keyChange struct {
	id                      string
	allowedIPs, permissions bool
	granted                 []string
}

// observe is what seen becomes with creds, and the changes that makes: a
// key whose set of allowed IPs or of permissions differs from what was seen
// counts one change of that set; a key seen for the first time counts
// nothing. A key listed twice is read from its first row, as the gauges
// are. Keys not listed are forgotten only when the list is complete: a row
// the client could not read may be one of them.
func (w *keyWatch) observe(creds []client.Credential, complete bool) (APIKeys, []keyChange) {
	next := APIKeys{}
	if !complete {
		maps.Copy(next, w.seen)
	}
	listed := map[string]bool{}
	var changes []keyChange
	for _, c := range creds {
		id := keyID(c.APIKey)
		if listed[id] {
			continue
		}
		listed[id] = true
		granted := grantedPermissions(c.Permissions)
		now := APIKey{AllowedIPs: fingerprint("allowed IPs", c.APIKey, allowedIPSet(c.AllowedIPs)),
			Permissions: fingerprint("permissions", c.APIKey, granted)}
		if old, ok := w.seen[id]; ok {
			now.AllowedIPsChanges, now.PermissionChanges = old.AllowedIPsChanges, old.PermissionChanges
			ch := keyChange{id: id, allowedIPs: now.AllowedIPs != old.AllowedIPs, permissions: now.Permissions != old.Permissions, granted: granted}
			if ch.allowedIPs {
				now.AllowedIPsChanges++
			}
			if ch.permissions {
				now.PermissionChanges++
			}
			if ch.allowedIPs || ch.permissions {
				changes = append(changes, ch)
			}
		}
		next[id] = now
	}
	return next, changes
}

// countChanges counts the changes of the account's keys that creds show,
// saves them, and sets each row's counts to what is saved.
func (a *credentialsAccount) countChanges(creds []client.Credential, complete bool, rows []apiKeyRow) {
	next, changes := a.keys.observe(creds, complete)
	// After a failed save the exported counts stay as they were until a
	// later poll saves what it sees, changes counted once.
	a.keys.seen = next
	a.keys.state.keep(next)
	labels := make(map[string]string, len(rows))
	for i := range rows {
		k := a.keys.state.saved[rows[i].id]
		rows[i].allowedIPsChanges, rows[i].permissionChanges = k.AllowedIPsChanges, k.PermissionChanges
		labels[rows[i].id] = rows[i].label
	}
	// The addresses never reach the log: a change is enough to look.
	for _, ch := range changes {
		level.Warn(a.logger).Log("msg", "an API key's allowed IPs or permissions changed", "account", a.name, "api_key", labels[ch.id],
			"allowed_ips_changed", ch.allowedIPs, "permissions_changed", ch.permissions, "permissions", strings.Join(ch.granted, ","))
	}
}

// keyID identifies a key in the state file without holding it.
func keyID(apiKey string) string {
	sum := sha256.Sum256([]byte(apiKey))
	return hex.EncodeToString(sum[:])
}

// fingerprint is the hex SHA-256 of a set, whose members are sorted and
// distinct, with what it is a set of and the key's own API key: without
// the key, a one-address list would be found by hashing every IPv4
// address, by whoever reads the state file.
func fingerprint(what, apiKey string, set []string) string {
	b, _ := json.Marshal(append([]string{what, apiKey}, set...)) // strings always marshal
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// allowedIPSet is the sorted distinct addresses of a key's allow-list, each
// in its canonical form ("::0001" is "::1"), so that a list sent in another
// order, spelling or with repeats is the same list. No list and an empty
// one are both the empty set: no restriction.
func allowedIPSet(ips []string) []string {
	set := map[string]bool{}
	for _, ip := range ips {
		ip = strings.TrimSpace(ip)
		if a, err := netip.ParseAddr(ip); err == nil {
			ip = a.String()
		} else if p, err := netip.ParsePrefix(ip); err == nil {
			ip = p.String()
		} else {
			ip = strings.ToLower(ip)
		}
		if ip != "" {
			set[ip] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// grantedPermissions is the sorted distinct permissions granted, as
// permissionSet names them.
func grantedPermissions(permissions []string) []string {
	var granted []string
	for p, ok := range permissionSet(permissions) {
		if ok {
			granted = append(granted, p)
		}
	}
	slices.Sort(granted)
	return granted
}
