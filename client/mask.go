package client

// MaskAPIKey shortens an API key for logs, labels and rejected rows to its
// ends joined by "...": 4 characters of each for a real key (24 characters),
// never more than a quarter of the value at each end, and "****" for a value
// of 8 characters or fewer. A value shaped like an API secret (a key and
// secret swapped) shows nothing, even with showFull: the exchange never
// lists one as a key. With showFull a key is returned as it is.
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

// hidden is a masked value that shows nothing of it.
const hidden = "****"

// secretLength is the length of a WOO X API secret: 28 capital letters and
// digits (an API key is 24 characters of base64, ending in "==").
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
