package exportertest

import (
	"net"
	"time"

	"github.com/woox-exporter/woox_exporter/endpoint"
)

// IntervalFlags returns --NAME.interval=d for every endpoint the exporter
// polls, so that a new endpoint is polled as often as the others.
func IntervalFlags(d time.Duration) []string {
	flags := make([]string, 0, len(endpoint.All))
	for _, ep := range endpoint.All {
		flags = append(flags, "--"+ep.FlagName()+"="+d.String())
	}
	return flags
}

// OffByDefaultCollectorFlags returns --collector.NAME for every endpoint
// the exporter polls only when asked, so that a run with them polls every
// endpoint.
func OffByDefaultCollectorFlags() []string {
	var flags []string
	for _, ep := range endpoint.All {
		if ep.OffByDefault {
			flags = append(flags, "--collector."+ep.CollectorName())
		}
	}
	return flags
}

// FreeAddr returns a loopback address whose port was free a moment ago.
func FreeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}
