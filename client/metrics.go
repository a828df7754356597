package client

import (
	"github.com/prometheus/client_golang/prometheus"
)

// Metrics instruments the HTTP calls of every Client that shares it.
type Metrics struct {
	requests  *prometheus.CounterVec
	duration  *prometheus.HistogramVec
	clockSkew prometheus.Gauge
	// The process-wide cap (RateCap): its rate, the requests waiting for
	// it, and each account's time waited and requests let through.
	capLimit, capQueued  prometheus.Gauge
	capWait, capAdmitted *prometheus.CounterVec
}

// NewMetrics creates the client metrics and registers them on reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "woox_api_requests_total",
			Help: "Requests sent to the exchange API, by endpoint, account and HTTP status code (\"error\" when no response came).",
		}, []string{"endpoint", "account", "code"}),
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
		capWait: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "woox_api_rate_cap_wait_seconds_total",
			Help: "Seconds the account's requests waited for their turn under --api.max-requests-per-second (account \"\" is the public endpoints).",
		}, []string{"account"}),
		capAdmitted: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "woox_api_rate_cap_admitted_total",
			Help: "Requests of the account let through --api.max-requests-per-second, waiting or not: the divisor of woox_api_rate_cap_wait_seconds_total.",
		}, []string{"account"}),
	}
	if reg != nil {
		reg.MustRegister(m.requests, m.duration, m.clockSkew, m.capLimit, m.capQueued, m.capWait, m.capAdmitted)
	}
	return m
}
