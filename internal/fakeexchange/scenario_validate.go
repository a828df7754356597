package fakeexchange

import (
	"cmp"
	"fmt"
	"maps"
	"net/netip"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Validate reports the first problem of the scenario, naming its field.
func (s *Scenario) Validate() error {
	if err := s.validateSettings(); err != nil {
		return err
	}
	for _, ep := range routes {
		if ep.validate != nil {
			if err := ep.validate(s); err != nil {
				return err
			}
		}
	}
	names, err := s.validateAccounts()
	if err != nil {
		return err
	}
	return s.validateEvents(names)
}

// validateSettings checks the scenario's scalar settings.
func (s *Scenario) validateSettings() error {
	l, et := cmp.Or(s.LateListing, &LateListing{}), cmp.Or(s.ErrorTimestamp, &ErrorTimestamp{})
	units := []string{RowTimeMillis, RowTimeSeconds, RowTimeSecondsFraction}
	err := cmp.Or(
		fieldErrIf(s.NumbersAsStrings && s.NumbersAsJSONNumbers, "numbers_as_strings", "cannot be combined with numbers_as_json_numbers"),
		oneOf("signature_query", s.SignatureQuery, SignatureQueryExact, SignatureQuerySorted),
		oneOf("row_time_unit", s.RowTimeUnit, units...),
		oneOf("wallet_time_unit", s.WalletTimeUnit, units...),
		validateUnreadableRows(s.UnreadableRows),
		fieldErrIf(!(l.Share >= 0 && l.Share <= 1), "late_listing.share", "must be between 0 and 1, got %v", l.Share),
		fieldErrIf(l.Delay < 0, "late_listing.delay", "must not be negative"),
		oneOf("error_timestamp.unit", et.Unit, ErrorTimestampMillis, ErrorTimestampMicros),
		fieldErrIf(s.PageCap < 0, "page_cap", "must not be negative"),
		fieldErrIf(s.UnderstateTotal < 0, "understate_total", "must not be negative"),
		fieldErrIf(s.OverstateTotal < 0, "overstate_total", "must not be negative"),
		rateLimitErr("rate_limit", s.RateLimit),
		rateLimitErr("public_rate_limit", s.PublicRateLimit),
	)
	for i, id := range s.MalformedIDs {
		err = cmp.Or(err, fieldErrIf(slices.Index(s.MalformedIDs, id) < i, fmt.Sprintf("malformed_ids[%d]", i), "duplicate id %d", id))
	}
	for _, name := range slices.Sorted(maps.Keys(s.RateLimits)) {
		ep, ok := routeOf(name)
		err = cmp.Or(err, fieldErrIf(!ok || !ep.PerAccount, "rate_limits."+name, "not a private endpoint"),
			rateLimitErr("rate_limits."+name, s.RateLimits[name]))
	}
	return err
}

// oneOf checks that value, if set, is one of values.
func oneOf(field, value string, values ...string) error {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = strconv.Quote(v)
	}
	bad := value != "" && !slices.Contains(values, value)
	return fieldErrIf(bad, field, "must be %s or %s, got %q", strings.Join(q[:len(q)-1], ", "), q[len(q)-1], value)
}

func rateLimitErr(field, limit string) error {
	_, _, err := ParseRateLimit(limit)
	return fieldErrIf(limit != "" && err != nil, field, "%v", err)
}

// validateAccounts checks every account and returns their names.
func (s *Scenario) validateAccounts() (map[string]bool, error) {
	names := map[string]bool{}
	keys := map[string]bool{}
	for i, a := range s.Accounts {
		p := fmt.Sprintf("accounts[%d]", i)
		if a.Name == "" {
			return nil, fieldErr(p+".name", "must not be empty")
		}
		if names[a.Name] {
			return nil, fieldErr(p+".name", "duplicate account %q", a.Name)
		}
		names[a.Name] = true
		for j, k := range a.Keys {
			if err := validateKey(k, keys); err != nil {
				return nil, fmt.Errorf("%s.keys[%d].%w", p, j, err)
			}
		}
		for _, ep := range routes {
			if ep.validateAccount == nil {
				continue
			}
			if err := ep.validateAccount(s, a); err != nil {
				return nil, fmt.Errorf("%s.%w", p, err)
			}
		}
	}
	return names, nil
}

// validateEvents checks every event against the scenario's account names.
func (s *Scenario) validateEvents(names map[string]bool) error {
	for i, ev := range s.Events {
		p := fmt.Sprintf("events[%d]", i)
		if ev.After < 0 {
			return fieldErr(p+".after", "must not be negative")
		}
		// Every action is a pointer or a flag: an event of none is its time
		// alone.
		if ev == (Event{After: ev.After}) {
			return fieldErr(p, "no action")
		}
		if f := ev.Fault; f != nil {
			if err := f.validate(); err != nil {
				return fmt.Errorf("%s.fault.%w", p, err)
			}
		}
		if u := ev.UnreadableRows; u != nil {
			if err := validateUnreadableRows(*u); err != nil {
				return fmt.Errorf("%s.%w", p, err)
			}
		}
		for _, ep := range routes {
			if ep.validateEvent == nil {
				continue
			}
			if err := ep.validateEvent(s, ev, names); err != nil {
				return fmt.Errorf("%s.%w", p, err)
			}
		}
	}
	return nil
}

func validateKey(k Key, seen map[string]bool) error {
	if k.APIKey == "" {
		return fieldErr("api_key", "must not be empty")
	}
	if seen[k.APIKey] {
		return fieldErr("api_key", "duplicate key") // the value may be secret-like: not echoed
	}
	seen[k.APIKey] = true
	if k.APISecret == "" {
		return fieldErr("api_secret", "must not be empty")
	}
	return validateIPs(k.AllowedIPs)
}

// validateIPs checks a key's allowed IPs.
func validateIPs(ips []string) error {
	for i, ip := range ips {
		if _, err := netip.ParseAddr(ip); err != nil {
			return fieldErr(fmt.Sprintf("allowed_ips[%d]", i), "not an IP address: %q", ip)
		}
	}
	return nil
}

// ParseRateLimit parses "N/window" ("10/60s"); any zero part means no limit.
func ParseRateLimit(s string) (requests int, window time.Duration, err error) {
	n, w, ok := strings.Cut(s, "/")
	if !ok {
		return 0, 0, fmt.Errorf("rate limit %q: want N/duration, e.g. 10/60s", s)
	}
	requests, err = strconv.Atoi(n)
	if err != nil || requests < 0 {
		return 0, 0, fmt.Errorf("rate limit %q: bad request count", s)
	}
	window, err = time.ParseDuration(w)
	if err != nil || window < 0 {
		return 0, 0, fmt.Errorf("rate limit %q: bad window", s)
	}
	return requests, window, nil
}

func fieldErr(field, format string, args ...any) error {
	return fmt.Errorf("%s: %s", field, fmt.Sprintf(format, args...))
}

// fieldErrIf is fieldErr when bad, else nil.
func fieldErrIf(bad bool, field, format string, args ...any) error {
	if !bad {
		return nil
	}
	return fieldErr(field, format, args...)
}

// decimalText is a plain JSON number, sent as a string or a number alike.
var decimalText = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)
