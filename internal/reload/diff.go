package reload

import (
	"github.com/woox-exporter/woox_exporter/config"
)

// Changes are how the accounts read by a reload differ from those in use,
// by name.
type Changes struct {
	Added, Removed []string
	// Rotated are accounts under the same name with another API key or
	// secret.
	Rotated []string
}

// None reports whether nothing changed.
func (c Changes) None() bool { return len(c.Added)+len(c.Removed)+len(c.Rotated) == 0 }

// Diff compares the accounts in use with the accounts read, each list in
// its own order.
func Diff(inUse, read []config.Account) Changes {
	var c Changes
	old := map[string]config.Account{}
	for _, a := range inUse {
		old[a.Name] = a
	}
	seen := map[string]bool{}
	for _, a := range read {
		seen[a.Name] = true
		o, ok := old[a.Name]
		switch {
		case !ok:
			c.Added = append(c.Added, a.Name)
		case o.APIKey != a.APIKey || o.Secret.Reveal() != a.Secret.Reveal():
			c.Rotated = append(c.Rotated, a.Name)
		}
	}
	for _, a := range inUse {
		if !seen[a.Name] {
			c.Removed = append(c.Removed, a.Name)
		}
	}
	return c
}
