package collector

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/go-kit/log"
	"github.com/go-kit/log/level"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/woox-exporter/woox_exporter/allowlist"
)

var allowListUnlistedDesc = prometheus.NewDesc(prometheus.BuildFQName(namespace, "wallet", "allowlist_unknown_network_entries"),
	"Entries of --wallet.withdrawal-allowlist whose network the exchange's token networks do not list: every withdrawal on such "+
		"a network would be judged unlisted. Absent until the token networks are first read, and without an allow-list.",
	nil, nil)

// allowListCheck checks the allow-list's networks against each token
// network list stored, and says which entries name a network not listed.
type allowListCheck struct {
	list   *allowlist.List
	logger log.Logger
	// unknown is the count of entries on unlisted networks, -1 before any
	// list was checked.
	unknown atomic.Int64

	mu sync.Mutex
	// reported is what was last logged, so that an unchanged finding is
	// logged once, not at every list.
	reported string
}

func newAllowListCheck(list *allowlist.List, logger log.Logger) *allowListCheck {
	c := &allowListCheck{list: list, logger: logger}
	c.unknown.Store(-1)
	return c
}

// check checks the allow-list against the networks listed.
func (c *allowListCheck) check(networks []string) {
	if c == nil || c.list == nil {
		return
	}
	unlisted := c.list.Unlisted(networks)
	c.unknown.Store(int64(len(unlisted)))
	c.mu.Lock()
	defer c.mu.Unlock()
	if key := fmt.Sprint(unlisted); key != c.reported {
		c.reported = key
		ReportUnlisted(c.logger, unlisted)
	}
}

// ReportUnlisted logs a warning for each allow-list entry on a network the
// exchange does not list, with the listed network it most likely means.
func ReportUnlisted(logger log.Logger, unlisted []allowlist.Unlisted) {
	for _, u := range unlisted {
		closest := u.Closest
		if closest == "" {
			closest = "none close"
		}
		level.Warn(logger).Log("msg", "an allow-list entry names a network the exchange does not list: every withdrawal on it would page as unlisted; use the network's name as the token networks give it",
			"entry", u.Entry.String(), "closest_listed", closest)
	}
}

// collect exports the count of entries on unlisted networks once a list
// was checked.
func (c *allowListCheck) collect(ch chan<- prometheus.Metric) {
	if c == nil || c.list == nil {
		return
	}
	if n := c.unknown.Load(); n >= 0 {
		ch <- prometheus.MustNewConstMetric(allowListUnlistedDesc, prometheus.GaugeValue, float64(n))
	}
}
