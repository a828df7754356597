package config

import (
	"slices"
	"strings"
)

// LookupIn looks variables up in env (KEY=VALUE entries, as os.Environ
// gives them); the last entry of a name wins, as with os.Getenv.
func LookupIn(env []string) Lookup {
	vars := map[string]string{}
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			vars[k] = v
		}
	}
	return func(k string) (string, bool) {
		v, ok := vars[k]
		return v, ok
	}
}

// UnreadVariables are the names of the WOOX_ variables set in env that the
// exporter does not read (read, as ReadVariables gives it), sorted; never
// their values.
func UnreadVariables(env []string, read map[string]bool) []string {
	var unread []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "WOOX_") && !read[name] {
			unread = append(unread, name)
		}
	}
	slices.Sort(unread)
	return slices.Compact(unread)
}
