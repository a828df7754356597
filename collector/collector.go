// Package collector turns what background pollers last read from the WOO X
// exchange into Prometheus metrics.
//
// A scrape never calls the exchange. One poller per (account, endpoint)
// refreshes a snapshot on its own schedule, and a poll that changed it moves
// its part's generation: the exposition handler gathers and encodes the part
// again, once per format, within a second (see Source). The endpoints are
// listed once, in endpoint.All. Any number of Prometheus servers therefore
// cost the exchange nothing, a slow exchange never slows a scrape, and a
// scrape never delays a poll. After a failed poll the last good data stays
// exported and the woox_poll_* metrics show the failure.
package collector

import (
	"time"
)

const namespace = "woox"

// refreshed ends every HELP text: the data is as old as the last poll.
const refreshed = " Refreshed in the background, not at scrape time."

// StateStore keeps each history's states across restarts, by section of
// the state file (see StateSections) and account (package statefile
// implements it with a file).
type StateStore interface {
	// SectionState returns one account's saved state of a section.
	SectionState(section, account string) (any, bool)
	// SaveSection replaces one account's saved state of a section.
	SaveSection(section, account string, st any) error
	// SetAside moves one account's saved state of a section out of the
	// store, into a file whose name it returns.
	SetAside(section, account string, now time.Time) (string, error)
}

func boolFloat(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
