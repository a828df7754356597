package main

import (
	"github.com/woox-exporter/woox_exporter/collector"
	"github.com/woox-exporter/woox_exporter/statefile"
)

// stateSections are the sections of the state file beyond the token
// history: the counted histories', which package collector declares and
// package statefile keeps without knowing what they hold.
func stateSections() []statefile.Section {
	var out []statefile.Section
	for _, s := range collector.StateSections() {
		out = append(out, statefile.Section(s))
	}
	return out
}
