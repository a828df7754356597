package collector

import (
	"github.com/prometheus/client_golang/prometheus"
)

var (
	pollLabels = []string{"endpoint", "account"}

	pollSuccessDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "poll", "success"),
		"Whether the last background poll of the endpoint succeeded (1) or failed (0); after a failure the last good data stays exported.",
		pollLabels, nil)
	pollLastSuccessDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "poll", "last_success_timestamp_seconds"),
		"Unix time of the last successful background poll of the endpoint.",
		pollLabels, nil)
	pollFailuresDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "poll", "failures_total"),
		"Failed background polls of the endpoint by reason: rate_limited (HTTP 429), auth (key, signature, timestamp or IP refused), "+
			"maintenance (the exchange says so), transient (5xx, timeout, connection), bad_response (an answer or refusal the exporter cannot use), "+
			"stalled (no progress for too long), tls (the https connection failed: a certificate that does not verify, or a plain-http server). "+
			"Every reason exists at 0 from the start.",
		[]string{"endpoint", "account", "reason"}, nil)
	pollDurationDesc = prometheus.NewDesc(
		prometheus.BuildFQName(namespace, "poll", "duration_seconds"),
		"Duration of the last background poll of the endpoint, including waits for the request budget.",
		pollLabels, nil)
)

// HealthCollector exports the outcome of every poller's last poll, and
// every series cap's count. A poller appears once its first poll has
// finished (its last success and rows rejected once it has succeeded),
// except for its failure counters, which exist from the start so that
// increase() sees the first failure. It is served in two halves, each a
// part per account (the public endpoints' under account ""): the poll
// times, which move at every poll, and the outcomes, which move only when
// a poll changes one, so that a poll re-encodes a few series of its
// account, not all of its health.
type HealthCollector struct {
	accounts []healthAccount
}

// healthAccount is the pollers and series caps of one account.
type healthAccount struct {
	name    string
	pollers []*poller
	caps    []*seriesCap
}

var _ prometheus.Collector = (*HealthCollector)(nil)

// newHealthCollector groups pollers and caps by account, in the order of
// their first poller or cap.
func newHealthCollector(pollers []*poller, caps []*seriesCap) *HealthCollector {
	c := &HealthCollector{}
	index := map[string]int{}
	group := func(account string) *healthAccount {
		i, ok := index[account]
		if !ok {
			i = len(c.accounts)
			index[account] = i
			c.accounts = append(c.accounts, healthAccount{name: account})
		}
		return &c.accounts[i]
	}
	for _, p := range pollers {
		a := group(p.account)
		a.pollers = append(a.pollers, p)
	}
	for _, s := range caps {
		a := group(s.account)
		a.caps = append(a.caps, s)
	}
	return c
}

// Describe implements prometheus.Collector.
func (c *HealthCollector) Describe(ch chan<- *prometheus.Desc) {
	c.times().Describe(ch)
	c.outcomes().Describe(ch)
}

// Collect implements prometheus.Collector.
func (c *HealthCollector) Collect(ch chan<- prometheus.Metric) {
	c.times().Collect(ch)
	c.outcomes().Collect(ch)
}

// times is the half of c that moves at every poll: each poll's duration
// and last success.
func (c *HealthCollector) times() healthHalf { return healthHalf{c: c, times: true} }

// outcomes is the half of c that moves when a poll's outcome changes:
// success, failures, rows rejected, and the series caps' counts.
func (c *HealthCollector) outcomes() healthHalf { return healthHalf{c: c} }

// healthHalf is the poll times or the poll outcomes of a HealthCollector.
type healthHalf struct {
	c     *HealthCollector
	times bool
}

var _ accountSplit = healthHalf{}

// Describe implements prometheus.Collector.
func (h healthHalf) Describe(ch chan<- *prometheus.Desc) {
	if h.times {
		ch <- pollLastSuccessDesc
		ch <- pollDurationDesc
		return
	}
	ch <- pollSuccessDesc
	ch <- pollFailuresDesc
	ch <- pollRowsRejectedDesc
	ch <- seriesCappedDesc
}

// Collect implements prometheus.Collector.
func (h healthHalf) Collect(ch chan<- prometheus.Metric) {
	for i := range h.c.accounts {
		h.collectAt(i, ch)
	}
}

// accountNames implements accountSplit.
func (h healthHalf) accountNames() []string {
	return namesOf(h.c.accounts, func(i int) string { return h.c.accounts[i].name })
}

// generationAt implements accountSplit.
func (h healthHalf) generationAt(i int) uint64 {
	if h.times {
		return h.c.accounts[i].timesGeneration()
	}
	return h.c.accounts[i].outcomesGeneration()
}

// collectAt implements accountSplit.
func (h healthHalf) collectAt(i int, ch chan<- prometheus.Metric) {
	if h.times {
		h.c.accounts[i].collectTimes(ch)
		return
	}
	h.c.accounts[i].collectOutcomes(ch)
}

// timesGeneration is the account's finished polls.
func (a *healthAccount) timesGeneration() uint64 {
	var g uint64
	for _, p := range a.pollers {
		g += p.finishedPolls.Load()
	}
	return g
}

// outcomesGeneration is the account's polls that changed an outcome, and
// its caps' counts.
func (a *healthAccount) outcomesGeneration() uint64 {
	var g uint64
	for _, p := range a.pollers {
		g += p.outcomeChanges.Load()
	}
	for _, s := range a.caps {
		g += s.capped.Load()
	}
	return g
}

// collectTimes exports each poll's duration and last success.
func (a *healthAccount) collectTimes(ch chan<- prometheus.Metric) {
	for _, p := range a.pollers {
		st := p.lastStatus()
		if !st.polled {
			continue
		}
		ch <- prometheus.MustNewConstMetric(pollDurationDesc, prometheus.GaugeValue, st.duration.Seconds(), p.endpoint, p.account)
		if !st.lastSuccess.IsZero() {
			ch <- prometheus.MustNewConstMetric(pollLastSuccessDesc, prometheus.GaugeValue,
				float64(st.lastSuccess.UnixNano())/1e9, p.endpoint, p.account)
		}
	}
}

// collectOutcomes exports each poller's failures, success and rows
// rejected, and each cap's count.
func (a *healthAccount) collectOutcomes(ch chan<- prometheus.Metric) {
	for _, p := range a.pollers {
		st := p.lastStatus()
		for i, reason := range failureReasons {
			ch <- prometheus.MustNewConstMetric(pollFailuresDesc, prometheus.CounterValue, float64(st.failures[i]), p.endpoint, p.account, reason)
		}
		if !st.polled {
			continue
		}
		ch <- prometheus.MustNewConstMetric(pollSuccessDesc, prometheus.GaugeValue, boolFloat(st.success), p.endpoint, p.account)
		if !st.lastSuccess.IsZero() {
			ch <- prometheus.MustNewConstMetric(pollRowsRejectedDesc, prometheus.GaugeValue, float64(st.rejected), p.endpoint, p.account)
		}
	}
	for _, s := range a.caps {
		ch <- prometheus.MustNewConstMetric(seriesCappedDesc, prometheus.CounterValue, float64(s.capped.Load()), s.endpoint, s.account)
	}
}
