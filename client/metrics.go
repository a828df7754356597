package client

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics instruments the HTTP calls of every Client that shares it. Each
// account's counters are a collector (AccountMetrics), encoded again only
// when that account sent a request.
type Metrics struct {
	duration            *prometheus.HistogramVec
	clockSkew           prometheus.Gauge
	capLimit, capQueued prometheus.Gauge // RateCap's rate and the requests waiting

	mu       sync.Mutex
	accounts map[string]*AccountMetrics
}

var (
	requestsOpts = prometheus.CounterOpts{
		Name: "woox_api_requests_total",
		Help: "Requests sent to the exchange API, by endpoint, account and HTTP status code (\"error\" when no response came).",
	}
	capWaitOpts = prometheus.CounterOpts{
		Name: "woox_api_rate_cap_wait_seconds_total",
		Help: "Seconds the account's requests waited for their turn under --api.max-requests-per-second (account \"\" is the public endpoints).",
	}
	capAdmittedOpts = prometheus.CounterOpts{
		Name: "woox_api_rate_cap_admitted_total",
		Help: "Requests of the account let through --api.max-requests-per-second, waiting or not: the divisor of woox_api_rate_cap_wait_seconds_total.",
	}
)

// NewProcessMetrics creates the client metrics and registers the
// process-wide ones on reg (each account's are Client.AccountMetrics).
func NewProcessMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "woox_api_request_duration_seconds",
			Help:    "Duration of requests to the exchange API, by endpoint.",
			Buckets: []float64{0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30},
		}, []string{"endpoint"}),
		clockSkew: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "woox_api_clock_skew_seconds",
			Help: "Exchange server clock minus local clock, from the latest trusted answer (successful, quick, within a day).",
		}),
		capLimit: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "woox_api_rate_cap_requests_per_second",
			Help: "Most requests a second the process sends to the exchange, over every account (--api.max-requests-per-second); 0 when uncapped.",
		}),
		capQueued: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "woox_api_rate_cap_queued",
			Help: "Requests waiting now for their turn under --api.max-requests-per-second.",
		}),
		accounts: map[string]*AccountMetrics{},
	}
	if reg != nil {
		reg.MustRegister(m.duration, m.clockSkew, m.capLimit, m.capQueued)
	}
	return m
}

// account is the account's metrics ("" the public endpoints'), made on first use.
func (m *Metrics) account(name string) *AccountMetrics {
	m.mu.Lock()
	defer m.mu.Unlock()
	a, ok := m.accounts[name]
	if !ok {
		a = &AccountMetrics{name: name,
			requests:    prometheus.NewCounterVec(forAccount(requestsOpts, name), []string{"endpoint", "code"}),
			capWait:     prometheus.NewCounter(forAccount(capWaitOpts, name)),
			capAdmitted: prometheus.NewCounter(forAccount(capAdmittedOpts, name)),
		}
		m.accounts[name] = a
	}
	return a
}

// forAccount is o with the account as a constant label, a collector each.
func forAccount(o prometheus.CounterOpts, account string) prometheus.CounterOpts {
	o.ConstLabels = prometheus.Labels{"account": account}
	return o
}

// AccountMetrics are one account's request counters, and rate cap counters under one.
type AccountMetrics struct {
	name                 string
	requests             *prometheus.CounterVec
	capWait, capAdmitted prometheus.Counter
	capped               atomic.Bool
	changes              atomic.Uint64
}

// Name is the account's name, "" the public endpoints'.
func (a *AccountMetrics) Name() string { return a.name }

// Generation changes whenever the metrics may have.
func (a *AccountMetrics) Generation() uint64 { return a.changes.Load() }

// Describe implements prometheus.Collector.
func (a *AccountMetrics) Describe(ch chan<- *prometheus.Desc) {
	a.requests.Describe(ch)
	ch <- a.capWait.Desc()
	ch <- a.capAdmitted.Desc()
}

// Collect implements prometheus.Collector.
func (a *AccountMetrics) Collect(ch chan<- prometheus.Metric) {
	a.requests.Collect(ch)
	if a.capped.Load() {
		ch <- a.capWait
		ch <- a.capAdmitted
	}
}

// request counts a request of endpoint answered with code.
func (a *AccountMetrics) request(endpoint, code string) {
	a.requests.WithLabelValues(endpoint, code).Inc()
	a.changes.Add(1)
}

// expect makes the endpoint's series of code exist at 0.
func (a *AccountMetrics) expect(endpoint, code string) {
	a.requests.WithLabelValues(endpoint, code)
	a.changes.Add(1)
}

// joinCap makes the account's rate cap counters exist.
func (a *AccountMetrics) joinCap() {
	a.capped.Store(true)
	a.changes.Add(1)
}

// admit counts a request let through the rate cap after waiting waited.
func (a *AccountMetrics) admit(waited time.Duration) {
	a.capWait.Add(waited.Seconds())
	a.capAdmitted.Inc()
	a.changes.Add(1)
}
