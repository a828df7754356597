package collector

// Handoff is what a stopped exporter passes to the one that replaces it in
// the same process (a reload): every account's state of every history it
// counts, so that their counters continue, with a state file or without.
// Each collector that counts one hands its own off (handoffer), under the
// name of its state file section, so that a new one needs no edit here.
type Handoff struct {
	// states are the states by section and account.
	states map[string]map[string]any
}

// handoffer is a collector whose counts continue across a reload.
type handoffer interface {
	// handOff puts each account's state into h.
	handOff(h *Handoff)
}

// Handoff exports the states; call it after Run has returned.
func (e *Exporter) Handoff() *Handoff {
	h := &Handoff{states: map[string]map[string]any{}}
	for _, c := range e.byName {
		if c, ok := c.(handoffer); ok {
			c.handOff(h)
		}
	}
	for _, c := range e.counted {
		c.handOff(h)
	}
	return h
}

// put hands off account's state of section.
func (h *Handoff) put(section, account string, st any) {
	if h.states[section] == nil {
		h.states[section] = map[string]any{}
	}
	h.states[section][account] = st
}

// handed is the account's state of section from the exporter this one
// replaces, if it had the account.
func handed[S any](cfg *Config, section, account string) (S, bool) {
	var zero S
	if cfg.Handoff == nil {
		return zero, false
	}
	st, ok := cfg.Handoff.states[section][account].(S)
	return st, ok
}
