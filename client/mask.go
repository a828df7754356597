package client

// MaskAPIKey shortens an API key for logs, labels and rejected rows: its
// first and last four characters joined by "...", or "****" when the key
// has eight characters or fewer and showing both ends would give it away.
// With showFull the key is returned as it is.
func MaskAPIKey(key string, showFull bool) string {
	if showFull {
		return key
	}
	r := []rune(key)
	if len(r) <= 8 {
		return "****"
	}
	return string(r[:4]) + "..." + string(r[len(r)-4:])
}
