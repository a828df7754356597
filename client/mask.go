package client

// MaskAPIKey shortens an API key to its ends joined by "...", 4 characters
// of each at most a quarter of it, "****" for 8 characters or fewer; with
// showFull it is as it is. A value shaped like a secret (key and secret
// swapped) shows nothing even so.
func MaskAPIKey(key string, showFull bool) string {
	if secretShaped(key) {
		return hidden
	}
	if showFull {
		return key
	}
	r := []rune(key)
	if len(r) <= 8 {
		return hidden
	}
	n := min(4, len(r)/4)
	return string(r[:n]) + "..." + string(r[len(r)-n:])
}

const hidden = "****"

// secretLength is the length of an API secret, capital letters and digits
// (a key is 24 characters of base64).
const secretLength = 28

// secretShaped reports whether s has an API secret's length and alphabet.
func secretShaped(s string) bool {
	if len(s) != secretLength {
		return false
	}
	for _, c := range []byte(s) {
		if (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}
