package endpoint

import "strings"

// CollectorName is the endpoint's name in flags: token_history is polled
// every --token-history.interval and turned off by
// --no-collector.token-history.
func (ep Endpoint) CollectorName() string { return strings.ReplaceAll(ep.Name, "_", "-") }

// FlagName is the command-line flag of the endpoint's poll interval.
func (ep Endpoint) FlagName() string { return ep.CollectorName() + ".interval" }

// DefaultIntervalFlag is DefaultInterval as the interval flag takes it: 5m,
// not 5m0s.
func (ep Endpoint) DefaultIntervalFlag() string {
	s := ep.DefaultInterval.String()
	for _, zero := range []string{"0s", "0m"} {
		if len(s) > len(zero) && strings.HasSuffix(s, zero) {
			s = strings.TrimSuffix(s, zero)
		}
	}
	return s
}

// RateLimitFlagName is the command-line flag of a private endpoint's rate
// limit per account.
func (ep Endpoint) RateLimitFlagName() string { return ep.CollectorName() + ".rate-limit" }

// Enabled reports whether the endpoint is polled under collectors, the
// --collector.NAME switches by endpoint name, which override OffByDefault.
func (ep Endpoint) Enabled(collectors map[string]bool) bool {
	if on, ok := collectors[ep.Name]; ok {
		return on
	}
	return !ep.OffByDefault
}

// Names are the names of the enabled public endpoints, or of the enabled
// per-account ones: what a client of that kind will call.
func Names(perAccount bool, collectors map[string]bool) []string {
	var names []string
	for _, ep := range All {
		if ep.PerAccount == perAccount && ep.Enabled(collectors) {
			names = append(names, ep.Name)
		}
	}
	return names
}
