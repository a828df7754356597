package reload

import (
	"github.com/alecthomas/kingpin/v2"

	"github.com/woox-exporter/woox_exporter/config"
)

// Changes are how the accounts read by a reload differ from those in use,
// by name.
type Changes struct {
	Added, Removed []string
	// Rotated are accounts under the same name with another API key or
	// secret; NewKey is set when one of them has another API key.
	Rotated []string
	NewKey  bool
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
			c.NewKey = c.NewKey || o.APIKey != a.APIKey
		}
	}
	for _, a := range inUse {
		if !seen[a.Name] {
			c.Removed = append(c.Removed, a.Name)
		}
	}
	return c
}

// ChangedFlags names (as --name) the flags whose values in reparsed, the
// command line parsed again, differ from those in inUse.
func ChangedFlags(inUse, reparsed *kingpin.Application) []string {
	was := map[string]string{}
	for _, f := range inUse.Model().Flags {
		was[f.Name] = f.Value.String()
	}
	var changed []string
	for _, f := range reparsed.Model().Flags {
		if v, ok := was[f.Name]; ok && v != f.Value.String() {
			changed = append(changed, "--"+f.Name)
		}
	}
	return changed
}
