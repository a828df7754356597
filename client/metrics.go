package client

import (
	"github.com/prometheus/client_golang/prometheus"
)

// Metrics instruments the HTTP calls of every Client that shares it.
type Metrics struct {
	requests  *prometheus.CounterVec
	duration  *prometheus.HistogramVec
	clockSkew prometheus.Gauge
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
	}
	if reg != nil {
		reg.MustRegister(m.requests, m.duration, m.clockSkew)
	}
	return m
}
